"""Legal moves and how each is played.

Who decides, in priority: the top pending decision; the seat holding priority in a response
window; the next seat to place a face-down bid; otherwise the turn player, whose moves depend
on the phase (action cards and Iverion in the action phases, clans up for bid in bidding).
"""
from __future__ import annotations

from shared.engine import Tx, commitments, pending, priority

from . import bidding, decisions, roles
from .cards import CARDS
from .flow import advance
from .phases import ACTION_PHASES, NEXT_PHASE
from .primitives import ask


def to_act(s: dict) -> list[int]:
    if s["winners"]:
        return []
    top = pending.top(s)
    if top:
        return [top["seat"]]
    if s["window"]:
        return [priority.current(s["window"])]
    if s["bid"]:
        return commitments.waiting(s["bid"]["commit"])
    return [s["turn"]]


def legal(s: dict, seat: int) -> list[dict]:
    if seat not in to_act(s):
        return []
    top = pending.top(s)
    if top:
        return decisions.moves(s, top)
    if s["window"]:
        return window_moves(s, seat)
    if s["bid"]:
        return bidding.bid_moves(s, seat)
    return turn_moves(s, seat)


def turn_moves(s: dict, seat: int) -> list[dict]:
    hand = sorted(set(s["hands"][seat]))
    out: list[dict] = []
    if s["phase"] in ACTION_PHASES:
        for c in hand:
            card = CARDS[c]
            if card.playable_as_action:
                out += [{"type": "play", "card": c, **t} for t in targets(s, seat, card.target)]
        out += roles.iverion_moves(s, seat)
    elif s["phase"] == "bidding":
        out += [{"type": "put_up", "card": c} for c in hand if CARDS[c].is_clan]
    return out + [{"type": "end_phase"}]


def targets(s: dict, seat: int, kind: str) -> list[dict]:
    """Every target an action card may declare when it is played."""
    n = s["players"]
    if kind == "none":
        return [{}]
    seats = [t for t in range(n) if t != seat or kind == "any_clan"]
    if kind == "opponent":
        return [{"target": t} for t in seats]
    return [{"target": t, "clan": c} for t in seats for c in sorted(set(s["clans"][t]))]


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


# ----- playing a move --------------------------------------------------------------------------
def play(tx: Tx, seat: int, move: dict) -> None:
    s = tx.state
    kind = move["type"]
    top = pending.top(s)
    if top:
        decisions.answer(tx, top, move)
    elif kind == "pass":
        tx.emit("passed", {"seat": seat})
    elif kind in ("counter", "respond"):
        respond(tx, seat, move["card"], kind)
    elif kind in ("bid", "keep"):
        bidding.consider(tx, seat, move)
    elif kind == "play":
        tx.emit("action_played", {k: v for k, v in move.items() if k != "type"} | {"seat": seat})
    elif kind == "iverion":
        roles.use_iverion(tx, seat, move["card"])
    elif kind == "put_up":
        tx.emit("clan_put_up", {"seat": seat, "card": move["card"]})
    elif kind == "end_phase":
        tx.emit("phase", {"phase": NEXT_PHASE[s["phase"]]})
    advance(tx)


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
