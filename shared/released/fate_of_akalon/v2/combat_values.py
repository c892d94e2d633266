"""Combat values on the battlefield: whose text counts, each card's value, each side's total.

Continuous effects (``on: continuous``) are not stored anywhere: they are recomputed from the
cards on the battlefield, so an effect lasts exactly as long as its card stays there and ends
the moment its text is ignored.
"""
from __future__ import annotations

from .content import card, value as printed_value
from .table import attacking, opposed


def condition_holds(state: dict, seat: int, fx: dict) -> bool:
    """The condition in front of an effect is met for ``seat``: **Attacking**, **Defending**
    (the side of the battle), or ``holding`` ("if you have a card in hand")."""
    cond = fx.get("if")
    if cond is None:
        return True
    if cond == "attacking":
        return attacking(state, seat)
    if cond == "defending":
        return not attacking(state, seat)
    if cond == "holding":
        return bool(state["zones"][seat]["hand"])
    raise ValueError(f"unknown condition {cond!r}")


def active_text(state: dict) -> set[str]:
    """Battlefield cards whose text is in effect.

    An ``ignore_text`` card (Tactician) strips the text of every opposing card on the
    battlefield, those already there and those played after it. Cards are taken in play order,
    so a card played after an opposing Tactician never gets to use its own text.
    """
    field = state["field"]
    if not state.get("battle"):
        return set()  # the skirmish ignores all card text
    ignored: set[str] = set()
    silencers: list[int] = []
    for i, entry in enumerate(field):
        cid, seat = entry["card"], entry["seat"]
        if any(opposed(state, src, seat) for src in silencers):
            ignored.add(cid)
            continue
        if any(fx["do"] == "ignore_text" for fx in card(cid).effects):
            silencers.append(seat)
            for earlier in field[:i]:
                if opposed(state, seat, earlier["seat"]):
                    ignored.add(earlier["card"])
    return {e["card"] for e in field if e["card"] not in ignored}


def matches_attribute(cid: str, fx: dict) -> bool:
    """The card has the attribute an effect asks for (any card when it asks none)."""
    attr = fx.get("attribute")
    return attr is None or card(cid).attribute == attr


def _amount(state: dict, seat: int, fx: dict) -> int:
    per = fx.get("per")
    if not per:
        return fx["amount"]
    zone = state["zones"][seat][per["zone"]]
    return fx["amount"] * sum(1 for c in zone if matches_attribute(c, per))


def card_values(state: dict, active: set[str] | None = None) -> dict[str, int]:
    """Each battlefield card's combat value with every active modifier; never below 0."""
    if active is None:
        active = active_text(state)
    field = state["field"]
    mods = {e["card"]: 0 for e in field}
    for src in field:
        if src["card"] not in active:
            continue
        owner = src["seat"]
        for fx in card(src["card"]).effects:
            if fx["do"] != "modify" or fx["on"] != "continuous" or not condition_holds(state, owner, fx):
                continue
            amount = _amount(state, owner, fx)
            target = fx["target"]
            for e in field:
                if target == "self":
                    hit = e is src
                elif target == "own_others":
                    hit = e is not src and e["seat"] == owner
                elif target == "opponents":
                    hit = opposed(state, owner, e["seat"])
                else:
                    raise ValueError(f"unknown target {target!r}")
                if hit and matches_attribute(e["card"], fx):
                    mods[e["card"]] += amount
    return {e["card"]: max(0, printed_value(e["card"]) + mods[e["card"]]) for e in field}


def battlefield_values(state: dict, values: dict[str, int] | None = None) -> list[int]:
    """Each seat's battlefield value (the total of its cards there)."""
    if values is None:
        values = card_values(state)
    totals = [0] * state["players"]
    for e in state["field"]:
        totals[e["seat"]] += values[e["card"]]
    return totals


def play_limit(state: dict, seat: int) -> int | None:
    """How many cards ``seat`` may play this battle in all, when an opposing card limits it."""
    limit = None
    active = active_text(state)
    for e in state["field"]:
        if e["card"] not in active or not opposed(state, e["seat"], seat):
            continue
        for fx in card(e["card"]).effects:
            if fx["do"] == "limit_plays" and condition_holds(state, e["seat"], fx):
                limit = fx["max"] if limit is None else min(limit, fx["max"])
    return limit


def may_play_more(state: dict, seat: int) -> bool:
    """Whether ``seat`` is still allowed to put a card on the battlefield this battle."""
    limit = play_limit(state, seat)
    return limit is None or state["battle"]["played"][seat] < limit
