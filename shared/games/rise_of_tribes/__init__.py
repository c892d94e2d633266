"""Rise of Tribes (Breaking Games, 2017): grow, move, gather and lead a prehistoric tribe to 15 points."""
from ...engine import register
from .game import RiseOfTribes

GAME = register(RiseOfTribes())

__all__ = ["GAME", "RiseOfTribes"]
