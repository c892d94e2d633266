"""The Bidding Phase's bidding round: face-down bids in order, the reveal, the winner, Sabotage,
control.

A round is ``state["bid"]``: the clan up for bid, the bidder, an ordered hidden commitment
(``shared.engine.commitments``), the draft of the seat bidding now, how many cards each seat
placed (``counts``), then the revealed bids, the winner and — after the Sabotage window — who
gains control.

"Each player may place any number of cards face down as their bid": a bid is one placement.
The seat bidding now gathers its cards privately (``pick`` / ``unpick``, one card at a time, so
the list of moves stays short; a card put back cannot be picked again for this bid, so gathering
always ends) and commits them all at once with ``place``. The placed cards
leave the hand face down: everyone sees how many (as at the table), only the bidder which.
"""
from __future__ import annotations

from shared.engine import Tx, commitments, priority

from . import roles
from .content import CARDS, influence, without
from .general_rules import ensure_deck, room


def order(state: dict) -> list[int]:
    """Bid order: the bidder, then clockwise."""
    return priority.clockwise_from(state["bid"]["bidder"], state["players"])


def passive_influence(clans: list[str]) -> int:
    """"Add 1 influence to your bid if you control this clan" (Savin: 1 as well)."""
    return sum(CARDS[c].passive for c in clans)


def bidding_now(state: dict) -> int | None:
    """The seat whose face-down bid is awaited (None before and after the face-down part)."""
    bid = state["bid"]
    c = bid["commit"] if bid else None
    waiting = commitments.waiting(c) if c else []
    return waiting[0] if waiting else None


def bid_moves(state: dict, seat: int) -> list[dict]:
    """Pick a card of the hand not yet picked (nor put back: a card put back stays out of this
    bid, so gathering ends within two steps per card), put a picked one back, or place the bid."""
    bid = state["bid"]
    draft, put_back = bid["draft"], bid.get("put_back", ())
    rest = without(state["hands"][seat], draft)
    return ([{"type": "pick", "card": c} for c in sorted(set(rest)) if c not in put_back]
            + [{"type": "unpick", "card": c} for c in sorted(set(draft))]
            + [{"type": "place"}])


def draft(tx: Tx, seat: int, move: dict) -> None:
    """A private change of the bid being gathered: others learn only that the seat is at it."""
    tx.emit("bid_drafted", {"seat": seat},
            private={seat: {"card": move["card"], "picked": move["type"] == "pick"}})


def place(tx: Tx, seat: int) -> None:
    """The gathered cards go face down as the seat's bid (an empty bid is a bid of nothing)."""
    cards = sorted(tx.state["bid"]["draft"])
    tx.emit("bid_placed", {"seat": seat, "count": len(cards)}, private={seat: {"cards": cards}})


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
