"""Pending decisions: who must answer what, the moves that answer it, and how each is played.

A decision is a plain dict on ``state["pending"]`` (top last) with ``seat`` and ``kind``. Each
kind registers a ``legal(state, decision) -> [move]`` and a ``play(tx, decision, move)``; the
play function pops or updates its decision through the events below.

Two decisions are *standing*: while nothing is pending, the turn's step itself asks the current
player (step "actions": choose an action; step "goals": step 5). They need no ask/resolve events.
"""
from __future__ import annotations

from shared.engine.pending import DecisionKinds

KINDS = DecisionKinds()
register = KINDS.register


STANDING = {"actions": "action", "goals": "goals"}


def top(state: dict) -> dict | None:
    """The decision awaited now: the top of the stack, else the step's standing decision."""
    if state["pending"]:
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


def legal_moves(state: dict, seat: int) -> list[dict]:
    if state.get("winner") is not None:
        return []
    d = top(state)
    if d is None or d["seat"] != seat:
        return []
    return KINDS.moves(state, d)


def play(tx, move: dict) -> None:
    d = top(tx.state)
    KINDS.answer(tx, d, move)
