"""The field: four face-up adventure cards in slots 0 (leftmost) to 3 (rightmost), under which
the relic deck lies above the two rightmost slots."""
from __future__ import annotations

from .content import content


def is_extra_relic_slot(slot: int) -> bool:
    """Obtaining from one of the two rightmost slots earns an extra relic."""
    c = content()
    return slot >= c.field_size - c.extra_relic_slots


def refilled(field: list, deck: list) -> tuple[list, str | None]:
    """The field after closing a gap and the card turned up, if any.

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
