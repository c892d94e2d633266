"""Small event-emitting steps the rules are built from: draw, reshuffle, give, ask.

Each takes the move's transaction ``tx``; randomness comes from ``tx.rng`` and is recorded in
the event it affects. Every gain respects the hand limit ("take/draw up to 8 cards").
"""
from __future__ import annotations

from shared.engine import Tx
from shared.engine.zones import emit_reshuffle

from .cards import HAND_LIMIT


def room(state: dict, seat: int) -> int:
    """How many cards ``seat`` may still gain before reaching the hand limit."""
    return max(0, HAND_LIMIT - len(state["hands"][seat]))


def ensure_deck(tx: Tx, n: int) -> None:
    """Shuffle the discard pile into a new deck (under what is left) if fewer than ``n`` remain."""
    s = tx.state
    if len(s["deck"]) < n and s["discard"]:
        emit_reshuffle(tx, s["discard"], "reshuffled")


def draw(tx: Tx, seat: int, n: int) -> int:
    """``seat`` draws up to ``n`` cards (fewer at the hand limit or when no cards are left)."""
    n = min(n, room(tx.state, seat))
    if n <= 0:
        return 0
    ensure_deck(tx, n)
    k = min(n, len(tx.state["deck"]))
    if k:
        tx.emit("drew", {"seat": seat, "count": k}, private={seat: {"cards": tx.state["deck"][:k]}})
    return k


def move_cards(tx: Tx, giver: int, receiver: int, cards: list[str], how: str) -> None:
    """Cards change hands; only the two seats learn which."""
    if cards:
        tx.emit(
            "cards_moved", {"from": giver, "to": receiver, "count": len(cards), "how": how},
            private={giver: {"gave": cards}, receiver: {"got": cards}},
        )


def random_cards(tx: Tx, seat: int, n: int) -> list[str]:
    """Up to ``n`` cards picked at random from ``seat``'s hand (give up what you can)."""
    hand = tx.state["hands"][seat]
    return tx.rng.sample(hand, min(n, len(hand)))


def ask(tx: Tx, seat: int, kind: str, **params) -> None:
    """Push a pending decision for ``seat`` (see ``decisions.py``)."""
    tx.emit("asked", {"seat": seat, "kind": kind, **params})


def answered(tx: Tx) -> None:
    tx.emit("answered")


def discard(tx: Tx, seat: int, cards: list[str], why: str) -> None:
    tx.emit("discarded", {"seat": seat, "cards": list(cards), "why": why})
