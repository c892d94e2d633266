"""The move a search playout makes (``Game.playout_move``): cheap battle sense, some noise.

Asked for its card in a battle where an opposing side has already put cards down, a seat plays
the cheapest card that would lift its side above the best opposing side (by printed value and
its own modifiers, ``expected_value``), and when none would, it throws its cheapest card. The
first card of a battle, every other decision, and one move in ``EXPLORE`` are uniformly random,
so playouts still sample what the tree has not ruled out.
"""
from __future__ import annotations

from .combat_values import battlefield_values
from .content import value
from .heuristic import expected_value
from .table import team_of

EXPLORE = 4  # one playout move in EXPLORE is uniformly random


def _side(st: dict, seat: int) -> list[int]:
    return st["teams"][team_of(st, seat)] if st["teams"] else [seat]


def playout_move(st: dict, seat: int, moves: list[dict], rng) -> dict:
    pending = st["pending"][-1] if st["pending"] else None
    if len(moves) < 2 or pending is None or pending["kind"] != "play" or rng.randbelow(EXPLORE) == 0:
        return moves[rng.randbelow(len(moves))]
    totals = battlefield_values(st)
    mine = _side(st, seat)
    ours = sum(totals[s] for s in mine)
    theirs = max((sum(totals[s] for s in side) for side in (st["teams"] or [[s] for s in range(st["players"])])
                  if not set(side) & set(mine)), default=0)
    if theirs == 0:
        return moves[rng.randbelow(len(moves))]
    options = [(value(m["card"]), -expected_value(st, seat, m["card"]), i) for i, m in enumerate(moves)]
    winning = [o for o in options if ours - o[1] > theirs]
    return moves[min(winning or options)[2]]
