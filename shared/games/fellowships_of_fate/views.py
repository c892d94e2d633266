"""What a seat may see, and full states consistent with it (for search bots).

Public: the field, deck sizes, how many Level 1 relics are left in the relic deck (derivable
from the player count and the face-up relics), every play area (members, tokens, Level 1
relics), the turn in progress, who has formed (the ``form`` events are public, only the members are
private), every journal, and
``known_hand`` (a Mythical Beast everyone saw go into a hand this round).

Journals are listed for everyone: every card under a journal was shown to all players when it
was taken ("show that card to all players"), and the public ``obtain`` / ``excavate`` events name
it, so the view keeps what every player saw rather than hide what the log already tells.

Private to its owner: the hand, the standby pile and the formation being chosen (others see
their sizes). Nobody sees deck orders or which Level 1 relics were removed. After the game
everything is open.
"""
from __future__ import annotations

from shared.canonical import clone
from shared.engine import commitments

from .content import content

PUBLIC = ("players", "round", "phase", "start_seat", "last_actor", "cursor", "turn_no", "turn", "field", "result")
HIDDEN_OF_OTHERS = ("hand", "standby")


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
        if i != seat:
            for k in HIDDEN_OF_OTHERS:
                shown[k] = {"count": len(shown[k])}
    out["seats"] = seats
    return out


def determinize(view: dict, seat: int, rng) -> dict:
    """A full state the seat cannot tell from the real one: what every player saw stays where it
    is (the field, the journals, the play areas, a Beast known to be in a hand); only the cards
    nobody has seen (deck orders, removed Level 1 relics, the rest of other hands and their
    formations) are dealt at random."""
    state = clone(view)
    if state["phase"] == "over":
        return state
    c = content()
    seats = state["seats"]

    seen_adventures = {card for card in state["field"] if card is not None}
    for s in seats:
        seen_adventures.update(card for card in s["journal"] if card in c.adventures)
        seen_adventures.update(m for m in s["members"] if m in c.adventures)
    state["adventure_deck"] = _deal(rng, [a for a in c.adventures if a not in seen_adventures],
                                    view["adventure_deck"]["count"], "adventure deck")

    in_journals = {card for s in seats for card in s["journal"]}
    seen_level1 = {r["id"] for s in seats for r in s["relics"]}
    unknown_level1 = rng.shuffled([r for r in c.level1 if r not in seen_level1])
    k = view["relic_deck"]["level1"]
    level2 = _deal(rng, [r for r in c.level2 if r not in in_journals], view["relic_deck"]["count"] - k, "relic deck")
    state["relic_deck"] = unknown_level1[:k] + level2
    state["relics_removed"] = _deal(rng, unknown_level1[k:], view["relics_removed"]["count"], "removed relics")

    for i, s in enumerate(seats):
        if i != seat:
            _deal_hidden_members(s, rng)

    public = state["formation"]
    if public is not None:
        values = {}
        for i in public["committed"]:
            values[str(i)] = public["mine"] if i == seat else sorted(rng.sample(seats[i]["members"], c.hand_size))
        state["formation"] = {k: v for k, v in public.items() if k not in ("committed", "mine")}
        state["formation"]["values"] = values
    return state


def _deal(rng, cards: list, n: int, where: str) -> list:
    """All of ``cards`` in a random order; the view says there are ``n`` of them."""
    if len(cards) != n:
        raise ValueError(f"view is inconsistent: {len(cards)} unseen cards for a {where} of {n}")
    return rng.shuffled(cards)


def _deal_hidden_members(s: dict, rng) -> None:
    """Another seat's hand and standby pile at their public sizes: the members
    known to be in the hand stay there, the others not in play are shuffled among the rest."""
    in_play = [card["id"] for card in s["play"]]
    known = list(s["known_hand"])
    hidden = rng.shuffled([m for m in s["members"] if m not in in_play and m not in known])
    h = s["hand"]["count"] - len(known)
    s["hand"], s["standby"] = known + hidden[:h], hidden[h:]

