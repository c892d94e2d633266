"""Card Basics, "when it is not your turn": counters and responses in a window that passes
clockwise from the left of the player who played the action card (or won the bid).

A counter is a card with the same name as the action card; the responses (Peace, Tactical
Reversal against an action card, Sabotage against a won bid) do what their data says. The first
counter or response closes the window.
"""
from __future__ import annotations

from shared.engine import Tx

from . import roles
from .content import CARDS
from .decisions import ask


def window_moves(s: dict, seat: int) -> list[dict]:
    """Pass, or play a counter (same name as the action) or a response for this window."""
    w = s["window"]
    hand = set(s["hands"][seat])
    out = [{"type": "pass"}]
    if w["kind"] == "action":
        if s["action"]["card"] in hand:
            out.append({"type": "counter", "card": s["action"]["card"]})
        to = "action"
    else:
        to = "won_bid"
    out += [{"type": "respond", "card": c} for c in sorted(hand)
            if CARDS[c].response and CARDS[c].response["to"] == to]
    return out


def respond(tx: Tx, seat: int, card: str, how: str) -> None:
    """A counter or response closes the window; what it does comes from the card's data."""
    does = "counter" if how == "counter" else CARDS[card].response["does"]
    if does == "counter":
        tx.emit("countered", {"seat": seat, "card": card, "as": how})
    elif does == "reverse":
        tx.emit("reversed", {"seat": seat, "card": card})
    elif does == "sabotage":
        tx.emit("sabotaged", {"seat": seat, "card": card})
        bid = tx.state["bid"]
        ask(tx, bid["winner"], "sabotage_pay", cost=CARDS[card].response["cost"], saboteur=seat, chosen=[])
        return
    roles.after_action_response(tx, seat)
