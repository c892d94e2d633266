"""Legal moves and how each is played.

Who decides, in priority: the top pending decision; the seat holding priority in a response
window; the seat placing its face-down bid; otherwise the turn player, whose moves depend on the
phase (action cards and Iverion in the action phases, clans up for bid in bidding). Nobody
decides while the rules are in motion (only between the events of one move).
"""
from __future__ import annotations

from shared.engine import Tx, pending, priority

from . import bidding, decisions, roles
from .content import CARDS
from .flow import advance, in_motion
from .phases import ACTION_PHASES, NEXT_PHASE
from .responses import respond, window_moves


def to_act(s: dict) -> list[int]:
    if s["winners"] or in_motion(s):
        return []
    top = pending.top(s)
    if top:
        return [top["seat"]]
    if s["window"]:
        return [priority.current(s["window"])]
    if s["bid"]:
        return [bidding.bidding_now(s)]
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
    elif kind in ("pick", "unpick"):
        bidding.draft(tx, seat, move)
    elif kind == "place":
        bidding.place(tx, seat)
    elif kind == "play":
        tx.emit("action_played", {k: v for k, v in move.items() if k != "type"} | {"seat": seat})
    elif kind == "iverion":
        roles.use_iverion(tx, seat, move["card"])
    elif kind == "put_up":
        tx.emit("clan_put_up", {"seat": seat, "card": move["card"]})
    elif kind == "end_phase":
        tx.emit("phase", {"phase": NEXT_PHASE[s["phase"]]})
    advance(tx)
