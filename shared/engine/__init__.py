"""The engine: the contract games implement and the mechanics they share."""
from .errors import IllegalMove
from .events import Event, make_event, redact
from .game import Game, Move, State, Tx, explain_illegal
from .outcome import Outcome, ranks_from_scores
from .registry import all_games, get, register

__all__ = [
    "Event", "Game", "IllegalMove", "Move", "Outcome", "State", "Tx", "all_games",
    "explain_illegal", "get", "make_event", "ranks_from_scores", "redact", "register",
]
