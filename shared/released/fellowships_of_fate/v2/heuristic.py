"""A game-specific evaluation for the greedy bot and the search bot's cut-off: VP banked plus
what tokens, relics, an upright legendary member and the members still in hand are likely to
become, relative to the best opponent.

Tokens are worth something only while they can still be spent: in the last round a seat with no
Overcome left to come (in hand, upright or in the ability being resolved) keeps them for the
tie-break alone."""
from __future__ import annotations

from functools import lru_cache

from .content import content
from .scoring import journal_vp

TOKEN = 0.45  # about what a token turns into (adventure VP per token of cost is 0.6 to 1)
DEAD_TOKEN = 0.02  # a token nothing can spend any more: a tie-break only
ICON_VALUE = {"gain": TOKEN, "wild": TOKEN + 0.05, "cost": -TOKEN, "overcome": 1.0, "excavate": 1.6,
              "sun": 2.0, "interrupt_all": 0.3}
LEVEL1_RELIC = 1.0
UPRIGHT_ODDS = 0.8  # a legendary member may still be interrupted before it resolves
HAND_ODDS = 0.6  # a member in hand still has to be played, and a legendary one to survive a turn
SPENDERS = ("overcome", "sun")  # steps after which tokens may still turn into VP


def icons_value(icons) -> float:
    total = 0.0
    for icon in icons:
        if isinstance(icon, str):
            total += ICON_VALUE["gain" if icon in content().tokens else icon]
        elif "cost" in icon:
            total += ICON_VALUE["cost"] * sum(icon["cost"].values())
        else:
            total += ICON_VALUE["wild"] * len(icon["kind"])
    return total


@lru_cache(maxsize=None)
def member_value(member: str) -> float:
    """What a member in hand is worth: its better ability, the legendary one discounted for the
    turn it must survive."""
    m = content().members[member]
    return max(icons_value(m.nameless), UPRIGHT_ODDS * icons_value(m.legendary))


@lru_cache(maxsize=None)
def _can_overcome(member: str) -> bool:
    m = content().members[member]
    return any(icon in SPENDERS for icon in m.legendary if isinstance(icon, str))


def _step_value(step: dict) -> float:
    op = step["op"]
    if op == "cost":
        return ICON_VALUE["cost"] * sum(step["tokens"].values())
    return ICON_VALUE[op]


def tokens_live(state: dict, seat: int) -> bool:
    """Can the seat's tokens still become VP? Always before the last round; in it, only with an
    Overcome still to come."""
    if state["round"] < content().rounds or state["phase"] == "formation":
        return True
    s = state["seats"][seat]
    if any(_can_overcome(card["id"]) for card in s["play"] if card["upright"]):
        return True
    hand = s["hand"]
    if isinstance(hand, list) and any(_can_overcome(m) for m in hand):
        return True
    turn = state.get("turn")
    return bool(turn and turn["seat"] == seat and turn["queue"] and
                any(st["op"] in SPENDERS for st in turn["queue"]))


def position(state: dict, seat: int) -> float:
    c = content()
    s = state["seats"][seat]
    token = TOKEN if tokens_live(state, seat) else DEAD_TOKEN
    value = journal_vp(state, seat) + token * sum(s["tokens"].values()) + LEVEL1_RELIC * len(s["relics"])
    for card in s["play"]:
        if card["upright"]:
            value += UPRIGHT_ODDS * icons_value(c.members[card["id"]].legendary)
    if state["phase"] == "explore" and isinstance(s["hand"], list):
        value += HAND_ODDS * sum(member_value(m) for m in s["hand"])
    turn = state.get("turn")
    if turn and turn["seat"] == seat and turn["queue"]:
        value += sum(_step_value(st) for st in turn["queue"])
    return value


def heuristic(state: dict, seat: int) -> float:
    mine = position(state, seat)
    others = [position(state, s) for s in range(state["players"]) if s != seat]
    return mine - max(others) if others else mine
