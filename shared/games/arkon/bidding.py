"""The Bidding Phase's bidding round: face-down bids in order, the reveal, the winner, Sabotage,
control.

A round is ``state["bid"]``: the clan up for bid, the bidder, an ordered hidden commitment
(``shared.engine.commitments``), how many cards each seat placed (``counts``), then the
revealed bids, the winner, the losers still choosing what to keep (``choosing``) and — after the Sabotage window — who
gains control.

"Each player may place any number of cards face down as their bid": a bid is one placement,
and one move — ``{"type": "bid", "cards": [...]}`` for every distinct part of the hand, the empty
bid (a bid of nothing) included. The hand limit (8) bounds the list: at most ``2 ** 8 = 256``
moves, fewer with copies of a card (``subsets``; ``content`` refuses a limit above 8). The
placed cards leave the hand face down: everyone sees how many (as at the table), only the bidder
which.

A loser whose bid does not fit back into its hand (the limit; Reinforcements and Kala can grow a
bid) chooses which of its bid cards to keep (``overflow``, one move), the rest are discarded;
the Sabotage window opens once every such choice is made.
"""
from __future__ import annotations

from shared.engine import Tx, commitments, priority

from . import roles, subsets
from .content import CARDS, influence, without
from .decisions import answered, ask, kind
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
    """Every bid the seat can place: each distinct part of its hand, face down, as one move."""
    return [{"type": "bid", "cards": cards} for cards in subsets.parts(state["hands"][seat])]


def place(tx: Tx, seat: int, cards: list[str]) -> None:
    """The cards go face down as the seat's bid (an empty bid is a bid of nothing)."""
    cards = sorted(cards)
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
    returned, choosing = {}, {}
    for seat in order(s):
        cards = bid["revealed"][str(seat)]
        if seat == winner or not cards:
            continue
        keep = room(s, seat)
        if len(cards) <= keep:
            returned[str(seat)] = cards
        else:
            choosing[str(seat)] = keep
    tx.emit("bid_won", {"winner": winner, "clan": bid["clan"], "totals": scores,
                        "returned": returned, "choosing": choosing})
    for seat in reversed([int(k) for k in choosing]):  # the first in bid order chooses first
        ask(tx, seat, "overflow", keep=choosing[str(seat)])


def _overflow_moves(s: dict, d: dict) -> list[dict]:
    """Which of its lost bid cards the seat keeps (as many as fit); the others are discarded."""
    cards = s["bid"]["revealed"][str(d["seat"])]
    return [{"type": "keep", "cards": part} for part in subsets.parts(cards, d["keep"])]


def _overflow_answer(tx: Tx, d: dict, move: dict) -> None:
    answered(tx)
    seat = d["seat"]
    cards = tx.state["bid"]["revealed"][str(seat)]
    tx.emit("bid_returned", {"seat": seat, "kept": move["cards"], "discarded": without(cards, move["cards"])})


kind("overflow", _overflow_moves, _overflow_answer)


def grant_control(tx: Tx) -> None:
    """After the Sabotage window: the winner (or the saboteur it did not pay) gains control."""
    bid = tx.state["bid"]
    seat, clan = bid["controller"], bid["clan"]
    via = "bid" if seat == bid["winner"] else "sabotage"
    tx.emit("clan_controlled", {"seat": seat, "clan": clan, "via": via})
    if via == "bid":
        roles.on_bid_control(tx, seat, clan)
