"""Fate of Akalon's public content for the viewer, from ``data/cards.json``: every card of the
four faction decks (printed name, combat value, text, attribute) and the factions."""
from __future__ import annotations

import json
from functools import cache

from shared.engine.catalog import card

from .content import CARDS, DATA


@cache
def catalog() -> dict:
    raw = json.loads(DATA.read_text())
    factions = {f["key"]: {"name": f["name"], "theme": f.get("theme", ""), "source": f.get("source")} for f in raw["factions"]}
    cards = {}
    for key, d in CARDS.items():
        cards[key] = card(d.name, d.text.replace("**", ""), {"value": d.value, "attribute": d.attribute}, "creature",
                          d.source)
        cards[key]["faction"] = factions[d.faction]["name"]
    return {"cards": cards, "factions": factions}
