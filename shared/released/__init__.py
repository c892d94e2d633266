"""Released rules versions, frozen: immutable code for immutable logs (docs/releases.md).

``shared/games/<game>/`` holds each game's newest rules. Every older engine version that ever
ran on main is kept here, as ``shared/released/<game>/v<N>/``: a copy of the game's package as the
release that introduced the version shipped it (``scripts/freeze_release.py`` makes the copy). A
match is replayed, continued and audited with the version its log names, so a frozen copy is
never edited; a rules change is a new version of the live package.

``install`` registers a frozen class, fitting it to the parts of today's engine contract that were
added after it was written (see ``contract``).
"""
from __future__ import annotations

from shared.engine import Game, register

from .contract import fitted


def install(cls: type[Game], *, version: str, release: str) -> Game:
    """Register the frozen ``cls`` as engine ``version`` of its game, as commit ``release`` ran it."""
    if cls.version != version:
        raise ValueError(f"{cls.id}: frozen as version {version!r} but the class says {cls.version!r}")
    game = fitted(cls, release)()
    return register(game)
