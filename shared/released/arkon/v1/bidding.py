"""The bidding round: face-down bids in order, the reveal, the winner, Sabotage, control.

A round is ``state["bid"]``: the clan up for bid, the bidder, an ordered hidden commitment
(``shared.engine.commitments``) plus the draft of the seat now bidding, then the revealed bids,
the winner and — after the Sabotage window — who gains control.

A bid is chosen card by card: the bidder goes through its whole hand in sorted order and says
for each card "bid" or "keep" (``step`` counts the cards done). The number of decisions is the
hand size, which is public, and the cards stay in hand until the reveal, so nobody learns even
how many cards a seat bid before all bids are turned face up.
"""
from __future__ import annotations

from shared.engine import Tx, priority

from . import roles
from .cards import CARDS, influence
from .clans import passive_influence
from .primitives import ensure_deck, room


def order(state: dict) -> list[int]:
    """Bid order: the bidder, then clockwise."""
    return priority.clockwise_from(state["bid"]["bidder"], state["players"])


def considering(state: dict, seat: int) -> str:
    """The card of ``seat``'s hand it decides about next."""
    return sorted(state["hands"][seat])[state["bid"]["step"]]


def bid_moves(state: dict, seat: int) -> list[dict]:
    card = considering(state, seat)
    return [{"type": "bid", "card": card}, {"type": "keep", "card": card}]


def consider(tx: Tx, seat: int, move: dict) -> None:
    """Bid or keep the card under consideration; after the last card the bid is placed."""
    card = considering(tx.state, seat)
    tx.emit("bid_considered", {"seat": seat}, private={seat: {"card": card, "bid": move["type"] == "bid"}})
    if tx.state["bid"]["step"] == len(tx.state["hands"][seat]):
        tx.emit("bid_placed", {"seat": seat})


def totals(state: dict) -> dict[str, int]:
    """Each seat's influence: its bid cards, 1 per clan it controls, +2 (the clan) for the bidder."""
    bid = state["bid"]
    out = {}
    for seat in order(state):
        total = influence(bid["revealed"][str(seat)]) + passive_influence(state["clans"][seat])
        if seat == bid["bidder"]:
            total += CARDS[bid["clan"]].influence
        out[str(seat)] = total
    return out


def reveal(tx: Tx) -> None:
    """All bids are turned face up; then Reinforcements (bid order), then Kala's extra card."""
    s = tx.state
    bids = {str(seat): list(cards) for seat, cards in s["bid"]["commit"]["values"].items()}
    tx.emit("bids_revealed", {"bids": bids})
    for seat in order(s):
        for card in bids[str(seat)]:
            trigger = CARDS[card].on_reveal
            if trigger and trigger["op"] == "reinforce":
                ensure_deck(tx, trigger["n"])
                drawn = s["deck"][: trigger["n"]]
                tx.emit("reinforced", {"seat": seat, "card": card, "drawn": drawn})
    roles.after_reveal(tx)


def settle(tx: Tx) -> None:
    """The highest total wins (ties: the earliest bidder); the winner's bid cards are discarded at
    once, the others take theirs back (up to the hand limit); then the Sabotage window opens."""
    s = tx.state
    bid = s["bid"]
    scores = totals(s)
    best = max(scores.values())
    winner = next(seat for seat in order(s) if scores[str(seat)] == best)
    returned, overflow = {}, {}
    for seat in order(s):
        cards = bid["revealed"][str(seat)]
        if seat == winner or not cards:
            continue
        keep = room(s, seat)
        returned[str(seat)] = cards[:keep]
        if cards[keep:]:
            overflow[str(seat)] = cards[keep:]
    tx.emit("bid_won", {"winner": winner, "clan": bid["clan"], "totals": scores,
                        "returned": returned, "overflow": overflow})


def grant_control(tx: Tx) -> None:
    """After the Sabotage window: the winner (or the saboteur it did not pay) gains control."""
    bid = tx.state["bid"]
    seat, clan = bid["controller"], bid["clan"]
    via = "bid" if seat == bid["winner"] else "sabotage"
    tx.emit("clan_controlled", {"seat": seat, "clan": clan, "via": via})
    if via == "bid":
        roles.on_bid_control(tx, seat, clan)
