"""Queries on the two event slots: which effects are active, and where raiders stand."""
from __future__ import annotations

from .content import EVENTS


def active_ops(state: dict, op: str) -> list[tuple[dict, int]]:
    """Every effect ``op`` of the active events, with its slot index."""
    out = []
    for i, slot in enumerate(state["events"]["slots"]):
        if slot:
            for eff in EVENTS[slot["id"]].get("effects", []):
                if eff["op"] == op:
                    out.append((eff, i))
    return out


def slot_of(state: dict, event_id: str) -> int | None:
    for i, slot in enumerate(state["events"]["slots"]):
        if slot and slot["id"] == event_id:
            return i
    return None


def raiders_at(state: dict, hex_: int) -> tuple[int, int | None]:
    """Hostile tokens (Invaders) in ``hex_`` that count as population and fight, with their slot."""
    for eff, i in active_ops(state, "raiders"):
        slot = state["events"]["slots"][i]
        if slot["hex"] == hex_ and slot["tokens"] > 0:
            return slot["tokens"], i
    return 0, None
