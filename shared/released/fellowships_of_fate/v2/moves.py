"""Whose decision it is, the legal moves, and playing a move (its events, then ``flow.advance``).

Formation: ``pick`` / ``unpick`` / ``confirm``. A turn starts with ``play`` (2-a, nothing
upright) or ``activate`` (2-b); then each icon is one decision (``abilities.moves``).
"""
from __future__ import annotations

from . import abilities, explore, flow
from .content import content
from .obtaining import ability_sources


def to_act(state: dict) -> list[int]:
    return flow.awaiting(state)


def legal_moves(state: dict, seat: int) -> list[dict]:
    if seat not in flow.awaiting(state):
        return []
    if state["phase"] == "formation":
        return formation_moves(state, seat)
    queue = state["turn"]["queue"]
    if queue is None:
        return turn_start_moves(state, seat)
    return abilities.moves(state, seat, queue[0])


def formation_moves(state: dict, seat: int) -> list[dict]:
    """1. Formation: choose 4 members, one pick at a time, and confirm."""
    s = state["seats"][seat]
    size = content().hand_size
    moves = []
    if len(s["draft"]) < size:
        moves += [{"type": "pick", "member": m} for m in s["members"] if m not in s["draft"]]
    moves += [{"type": "unpick", "member": m} for m in s["draft"]]
    if len(s["draft"]) == size:
        moves.append({"type": "confirm"})
    return moves


def turn_start_moves(state: dict, seat: int) -> list[dict]:
    """2-b when a member stands upright (activate it), else 2-a (play one, declaring an ability)."""
    s = state["seats"][seat]
    up = explore.upright(state, seat)
    if up:
        member = s["play"][up[0]]["id"]
        return [{"type": "activate", "use": use} for use in ability_sources(state, seat, member, "legendary")]
    moves = []
    legendary_allowed = not explore.anti_legendary_cleric(state, seat)
    for member in s["hand"]:
        for use in ability_sources(state, seat, member, "nameless"):
            moves.append({"type": "play", "member": member, "ability": "nameless", "use": use})
        if legendary_allowed:
            moves.append({"type": "play", "member": member, "ability": "legendary"})
    return moves


def play(tx, seat: int, move: dict) -> None:
    """Emit the events of a legal ``move``, then run the automatic steps that follow."""
    kind = move["type"]
    if kind in ("pick", "unpick"):
        tx.emit(kind, {"seat": seat}, private={seat: {"member": move["member"]}})
    elif kind == "confirm":
        tx.emit("confirm", {"seat": seat})
    elif kind == "play":
        tx.emit("play_member", {"seat": seat, "member": move["member"], "ability": move["ability"],
                                "use": move.get("use")})
    elif kind == "activate":
        index = explore.upright(tx.state, seat)[0]
        member = tx.state["seats"][seat]["play"][index]["id"]
        tx.emit("activate", {"seat": seat, "member": member, "index": index, "use": move["use"]})
    else:
        abilities.resolve(tx, seat, move)
    flow.advance(tx)
