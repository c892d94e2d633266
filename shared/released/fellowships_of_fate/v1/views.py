"""What a seat may see, and full states consistent with it (for search bots).

Public: the field, deck sizes, how many Level 1 relics are left in the relic deck (derivable
from the player count and the face-up relics), every play area (members, tokens, Level 1
relics), the turn in progress, who has committed a formation. Private to its owner: the hand,
the standby pile, the formation being chosen, and the cards under the journal (others see only
how many; cards with VP are shown in the ``obtain`` / ``excavate`` events when taken, as the
rulebook asks, but views never list another seat's journal, so VP totals cannot be read from a
view). Nobody sees deck orders or which Level 1 relics were removed. After the game everything is
open.
"""
from __future__ import annotations

from shared.canonical import clone
from shared.engine import commitments

from .content import content

PUBLIC = ("players", "round", "phase", "start_seat", "last_actor", "cursor", "turn_no", "turn", "field", "result")
HIDDEN_OF_OTHERS = ("hand", "standby", "journal")


def view(state: dict, seat: int | None) -> dict:
    if state["phase"] == "over":
        return clone(state)
    c = content()
    out = clone({k: state[k] for k in PUBLIC})
    out["adventure_deck"] = {"count": len(state["adventure_deck"])}
    out["relic_deck"] = {
        "count": len(state["relic_deck"]),
        "level1": sum(1 for r in state["relic_deck"] if c.relics[r].level == 1),
    }
    out["relics_removed"] = {"count": len(state["relics_removed"])}
    formation = state["formation"]
    out["formation"] = clone(commitments.public(formation, seat)) if formation else None
    seats = clone(state["seats"])
    for i, shown in enumerate(seats):
        if i == seat:
            continue
        for k in HIDDEN_OF_OTHERS:
            shown[k] = {"count": len(shown[k])}
        del shown["draft"]
    out["seats"] = seats
    return out


def determinize(view: dict, seat: int, rng) -> dict:
    """A full state the seat cannot tell from the real one: unknown cards dealt at random."""
    state = clone(view)
    if state["phase"] == "over":
        return state
    c = content()
    seats = state["seats"]
    me = seats[seat]

    known_adventures = {card for card in state["field"] if card is not None}
    known_adventures.update(card for card in me["journal"] if card in c.adventures)
    for s in seats:
        known_adventures.update(m for m in s["members"] if m in c.adventures)
    unknown_adventures = rng.shuffled([a for a in c.adventures if a not in known_adventures])
    deck_n = view["adventure_deck"]["count"]
    state["adventure_deck"] = unknown_adventures[:deck_n]

    seen_level1 = {r["id"] for s in seats for r in s["relics"]}
    unknown_level1 = rng.shuffled([r for r in c.level1 if r not in seen_level1])
    unknown_level2 = rng.shuffled([r for r in c.level2 if r not in me["journal"]])
    k = view["relic_deck"]["level1"]
    level2_in_deck = view["relic_deck"]["count"] - k
    state["relic_deck"] = unknown_level1[:k] + unknown_level2[:level2_in_deck]
    state["relics_removed"] = unknown_level1[k:]

    pool = rng.shuffled(unknown_adventures[deck_n:] + unknown_level2[level2_in_deck:])
    for i, s in enumerate(seats):
        if i == seat:
            continue
        n = s["journal"]["count"]
        s["journal"], pool = pool[:n], pool[n:]
        in_play = [card["id"] for card in s["play"]]
        hidden = rng.shuffled([m for m in s["members"] if m not in in_play])
        h = s["hand"]["count"]
        s["hand"], s["standby"] = hidden[:h], hidden[h:]
        s["draft"] = []
    if pool:
        raise ValueError("view is inconsistent: unplaced cards remain")

    public = state["formation"]
    if public is not None:
        values = {}
        for i in public["committed"]:
            if i == seat:
                values[str(i)] = public["mine"]
            else:
                values[str(i)] = sorted(rng.sample(seats[i]["members"], c.hand_size))
        state["formation"] = {k: v for k, v in public.items() if k not in ("committed", "mine")}
        state["formation"]["values"] = values
    return state
