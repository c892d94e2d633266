"""Decks and zones: ordered lists of card ids, some of them hidden.

A zone is a plain list in the game state; index 0 is the *top*. These helpers keep the moves
between zones (draw, discard, reshuffle) the same in every game. Randomness is only ever used in
``decide`` (``plan_reshuffle``); the resulting order is recorded in the event and applied by
``evolve`` through ``reshuffle``.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..rng import Rng


def take_top(zone: list, n: int) -> list:
    """Remove and return up to ``n`` cards from the top of ``zone``."""
    taken = zone[:n]
    del zone[:n]
    return taken


def put_top(zone: list, cards: Sequence) -> None:
    """Place ``cards`` on top of ``zone``; ``cards[0]`` ends up topmost."""
    zone[:0] = list(cards)


def put_bottom(zone: list, cards: Sequence) -> None:
    zone.extend(cards)


def reshuffle(deck: list, discard: list, order: Sequence) -> None:
    """Apply a recorded reshuffle: the discard becomes the deck (under what is left) in ``order``."""
    if sorted(map(str, order)) != sorted(map(str, discard)):
        raise ValueError("reshuffle order must be a permutation of the discard pile")
    deck.extend(order)
    discard.clear()


def plan_reshuffle(discard: Sequence, rng: Rng) -> list:
    """The new order of a discard pile shuffled into a deck (decide-time only)."""
    return rng.shuffled(discard)


def emit_reshuffle(tx, discard: Sequence, event: str, **data: Any) -> list:
    """Shuffle ``discard`` (decide-time) and emit ``event`` with its size public and the new deck
    order secret; the game's ``apply`` for ``event`` calls ``reshuffle`` with that order."""
    order = plan_reshuffle(discard, tx.rng)
    tx.emit(event, {**data, "count": len(order)}, secret={"order": order})
    return order
