"""Rulebook "2. Explore (In order)": card position, who must pass, the check for interruption,
and the two-player restriction on declaring a legendary ability ("Additional rules for 2
players"). Read-only questions about a state."""
from __future__ import annotations

from .content import content


def member_name(member: str) -> str:
    return content().members[member].name


def upright(state: dict, seat: int) -> list[int]:
    """Card position: indexes of the seat's members standing upright (able to use an ability)."""
    return [i for i, card in enumerate(state["seats"][seat]["play"]) if card["upright"]]


def can_act(state: dict, seat: int) -> bool:
    """A seat can act with a card in hand or an upright member; otherwise it must pass."""
    s = state["seats"][seat]
    return bool(s["hand"]) or any(card["upright"] for card in s["play"])


def next_actor(state: dict, start: int) -> int | None:
    """The first seat clockwise from ``start`` (inclusive) that can act, or None when all pass."""
    n = state["players"]
    for i in range(n):
        seat = (start + i) % n
        if can_act(state, seat):
            return seat
    return None


def passing_seats(state: dict, start: int, actor: int | None) -> list[int]:
    """Seats clockwise from ``start`` that must pass before ``actor``'s turn (all, if None)."""
    n = state["players"]
    out = []
    for i in range(n):
        seat = (start + i) % n
        if seat == actor:
            break
        out.append(seat)
    return out


def interrupt_targets(state: dict, *, name: str | None = None, exclude: int | None = None) -> list[list[int]]:
    """Upright members (``[seat, index]``) an interruption would turn sideways.

    ``name`` limits it to members of that name (the end-of-turn check); members with a Holy
    Shield are never affected; ``exclude`` is a seat left alone (the one whose turn it is).
    """
    members = content().members
    out = []
    for seat, s in enumerate(state["seats"]):
        if seat == exclude:
            continue
        for i, card in enumerate(s["play"]):
            if not card["upright"]:
                continue
            m = members[card["id"]]
            if m.holy_shield or (name is not None and m.name != name):
                continue
            out.append([seat, i])
    return out


def anti_legendary_cleric(state: dict, seat: int) -> bool:
    """Two players only: the opponent's upright Cleric forbids declaring a legendary ability."""
    if state["players"] != 2:
        return False
    other = state["seats"][1 - seat]
    return any(card["upright"] and card["id"] == "cleric" for card in other["play"])
