"""The automatic part of a turn: everything that happens until a player must decide again.

``advance`` runs after every move. It ends the game as soon as a player controls a winning set
of clans, waits while a decision, a response window or a face-down bid is open, and otherwise
carries the rules forward: resolve or discard the action card whose window closed, reveal and
settle a bid, grant control of the clan after the Sabotage window, and run the Universal Draw.
"""
from __future__ import annotations

from shared.engine import Tx, commitments, priority

from . import bidding, effects
from .cards import RULES
from .clans import has_won
from .primitives import draw, room


def winners(state: dict) -> list[int]:
    return [seat for seat, clans in enumerate(state["clans"]) if has_won(clans)]


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
        effects.resolve(tx, action)
        return
    to = action["reverser"] if action["status"] == "effect" else None
    if to is not None and room(tx.state, to) == 0:
        to = None
    tx.emit("action_finished", {"card": action["card"], "to": to})


def _continue_bid(tx: Tx) -> bool:
    """One step of the bid's resolution; False while face-down bids are still awaited."""
    bid = tx.state["bid"]
    if bid["revealed"] is None:
        waiting = commitments.waiting(bid["commit"])
        if not waiting:
            bidding.reveal(tx)
        elif not tx.state["hands"][waiting[0]]:
            # an empty hand has nothing to bid, which everyone can see: place it at once
            tx.emit("bid_placed", {"seat": waiting[0]})
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
