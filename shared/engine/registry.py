"""Where games register, and where services find them without naming any.

Each game package under ``shared.games`` calls ``register(GameClass())`` when imported;
``load_all`` imports every such package, every frozen release under ``shared.released``
(``shared/released/<game>/v<N>``, docs/releases.md), and the modules named in ``GAME_MODULES``
(comma-separated) for games that live elsewhere. Several versions of one game are registered: a
match is always replayed with the version that wrote it, and new matches get the newest.
"""
from __future__ import annotations

import hashlib
import importlib
import logging
import os
import pkgutil
import sys
from pathlib import Path

from .game import Game

log = logging.getLogger(__name__)

_games: dict[tuple[str, str], Game] = {}
_latest: dict[str, Game] = {}
_loaded = False
_fingerprints: dict[tuple[str, str], str] = {}
load_errors: dict[str, str] = {}  # module -> error, for games that failed to import


def register(game: Game) -> Game:
    _games[(game.id, game.version)] = game
    current = _latest.get(game.id)
    if current is None or _version_key(game.version) >= _version_key(current.version):
        _latest[game.id] = game
    return game


def _version_key(v: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in v.split("."))


# Where the games are: every subpackage of GAMES, and every version under RELEASED. Named, not
# imported: the games import the engine, so the engine imports them only by name, as plugins.
GAMES = "shared.games"
RELEASED = "shared.released"


def load_all() -> None:
    global _loaded
    if _loaded:
        return
    games, released = importlib.import_module(GAMES), importlib.import_module(RELEASED)

    names = [f"{games.__name__}.{mod.name}" for mod in pkgutil.iter_modules(games.__path__)]
    names += _released_modules(released)
    names += [x.strip() for x in os.environ.get("GAME_MODULES", "").split(",") if x.strip()]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as err:  # one broken game must not take the others down
            load_errors[name] = f"{type(err).__name__}: {err}"
            log.exception("game module %s failed to import", name)
    _loaded = True


def _released_modules(released) -> list[str]:
    """``shared.released.<game>.v<N>`` for every frozen version, oldest first."""
    out = []
    for game in pkgutil.iter_modules(released.__path__):
        if not game.ispkg:
            continue
        package = importlib.import_module(f"{released.__name__}.{game.name}")
        for version in pkgutil.iter_modules(package.__path__):
            if version.ispkg:
                out.append(f"{package.__name__}.{version.name}")
    return out


class NotInstalled(KeyError):
    """A game, or a version of it, this server does not have."""

    def __init__(self, game_id: str, version: str | None = None):
        super().__init__(game_id, version)
        self.game_id, self.version = game_id, version

    def __str__(self) -> str:
        if self.version is None or self.game_id not in _latest:
            return f"game {self.game_id!r} is not installed here"
        have = ", ".join(repr(v) for v in versions(self.game_id))
        return f"game {self.game_id!r} at engine {self.version!r} is not installed here (installed: {have})"


def get(game_id: str, version: str | None = None) -> Game:
    """The game ``game_id`` (latest version unless given); ``NotInstalled`` (a ``KeyError``) if
    this server does not have it."""
    load_all()
    game = _latest.get(game_id) if version is None else _games.get((game_id, version))
    if game is None:
        raise NotInstalled(game_id, version)
    return game


def versions(game_id: str) -> list[str]:
    """Every installed engine version of ``game_id``, oldest first (empty if unknown)."""
    load_all()
    return sorted((v for g, v in _games if g == game_id), key=_version_key)


def installed() -> list[Game]:
    """Every registered (game, version), by game then version."""
    load_all()
    return sorted(_games.values(), key=lambda g: (g.id, _version_key(g.version)))


def all_games() -> list[Game]:
    load_all()
    return sorted(_latest.values(), key=lambda g: g.id)


def fingerprint(game: Game) -> str:
    """A digest of the code and data that make ``game``'s states and answers: every file of its
    game package (the folder of its ``game.py``; a game written as one module: that module),
    documentation aside, so any edit of the rules gives another.

    Caches written from a state (snapshots, audits) carry it, and are used only by the same code.
    """
    key = (game.id, game.version)
    if key not in _fingerprints:
        module = sys.modules[type(game).__module__]
        path = Path(module.__file__)
        root = path.parent if path.name == "game.py" else path
        files = sorted(p for p in (root.rglob("*") if root.is_dir() else [root])
                       if p.is_file() and p.suffix not in (".md", ".pyc") and "__pycache__" not in p.parts)
        digest = hashlib.sha256()
        for f in files:
            digest.update(f.relative_to(root.parent).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
        _fingerprints[key] = digest.hexdigest()[:32]
    return _fingerprints[key]
