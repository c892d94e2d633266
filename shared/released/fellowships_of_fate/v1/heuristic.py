"""A game-specific evaluation for the greedy bot: VP banked plus what tokens, relics and an
upright legendary member are likely to become, relative to the best opponent."""
from __future__ import annotations

from .content import content
from .scoring import journal_vp

TOKEN = 0.45  # about what a token turns into (adventure VP per token of cost is 0.6 to 1)
ICON_VALUE = {"gain": TOKEN, "wild": TOKEN + 0.05, "cost": -TOKEN, "overcome": 1.0, "excavate": 1.6,
              "sun": 2.0, "interrupt_all": 0.3}
LEVEL1_RELIC = 1.0
UPRIGHT_ODDS = 0.8  # a legendary member may still be interrupted before it resolves


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


def position(state: dict, seat: int) -> float:
    c = content()
    s = state["seats"][seat]
    value = journal_vp(state, seat) + TOKEN * sum(s["tokens"].values()) + LEVEL1_RELIC * len(s["relics"])
    for card in s["play"]:
        if card["upright"]:
            value += UPRIGHT_ODDS * icons_value(c.members[card["id"]].legendary)
    turn = state.get("turn")
    if turn and turn["seat"] == seat and turn["queue"]:
        value += sum(ICON_VALUE["wild" if st["op"] == "wild" else st["op"]] *
                     (sum(st["tokens"].values()) if st["op"] == "cost" else 1) for st in turn["queue"])
    return value


def heuristic(state: dict, seat: int) -> float:
    mine = position(state, seat)
    others = [position(state, s) for s in range(state["players"]) if s != seat]
    return mine - max(others) if others else mine
