"""Card Texts: the effect interpreter; action cards are lists of primitive ops from
``data/cards.json``.

An op gets the transaction, the action being resolved (``seat``, ``card`` and the targets
declared when it was played) and a scratch dict shared by the card's ops; it returns False when
the effect fizzles (its target is gone), which stops the remaining ops. An op that needs a
player's choice pushes a pending decision and must be the card's last op.
"""
from __future__ import annotations

from collections.abc import Callable

from shared.engine import Tx

from .content import CARDS, HAND_LIMIT
from .decisions import ask
from .general_rules import draw, exchange_cards, move_cards, random_cards, room

Op = Callable[[Tx, dict, dict, dict], bool]
OPS: dict[str, Op] = {}


def op(name: str):
    def deco(fn: Op) -> Op:
        OPS[name] = fn
        return fn
    return deco


def resolve(tx: Tx, action: dict) -> None:
    """Carry out the effect of the action card ``action`` (already past its response window)."""
    scratch: dict = {}
    for step in CARDS[action["card"]].effect:
        if not OPS[step["op"]](tx, action, step, scratch):
            break


@op("draw")
def _draw(tx, a, step, scratch):
    draw(tx, a["seat"], step["n"])
    return True


@op("cycle")
def _cycle(tx, a, step, scratch):
    """Discard up to ``max`` cards, then draw that many plus ``bonus`` (choices come after it resolves)."""
    if tx.state["hands"][a["seat"]]:
        ask(tx, a["seat"], "cycle", max=step["max"], bonus=step["bonus"], chosen=[])
    else:
        draw(tx, a["seat"], step["bonus"])
    return True


@op("take_clan")
def _take_clan(tx, a, step, scratch):
    if a["clan"] not in tx.state["clans"][a["target"]]:
        return False
    tx.emit("clan_moved", {"from": a["target"], "to": a["seat"], "clan": a["clan"]})
    return True


@op("give_random")
def _give_random(tx, a, step, scratch):
    """Give the target ``n`` random cards from your hand (as many as you have and it can hold)."""
    n = min(step["n"], room(tx.state, a["target"]))
    move_cards(tx, a["seat"], a["target"], random_cards(tx, a["seat"], n), "random")
    return True


@op("destroy_clan")
def _destroy_clan(tx, a, step, scratch):
    if a["clan"] not in tx.state["clans"][a["target"]]:
        return False
    tx.emit("clan_destroyed", {"owner": a["target"], "clan": a["clan"], "by": a["card"]})
    return True


@op("swap_clans")
def _swap_clans(tx, a, step, scratch):
    me, them = a["seat"], a["target"]
    clans = tx.state["clans"]
    scratch["taken"] = {me: len(clans[them]), them: len(clans[me])}
    tx.emit("clans_swapped", {"a": me, "b": them})
    return True


@op("exchange_random_per_clan")
def _exchange(tx, a, step, scratch):
    """Both give random cards, one per clan taken, at the same time (FAQ): both picks are made
    from the hands as they were, each receiver keeps what fits under the hand limit (the rest
    stays with its giver), and the two gifts change hands in one event."""
    me, them = a["seat"], a["target"]
    hands = tx.state["hands"]
    mine = random_cards(tx, me, scratch["taken"][me])
    theirs = random_cards(tx, them, scratch["taken"][them])
    mine = mine[: HAND_LIMIT - (len(hands[them]) - len(theirs))]
    theirs = theirs[: HAND_LIMIT - (len(hands[me]) - len(mine))]
    exchange_cards(tx, me, them, mine, theirs, "random")
    return True


@op("steal")
def _steal(tx, a, step, scratch):
    """Look at the target's hand, then choose a card to take (a decision)."""
    me, them = a["seat"], a["target"]
    hand = tx.state["hands"][them]
    tx.emit("hand_seen", {"seat": me, "target": them}, private={me: {"hand": list(hand)}})
    if hand and room(tx.state, me):
        ask(tx, me, "steal", target=them)
    return True
