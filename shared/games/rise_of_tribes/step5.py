"""Step 5, Goals & Villages (rulebook page 7): the standing decision at the end of a turn —
complete Goals, build villages, use the events' step-5 options and Exogamy, in any order, until
``end_turn``."""
from __future__ import annotations

from .event_cards import play_step5, step5_moves
from .goals import complete, complete_moves
from .moves import register
from .powers import free_moves, play_free
from .villages import build, build_moves


def _legal_goals(state, d):
    seat = d["seat"]
    return (complete_moves(state, seat) + build_moves(state, seat) + step5_moves(state, seat)
            + free_moves(state, seat) + [{"type": "end_turn"}])


def _play_goals(tx, d, move):
    seat, kind = d["seat"], move["type"]
    if kind == "complete":
        complete(tx, seat, move["card"])
    elif kind in ("build", "build_hidden"):
        build(tx, seat, move)
    elif kind in ("hunt", "altar", "knowledge"):
        play_step5(tx, seat, move)
    elif kind == "end_turn":
        n = tx.state["n"]
        tx.emit("turn_started", {"seat": (seat + 1) % n, "number": tx.state["turn"]["number"] + 1})
    else:
        play_free(tx, seat, move)


register("goals", _legal_goals, _play_goals)
