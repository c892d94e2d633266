"""Fellowships of Fate (Hobby Japan, 2020): lead a fellowship of members to fill your journal."""
from shared.engine import register

from .game import FellowshipsOfFate

GAME = register(FellowshipsOfFate())

__all__ = ["FellowshipsOfFate", "GAME"]
