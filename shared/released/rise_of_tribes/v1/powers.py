"""Tribal Powers (variant): each leader's chosen power, as queries and the moves some grant.

Passive powers are asked about where they apply (``has_power``); active ones offer moves at the
points of the turn where the rulebook allows them (``free_moves``) or their own decisions.
"""
from __future__ import annotations

from .board import neighbours, occupied, opponents_in, is_outer, members
from .content import RESOURCE_OF, RESOURCES, TRIBES
from .decisions import ask, register, resolve
from .economy import ask_payment, gain, pay, play_trade, total, trade_moves


def power(state: dict, seat: int) -> str | None:
    return state["seats"][seat]["power"]


def has_power(state: dict, seat: int, name: str) -> bool:
    return state["seats"][seat]["power"] == name


def village_costs(state: dict, seat: int) -> list[tuple[dict, str | None]]:
    """The ways ``seat`` may pay for a village: the tribe board's cost, or with Crafty Builders
    that cost less 1 resource of their choice (paired with the resource saved)."""
    cost = TRIBES[state["seats"][seat]["tribe"]]["village_cost"]
    if not has_power(state, seat, "crafty_builders"):
        return [(cost, None)]
    return [({r: k - (r == save) for r, k in cost.items()}, save) for save in RESOURCES if cost.get(save, 0) > 0]


# ----- choosing a power at setup ---------------------------------------------------------------
def _legal_power(state, d):
    return [{"type": "choose_power", "power": p} for p in TRIBES[state["seats"][d["seat"]]["tribe"]]["powers"]]


def _play_power(tx, d, move):
    resolve(tx)
    tx.emit("power_chosen", {"seat": d["seat"], "power": move["power"]})


register("power", _legal_power, _play_power)


# ----- moves available at the action and goal points of your own turn --------------------------
def free_moves(state: dict, seat: int, where: str) -> list[dict]:
    p = power(state, seat)
    used = state["turn"]["used"]
    if p == "trader":
        return trade_moves(state, seat)
    if p == "exogamy" and "exogamy" not in used and total(state, seat) >= 2 and state["seats"][seat]["supply"] > 0:
        return [{"type": "exogamy", "hex": h, "target": t} for h in occupied(state, seat) for t in opponents_in(state, h, seat)]
    if p == "wayfarers" and where == "action" and "wayfarers" not in used and state["seats"][seat]["res"]["wood"] >= 1:
        moved = state["turn"]["moved"]
        return [{"type": "wayfarers", "from": h} for h in occupied(state, seat)
                if is_outer(state, h) and members(state, h, seat) > moved[h]]
    return []


def play_free(tx, seat: int, move: dict) -> None:
    from .actions import start_move  # actions asks powers about GROW/GATHER/MOVE: import late

    if move["type"] == "trade":
        play_trade(tx, seat, move)
    elif move["type"] == "exogamy":
        tx.emit("used", {"flag": "exogamy"})
        tx.emit("members_removed", {"seat": move["target"], "hex": move["hex"], "count": 1, "why": "exogamy"})
        tx.emit("members_added", {"seat": seat, "hex": move["hex"], "count": 1, "why": "exogamy"})
        ask_payment(tx, seat, 2, move["target"])
    elif move["type"] == "wayfarers":
        tx.emit("used", {"flag": "wayfarers"})
        pay(tx, seat, {"wood": 1})
        start_move(tx, seat, "wayfarers", None, source=move["from"])


# ----- Light in the Dark -------------------------------------------------------------------------
def wants_light(state: dict, seat: int) -> bool:
    return has_power(state, seat, "light_in_the_dark") and "moon" in state["turn"]["rolled"] and total(state, seat) > 0


def _legal_light(state, d):
    have = state["seats"][d["seat"]]["res"]
    return [{"type": "light", "resource": r} for r in RESOURCES if have[r] > 0] + [{"type": "skip"}]


def _play_light(tx, d, move):
    resolve(tx)
    if move["type"] == "light":
        pay(tx, d["seat"], {move["resource"]: 1})
        tx.emit("die_changed", {"index": tx.state["turn"]["rolled"].index("moon"), "face": "blank"})


register("light", _legal_light, _play_light)


# ----- Intimidate ----------------------------------------------------------------------------------
def intimidate_moves(state: dict, seat: int) -> list[dict]:
    if not has_power(state, seat, "intimidate") or "intimidate" in state["turn"]["used"] or total(state, seat) < 2:
        return []
    return [{"type": "intimidate", "hex": h, "target": t, "to": to}
            for h in occupied(state, seat) for t in opponents_in(state, h, seat) for to in neighbours(state, h)]


def _legal_intimidate(state, d):
    return intimidate_moves(state, d["seat"]) + [{"type": "skip"}]


def _play_intimidate(tx, d, move):
    resolve(tx)
    if move["type"] == "intimidate":
        tx.emit("used", {"flag": "intimidate"})
        tx.emit("members_moved", {"seat": move["target"], "from": move["hex"], "to": move["to"], "count": 1,
                                  "why": "intimidate"})
        ask_payment(tx, d["seat"], 2, None)


register("intimidate", _legal_intimidate, _play_intimidate)


# ----- Shared Bounty -------------------------------------------------------------------------------
def _bounty_options(state: dict, seat: int) -> list[str]:
    kinds = {RESOURCE_OF[state["terrain"][h]] for h in occupied(state, seat)}
    return [r for r in RESOURCES if r in kinds and state["supply"][r] > 0]


def after_gather(tx, gatherer: int) -> None:
    """Shared Bounty: each player sharing a hex with the gatherer gathers 1 from a hex they occupy."""
    state = tx.state
    n = state["n"]
    for k in range(n - 1, 0, -1):
        seat = (gatherer + k) % n
        if not has_power(state, seat, "shared_bounty"):
            continue
        if not any(members(state, h, seat) for h in occupied(state, gatherer)):
            continue
        options = _bounty_options(state, seat)
        if len(options) == 1:
            gain(tx, seat, options[0], 1)
        elif options:
            ask(tx, seat, "bounty")


def _legal_bounty(state, d):
    return [{"type": "bounty", "resource": r} for r in _bounty_options(state, d["seat"])]


def _play_bounty(tx, d, move):
    resolve(tx)
    gain(tx, d["seat"], move["resource"], 1)


register("bounty", _legal_bounty, _play_bounty)
