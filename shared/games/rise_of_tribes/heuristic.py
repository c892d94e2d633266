"""How good a position looks for a seat (the greedy bot's one-ply evaluation)."""
from __future__ import annotations

from .board import hexes_with_status, on_board
from .content import GOALS
from .goals import can_complete, villages_of


def _strength(state: dict, seat: int) -> float:
    s = state["seats"][seat]
    value = 4.0 * s["score"] + 3.0 * villages_of(state, seat)
    value += 0.25 * min(on_board(state, seat), 16)
    value += 0.4 * len(hexes_with_status(state, seat, "occupy"))
    value += 0.3 * len(hexes_with_status(state, seat, "control"))
    value += 0.2 * sum(min(k, 6) for k in s["res"].values())
    for card in s["progress"]:
        value += 1.0 * GOALS[card]["points"] if can_complete(state, seat, card) else 0.3
    value += 0.5 * len(s["done"])
    return value


def heuristic(state: dict, seat: int) -> float:
    """Own strength minus the best opponent's."""
    mine = _strength(state, seat)
    others = [_strength(state, s) for s in range(state["n"]) if s != seat]
    return mine - (max(others) if others else 0.0)
