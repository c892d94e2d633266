"""Cheap move choices for search playouts (``Game.playout_move``): sensible, not clever.

A uniformly random playout passes in a battle as often as it fights and skips restocking, so
its battles are decided by coin flips. The guided playout keeps the randomness where a choice is
a matter of taste and plays the obvious move where there is one:

* battle: the leader passes in his free chance (a tying card would change nothing); otherwise a
  random Warrior or Action rather than a pass, when there is any;
* restock: take a random Reserve card while the hand has room (``restock_done`` only at the end);
* elsewhere: uniformly random.
"""
from __future__ import annotations


def _without(moves: list[dict], kind: str) -> list[dict]:
    return [m for m in moves if m["type"] != kind]


def guided_move(state: dict, seat: int, moves: list[dict], rng) -> dict:
    """The playout's move for ``seat`` among its legal ``moves`` in the simulated ``state``."""
    phase = state["phase"]
    if phase == "battle":
        b = state["battle"]
        if b["passed"] is not None and b["leader"] == seat:
            return {"type": "pass"}
        moves = _without(moves, "pass") or moves
    elif phase == "restock":
        moves = _without(moves, "restock_done") or moves
    return moves[rng.randbelow(len(moves))]
