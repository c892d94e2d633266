"""Where games register, and where services find them without naming any.

Each game package under ``shared.games`` calls ``register(GameClass())`` when imported;
``load_all`` imports every such package, and the modules named in ``GAME_MODULES``
(comma-separated) for games that live elsewhere. Several versions of one game may be registered: a
match is always replayed with the version that wrote it.
"""
from __future__ import annotations

import importlib
import os
import pkgutil

from .game import Game

_games: dict[tuple[str, str], Game] = {}
_latest: dict[str, Game] = {}
_loaded = False


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

    for mod in pkgutil.iter_modules(games.__path__):
        importlib.import_module(f"{games.__name__}.{mod.name}")
    for extra in filter(None, os.environ.get("GAME_MODULES", "").split(",")):
        importlib.import_module(extra.strip())  # plug-in games outside this package
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
