"""1. Formation as one move: ``{"type": "form", "members": [four members]}``.

"Choose 4 member cards from your 9 member cards": a hand is a set of four of the seat's members,
so the legal moves are every 4-subset of them, each listed once, its members in the order of the
seat's ``members`` (the nine in rulebook order, then any Mythical Beast it obtained). The list is
always small enough to enumerate: nine members give C(9, 4) = 126 moves, and with the adventure
deck's Mythical Beast a seat has ten, C(10, 4) = 210, the most there can be (``max_formations``).
One move means a Formation cannot be kept going: it ends with the seat's first move.
"""
from __future__ import annotations

from itertools import combinations
from math import comb

from shared.engine import commitments

from .content import content


def max_formations() -> int:
    """The most ``form`` moves a seat can ever be offered: every member plus every Beast."""
    c = content()
    beasts = sum(1 for a in c.adventures.values() if a.member is not None)
    return comb(len(c.member_order) + beasts, c.hand_size)


def formations(members: list[str]) -> list[list[str]]:
    """Every hand the rulebook allows from ``members``, as lists in ``members`` order."""
    return [list(hand) for hand in combinations(members, content().hand_size)]


def form_moves(state: dict, seat: int) -> list[dict]:
    return [{"type": "form", "members": hand} for hand in formations(state["seats"][seat]["members"])]


def rulebook_options(state: dict, seat: int) -> list[list[str]] | None:
    """The hands "1. Formation" allows a seat still to form (sorted), else ``None``."""
    if state.get("phase") != "formation" or commitments.value(state["formation"], seat) is not None:
        return None
    return [sorted(hand) for hand in formations(state["seats"][seat]["members"])]


def option_chosen(start: dict, state: dict, seat: int) -> list[str] | None:
    """The hand ``seat`` formed since ``start`` (sorted), once it has; ``None`` before."""
    if state["round"] != start["round"] or state["phase"] == "over":
        return None
    if state["phase"] == "formation":
        return commitments.value(state["formation"], seat)
    return sorted(state["seats"][seat]["hand"])  # the last to form: Explore has begun
