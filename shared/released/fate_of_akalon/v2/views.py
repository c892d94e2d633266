"""What a seat may see, and a full state consistent with it (for search bots).

Hidden: every deck's order and contents (only its size shows) and other players' hands (only
their size). Everything else is face up: battlefield, discards (in order), cemeteries,
out-of-play areas, revealed cards, cards discarded at random, pending decisions. Once the game
is over everything is open.
"""
from __future__ import annotations

from shared.canonical import clone
from shared.rng import Rng

from .content import DECKS

PUBLIC_AREAS = ("discard", "cemetery", "out", "revealed")


def view(state: dict, seat: int | None) -> dict:
    if not state or state.get("step") == "over":
        return clone(state)
    out = {k: v for k, v in state.items() if k != "zones"}
    out = clone(out)
    out["zones"] = []
    for s, z in enumerate(state["zones"]):
        shown = {a: list(z[a]) for a in PUBLIC_AREAS}
        shown["deck"] = {"count": len(z["deck"])}
        shown["hand"] = list(z["hand"]) if s == seat else {"count": len(z["hand"])}
        out["zones"].append(shown)
    return out


def determinize(v: dict, seat: int, rng: Rng) -> dict:
    """Deal every card the seat cannot see at random into the hidden slots."""
    state = clone(v)
    if not state or state.get("step") == "over":
        return state
    on_field = {}
    for e in state["field"]:
        on_field.setdefault(e["seat"], set()).add(e["card"])
    for s, z in enumerate(state["zones"]):
        known = set(on_field.get(s, ()))
        for a in PUBLIC_AREAS:
            known.update(z[a])
        if isinstance(z["hand"], list):
            known.update(z["hand"])
        unknown = rng.shuffled([c for c in DECKS[state["factions"][s]] if c not in known])
        if not isinstance(z["hand"], list):
            k = z["hand"]["count"]
            z["hand"], unknown = unknown[:k], unknown[k:]
        z["deck"] = unknown
    return state
