"""Obtaining cards: from the field (Overcome, Legendary Traveler of Fate) and from the relic deck
(Excavate, extra relics), with the follow-ups the rulebook lists under "After obtaining a card"."""
from __future__ import annotations

from .content import content
from .field import is_extra_relic_slot, refilled


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
