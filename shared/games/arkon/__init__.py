"""Arkon: a 2-4 player card game of bidding for clans (see NOTES.md for interpretations)."""
from shared.engine import register

from .game import Arkon

GAME = register(Arkon())

__all__ = ["GAME", "Arkon"]
