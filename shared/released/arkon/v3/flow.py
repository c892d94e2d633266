"""The automatic part of a turn: everything that happens until a player must decide again.

``advance`` runs after every move. It ends the game as soon as a player controls a winning set
of clans, waits while a decision, a response window or a face-down bid is open, and otherwise
carries the rules forward: resolve or discard the action card whose window closed, reveal and
settle a bid, grant control of the clan after the Sabotage window, and run the Universal Draw
(Phase 4). ``in_motion`` says whether it still has something to do — true only in the states
between the events of one move.
"""
from __future__ import annotations

from shared.engine import Tx, priority

from . import bidding, card_texts
from .content import RULES
from .general_rules import draw, room
from .scoring import winners


def in_motion(state: dict) -> bool:
    """Whether the rules, not a player, make the next step (``advance`` would emit an event)."""
    if state["winners"]:
        return False
    if winners(state):
        return True
    if state["pending"] or state["window"]:
        return False
    if state["action"] or state["look"] or state["phase"] == "draw":
        return True
    bid = state["bid"]
    if bid is None:
        return False
    if bid["revealed"] is not None:
        return True
    seat = bidding.bidding_now(state)
    return seat is None or not state["hands"][seat]


def advance(tx: Tx) -> None:
    s = tx.state
    while not s["winners"]:
        won = winners(s)
        if won:
            tx.emit("game_won", {"winners": won})
            return
        if s["pending"] or s["window"]:
            return
        if s["action"]:
            _continue_action(tx)
        elif s["bid"]:
            if not _continue_bid(tx):
                return
        elif s["phase"] == "draw":
            universal_draw(tx)
        else:
            return


def _continue_action(tx: Tx) -> None:
    """The window has closed: a countered card or a resolved one goes to the discard pile (or to
    the hand of the player who played Tactical Reversal on it, if it fits)."""
    action = tx.state["action"]
    if action["status"] == "window":
        tx.emit("action_resolving", {"seat": action["seat"], "card": action["card"]})
        card_texts.resolve(tx, action)
        return
    to = action["reverser"] if action["status"] == "effect" else None
    if to is not None and room(tx.state, to) == 0:
        to = None
    tx.emit("action_finished", {"card": action["card"], "to": to})


def _continue_bid(tx: Tx) -> bool:
    """One step of the bid's resolution; False while a face-down bid is awaited from a player."""
    s = tx.state
    bid = s["bid"]
    if bid["revealed"] is None:
        seat = bidding.bidding_now(s)
        if seat is None:
            bidding.reveal(tx)
        elif not s["hands"][seat]:
            # an empty hand has nothing to bid, which everyone can see: place nothing at once
            bidding.place(tx, seat)
        else:
            return False
    elif bid["winner"] is None:
        bidding.settle(tx)
    else:
        bidding.grant_control(tx)
    return True


def universal_draw(tx: Tx) -> None:
    """Phase 4: an extra card for having put a clan up, then everyone draws, turn player first."""
    s = tx.state
    turn = s["turn"]
    if s["put_up"]:
        draw(tx, turn, RULES["put_up_extra_draw"])
    for seat in priority.clockwise_from(turn, s["players"]):
        draw(tx, seat, RULES["universal_draw"])
    tx.emit("turn_started", {"seat": (turn + 1) % s["players"]})
