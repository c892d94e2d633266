"""Card areas (Player Setup) and Reshuffling: a player's own piles, drawing, revealing, public
moves between areas, and the reshuffle the moment a deck runs out.

"If a player's deck is ever empty, immediately shuffle the discard to form a new deck": every
helper that takes cards from a deck reshuffles in between, and ``settle`` runs after every
step so a deck never stays empty while its discard has cards.
"""
from __future__ import annotations

from shared.engine.game import Tx
from shared.engine.zones import emit_reshuffle


def reshuffle_if_empty(tx: Tx, seat: int) -> None:
    z = tx.state["zones"][seat]
    if not z["deck"] and z["discard"]:
        emit_reshuffle(tx, z["discard"], "shuffle", seat=seat)


def settle(tx: Tx) -> None:
    """Reshuffle every empty deck whose discard has cards."""
    for seat in range(tx.state["players"]):
        reshuffle_if_empty(tx, seat)


def draw(tx: Tx, seat: int, count: int) -> int:
    """Draw up to ``count`` cards (fewer only when deck and discard are both empty)."""
    drawn = 0
    while drawn < count:
        reshuffle_if_empty(tx, seat)
        deck = tx.state["zones"][seat]["deck"]
        if not deck:
            break
        k = min(count - drawn, len(deck))
        tx.emit("draw", {"seat": seat, "count": k}, private={seat: {"cards": deck[:k]}})
        drawn += k
    reshuffle_if_empty(tx, seat)
    return drawn


def reveal(tx: Tx, seat: int, count: int) -> list[str]:
    """Turn the top ``count`` cards of the deck face up into the seat's revealed area."""
    shown: list[str] = []
    while len(shown) < count:
        reshuffle_if_empty(tx, seat)
        deck = tx.state["zones"][seat]["deck"]
        if not deck:
            break
        k = min(count - len(shown), len(deck))
        cards = deck[:k]
        tx.emit("reveal", {"seat": seat, "cards": cards})
        shown.extend(cards)
    reshuffle_if_empty(tx, seat)
    return shown


def move(tx: Tx, seat: int, cards: list[str], src: str, dst: str) -> None:
    """A public move between a seat's areas (``field`` is the battlefield)."""
    if cards:
        tx.emit("move", {"seat": seat, "cards": list(cards), "from": src, "to": dst})


def field_cards(state: dict, seat: int) -> list[str]:
    return [e["card"] for e in state["field"] if e["seat"] == seat]
