"""Where games register, and where services find them without naming any.

Each game package under ``shared.games`` calls ``register(GameClass())`` when imported;
``load_all`` imports every such package, and the modules named in ``GAME_MODULES``
(comma-separated) for games that live elsewhere. Several versions of one game may be registered: a
match is always replayed with the version that wrote it.
"""
from __future__ import annotations

import importlib
import logging
import os
import pkgutil

from .game import Game

log = logging.getLogger(__name__)

_games: dict[tuple[str, str], Game] = {}
_latest: dict[str, Game] = {}
_loaded = False
load_errors: dict[str, str] = {}  # module -> error, for games that failed to import


def register(game: Game) -> Game:
    _games[(game.id, game.version)] = game
    current = _latest.get(game.id)
    if current is None or _version_key(game.version) >= _version_key(current.version):
        _latest[game.id] = game
    return game


def _version_key(v: str) -> tuple:
    return tuple(int(p) if p.isdigit() else p for p in v.split("."))


def load_all() -> None:
    global _loaded
    if _loaded:
        return
    from .. import games

    names = [f"{games.__name__}.{mod.name}" for mod in pkgutil.iter_modules(games.__path__)]
    names += [x.strip() for x in os.environ.get("GAME_MODULES", "").split(",") if x.strip()]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as err:  # one broken game must not take the others down
            load_errors[name] = f"{type(err).__name__}: {err}"
            log.exception("game module %s failed to import", name)
    _loaded = True


def get(game_id: str, version: str | None = None) -> Game:
    """The game ``game_id`` (latest version unless given); ``KeyError`` if unknown."""
    load_all()
    if version is None:
        return _latest[game_id]
    return _games[(game_id, version)]


def all_games() -> list[Game]:
    load_all()
    return sorted(_latest.values(), key=lambda g: g.id)
