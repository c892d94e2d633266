"""Battlefields of Olympus: registers the game with the engine registry."""
from shared.engine import register

from .game import BattlefieldsOfOlympus

GAME = register(BattlefieldsOfOlympus())

__all__ = ["GAME", "BattlefieldsOfOlympus"]
