"""Skirmish: the special battle at the start of the game that decides the first attacker.

Top cards face up, card text ignored; the highest value wins (4 players: the highest team
total). 2-3 players: players below the highest value lose at once; tied leaders discard and
skirmish again. 4 players: a tied team total sends all four cards to the discard and everyone
skirmishes again. The winning card(s) go to the discard, the losing card(s) to the cemetery.
The player to the left of the winner (4 players: either member of the losing team) then names
the first (lead) attacker.
"""
from __future__ import annotations

from shared.engine.game import Tx

from . import card_areas
from .content import value
from .table import left_of


def skirmish(tx: Tx) -> None:
    """Flip one card per skirmishing seat and settle it, or set up the skirmish again."""
    st = tx.state
    flips = []
    for s in st["skirmish"]:
        card_areas.reshuffle_if_empty(tx, s)
        deck = st["zones"][s]["deck"]
        if deck:
            flips.append([s, deck[0]])
    tx.emit("flip", {"cards": flips})
    shown = {s: value(c) for s, c in flips}
    val = {s: shown.get(s, -1) for s in st["skirmish"]}
    if st["teams"]:
        totals = [sum(val[s] for s in team) for team in st["teams"]]
        if totals[0] == totals[1]:
            _cards_to(tx, list(val), "discard")
            return
        win = 0 if totals[0] > totals[1] else 1
        winners, losers = st["teams"][win], st["teams"][1 - win]
        choosers = list(losers)
    else:
        best = max(val.values())
        top = [s for s in st["skirmish"] if val[s] == best]
        losers = [s for s in st["skirmish"] if val[s] != best]
        _cards_to(tx, losers, "cemetery")
        if len(top) > 1:
            _cards_to(tx, top, "discard")
            tx.emit("step", {"skirmish": top})
            return
        winners, losers = top, []
        choosers = [left_of(st, top[0])]
    _cards_to(tx, winners, "discard")
    _cards_to(tx, losers, "cemetery")
    tx.emit("step", {"step": "attacker", "skirmish": []})
    tx.emit("push", {"decision": {"seat": choosers[0], "seats": choosers, "kind": "attacker"}})


def _cards_to(tx: Tx, seats: list[int], dst: str) -> None:
    for s in seats:
        card_areas.move(tx, s, card_areas.field_cards(tx.state, s), "field", dst)
