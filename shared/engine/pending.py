"""The pending-decision stack: multi-step choices as a stack of small decisions.

A complex choice ("play Thievery: choose an opponent, then take a card") is pushed as one or
more decisions; the top one says who must answer and what is being asked. Games keep the stack
in ``state["pending"]`` (a list, top last) and push/pop it from ``apply``.

A decision is a dict: ``{"seat": int, "kind": str, ...parameters}``.
"""
from __future__ import annotations

from typing import Any, Callable

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


class DecisionKinds:
    """The kinds of decision a game asks, each with the moves that answer it and how an answer
    is played: ``register(kind, moves(state, decision) -> [move], answer(tx, decision, move))``."""

    def __init__(self) -> None:
        self._kinds: dict[str, tuple[Callable, Callable]] = {}

    def register(self, kind: str, moves: Callable, answer: Callable) -> None:
        if kind in self._kinds:
            raise ValueError(f"decision kind {kind!r} is registered twice")
        self._kinds[kind] = (moves, answer)

    def moves(self, state: dict, decision: dict) -> list[dict]:
        return self._kinds[decision["kind"]][0](state, decision)

    def answer(self, tx: Any, decision: dict, move: dict) -> None:
        self._kinds[decision["kind"]][1](tx, decision, move)

    def __contains__(self, kind: str) -> bool:
        return kind in self._kinds
