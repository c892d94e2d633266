"""A position evaluation for the greedy bot: points, the battle in progress, cards in hand."""
from __future__ import annotations

from .content import Content
from .scoring import points
from .state import opp


def _battle_swing(content: Content, state: dict, seat: int) -> float:
    b = state.get("battle")
    if not b or b["winner"] is not None:
        return 0.0
    value = content.lands[b["land"]].value
    if b["leader"] == seat:
        return 0.6 * value
    if b["leader"] == opp(seat):
        return -0.6 * value
    return 0.0


def _material(state: dict, seat: int) -> float:
    me = state["seats"][seat]
    return 0.25 * len(me["hand"]) + 0.1 * len(me["reserve"]) + 0.15 * len(me["actions"]) + 0.3 * bool(me["bonus"])


def evaluate(content: Content, state: dict, seat: int) -> float:
    mine = points(content, state["seats"][seat]["lands"])
    theirs = points(content, state["seats"][opp(seat)]["lands"])
    return (mine - theirs) + _battle_swing(content, state, seat) + _material(state, seat) - _material(state, opp(seat))
