"""The rulebook's General Rules (hand limit 8; give up what you can) and the FAQ's reshuffle, as
the small event-emitting steps every other rule is built from: draw, reshuffle, give, exchange,
discard.

Each takes the move's transaction ``tx``; randomness comes from ``tx.rng`` and is recorded in
the event it affects. Every gain respects the hand limit ("take/draw up to 8 cards"), and no
event ever leaves a hand above it.
"""
from __future__ import annotations

from shared.engine import Tx
from shared.engine.zones import emit_reshuffle

from .content import HAND_LIMIT


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


def exchange_cards(tx: Tx, a: int, b: int, a_gives: list[str], b_gives: list[str], how: str) -> None:
    """Two seats give each other cards at the same time (one event, so no moment of the log has
    one side holding both gifts); only the two seats learn which cards."""
    if a_gives or b_gives:
        tx.emit(
            "cards_exchanged", {"seats": [a, b], "counts": [len(a_gives), len(b_gives)], "how": how},
            private={a: {"gave": a_gives, "got": b_gives}, b: {"gave": b_gives, "got": a_gives}},
        )


def random_cards(tx: Tx, seat: int, n: int) -> list[str]:
    """Up to ``n`` cards picked at random from ``seat``'s hand (give up what you can)."""
    hand = tx.state["hands"][seat]
    return tx.rng.sample(hand, min(n, len(hand)))


def discard(tx: Tx, seat: int, cards: list[str], why: str) -> None:
    tx.emit("discarded", {"seat": seat, "cards": list(cards), "why": why})
