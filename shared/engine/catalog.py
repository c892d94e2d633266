"""A game's public content for clients that draw it (the viewer): printed names, values, texts and
provenance of its cards, and whatever else of its content is public (a board, action tables).

Each game package may have a ``catalog`` module exposing ``catalog() -> dict`` built from its own
content data files; ``of(game)`` finds it (for the live version of a game: released versions are
drawn with the live catalog) and adds the game's id and engine version. A game without one gets an
empty card list, which is still a valid catalog."""
from __future__ import annotations

import importlib
from functools import lru_cache

from .game import Game


def _package(game: Game) -> str:
    module = type(game).__module__
    return module.rsplit(".", 1)[0] if "." in module else module


@lru_cache(maxsize=64)
def _content(package: str) -> dict:
    try:
        mod = importlib.import_module(f"{package}.catalog")
    except ModuleNotFoundError as err:
        if err.name != f"{package}.catalog":
            raise
        return {"cards": {}}
    return mod.catalog()


def of(game: Game) -> dict:
    """``{"game", "engine", "cards": {content_id: {"name", "text", "values", "kind", "source"}}, ...}``."""
    content = dict(_content(_package(game)))
    content.setdefault("cards", {})
    return {"game": game.id, "engine": game.version, **content}


def card(name: str, text: str = "", values: dict | None = None, kind: str = "card", source="house") -> dict:
    """One catalog entry, in the shape every game's catalog uses."""
    return {"name": name, "text": text or "", "values": values or {}, "kind": kind, "source": source}
