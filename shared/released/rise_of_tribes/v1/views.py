"""What a seat may see (everything but the order and content of face-down decks) and how a
search bot rebuilds a full state from it."""
from __future__ import annotations

from shared.canonical import clone
from .content import EVENTS, goal_deck


def view(state: dict, seat: int | None) -> dict:
    """Goal cards in progress are face up (rulebook), so only the decks are hidden — until the
    game is over, when everything is open."""
    if state.get("winner") is not None:
        return clone(state)
    out = dict(state)
    out["seats"] = [dict(s, deck={"count": len(s["deck"])}) for s in state["seats"]]
    out["events"] = dict(state["events"], deck={"count": len(state["events"]["deck"])})
    return clone(out)


def determinize(v: dict, seat: int, rng) -> dict:
    """A full state whose decks are a random order of the cards not seen elsewhere."""
    state = clone(v)
    if isinstance(state["events"]["deck"], list):  # a finished game's open view
        return state
    full = goal_deck(state["n"])
    for s in state["seats"]:
        rest = list(full)
        for c in s["progress"] + s["done"]:
            rest.remove(c)
        s["deck"] = rng.shuffled(rest)
    ev = state["events"]
    known = {slot["id"] for slot in ev["slots"] if slot} | set(ev["discard"])
    ev["deck"] = rng.shuffled([e for e in EVENTS if e not in known])
    return state
