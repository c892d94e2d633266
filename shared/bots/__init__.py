"""Bot policies: pure functions from what a seat knows to a move."""
from .policies import POLICIES, choose_move

__all__ = ["POLICIES", "choose_move"]
