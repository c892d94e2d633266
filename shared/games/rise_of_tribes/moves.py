"""Legal moves and playing a move: the pending-decision stack, the decision kinds that answer it,
and the moves a player may make at any time on their turn.

A decision is a plain dict on ``state["pending"]`` (top last) with ``seat`` and ``kind``. Each
kind registers a ``legal(state, decision) -> [move]`` and a ``play(tx, decision, move)``; the
play function pops or updates its decision through the events below.

Two decisions are *standing*: while nothing is pending, the turn's step itself asks the current
player (step "actions": choose an action; step "goals": step 5). They need no ask/resolve events.

*Any-time* moves (Trader: "at any time on your turn") are offered beside every decision the
current player answers on their own turn and leave that decision where it is.
"""
from __future__ import annotations

from collections.abc import Callable

from shared.engine.pending import DecisionKinds

KINDS = DecisionKinds()
register = KINDS.register

STANDING = {"actions": "action", "goals": "goals"}

_ANYTIME: dict[str, tuple[Callable, Callable]] = {}


def register_anytime(move_type: str, legal: Callable, play: Callable) -> None:
    """A move of ``move_type`` offered beside every decision of the current player on their
    own turn: ``legal(state, seat) -> [move]``, ``play(tx, seat, move)``."""
    if move_type in _ANYTIME:
        raise ValueError(f"any-time move {move_type!r} is registered twice")
    _ANYTIME[move_type] = (legal, play)


def top(state: dict) -> dict | None:
    """The decision awaited now: the top of the stack, else the step's standing decision."""
    if not state:
        return None
    if state.get("pending"):
        return state["pending"][-1]
    turn = state.get("turn") or {}
    kind = STANDING.get(turn.get("step"))
    return {"seat": turn["seat"], "kind": kind} if kind else None


def ask(tx, seat: int, kind: str, **params) -> None:
    tx.emit("ask", {"decision": {"seat": seat, "kind": kind, **params}})


def replace(tx, seat: int, kind: str, **params) -> None:
    """Resolve the top decision and ask the next one, in one event."""
    tx.emit("ask", {"decision": {"seat": seat, "kind": kind, **params}, "replace": True})


def update(tx, **fields) -> None:
    tx.emit("update", {"set": fields})


def resolve(tx) -> None:
    tx.emit("resolved", {})


def set_step(tx, step: str) -> None:
    tx.emit("step", {"step": step})


def _own_turn(state: dict, seat: int) -> bool:
    turn = state["turn"]
    return turn["seat"] == seat and turn["number"] >= 1


def legal_moves(state: dict, seat: int) -> list[dict]:
    if not state or state.get("winner") is not None:
        return []
    d = top(state)
    if d is None or d["seat"] != seat:
        return []
    moves = KINDS.moves(state, d)
    if _own_turn(state, seat):
        for legal, _play in _ANYTIME.values():
            moves = moves + legal(state, seat)
    return moves


def play(tx, move: dict) -> None:
    d = top(tx.state)
    anytime = _ANYTIME.get(move["type"])
    if anytime is not None:
        anytime[1](tx, d["seat"], move)
    else:
        KINDS.answer(tx, d, move)
