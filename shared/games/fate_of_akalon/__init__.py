"""Fate of Akalon: Tribes (Foursight Games, 2016) — card battles of four faction decks."""
from shared.engine import register

from .game import FateOfAkalon

GAME = register(FateOfAkalon())

__all__ = ["FateOfAkalon", "GAME"]
