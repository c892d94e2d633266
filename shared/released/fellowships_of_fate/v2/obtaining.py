"""Rulebook "After obtaining a card": obtaining from the field (Overcome, Legendary Traveler of
Fate) and from the relic deck (Excavate), the extra relic, refilling the field, where obtained
cards go, and when a Level 1 relic may stand in for a member's ability.

The field is four face-up adventure cards in slots 0 (leftmost) to 3 (rightmost); the relic deck
lies above the two rightmost slots.
"""
from __future__ import annotations

from .content import content


def field_cards(state: dict) -> list[str]:
    return [c for c in state["field"] if c is not None]


def is_extra_relic_slot(slot: int) -> bool:
    """Obtaining an extra relic card: obtaining from one of the two rightmost slots earns one."""
    c = content()
    return slot >= c.field_size - c.extra_relic_slots


def refilled(field: list, deck: list) -> tuple[list, str | None]:
    """Refilling the field: the field after closing a gap, and the card turned up, if any.

    Cards move to the right to close the gap; the top card of the adventure deck is turned face
    up into the leftmost empty space; an empty deck leaves the space empty.
    """
    cards = [c for c in field if c is not None]
    new = [None] * (len(field) - len(cards)) + cards
    drawn = None
    if deck and None in new:
        drawn = deck[0]
        new[new.index(None)] = drawn
    return new, drawn


def obtain_from_field(tx, seat: int, card: str, *, via: str) -> None:
    """Take ``card`` from the field (paying its cost for Overcome), then the extra relic when it
    lay in one of the two rightmost slots, then refill the field."""
    state = tx.state
    slot = state["field"].index(card)
    adventure = content().adventures[card]
    paid = dict(adventure.cost) if via == "overcome" else {}
    tx.emit("obtain", {"seat": seat, "card": card, "slot": slot, "via": via, "paid": paid})
    if is_extra_relic_slot(slot) and state["relic_deck"]:
        excavate(tx, seat, extra=True)
    field, drawn = refilled(state["field"], state["adventure_deck"])
    tx.emit("refill", {"field": field, "drawn": drawn})


def excavate(tx, seat: int, *, extra: bool) -> None:
    """Take the top relic (the caller checks the deck is not empty); it is shown to everyone."""
    card = tx.state["relic_deck"][0]
    tx.emit("excavate", {"seat": seat, "card": card, "level": content().relics[card].level, "extra": extra})


def ability_sources(state: dict, seat: int, member: str, ability: str) -> list[str]:
    """Obtaining card without VP: where an ability may come from, ``"member"`` or an owned Level 1
    relic of the same name, usable from the turn after the one it was obtained in."""
    relics = content().relics
    out = ["member"]
    for owned in state["seats"][seat]["relics"]:
        r = relics[owned["id"]]
        if r.member == member and r.ability == ability and owned["turn"] < state["turn_no"]:
            out.append(owned["id"])
    return out
