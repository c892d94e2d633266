"""The pending-decision stack: multi-step choices as a stack of small decisions.

A complex choice ("play Thievery: choose an opponent, then take a card") is pushed as one or
more decisions; the top one says who must answer and what is being asked. Games keep the stack
in ``state["pending"]`` (a list, top last) and push/pop it from ``apply``.

A decision is a dict: ``{"seat": int, "kind": str, ...parameters}``.
"""
from __future__ import annotations

from typing import Any

KEY = "pending"


def push(state: dict, seat: int, kind: str, **params: Any) -> dict:
    decision = {"seat": seat, "kind": kind, **params}
    state.setdefault(KEY, []).append(decision)
    return decision


def top(state: dict) -> dict | None:
    stack = state.get(KEY) or []
    return stack[-1] if stack else None


def pop(state: dict) -> dict:
    stack = state.get(KEY) or []
    if not stack:
        raise ValueError("no pending decision to pop")
    return stack.pop()
