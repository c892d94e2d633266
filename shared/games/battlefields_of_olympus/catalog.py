"""Battlefields of Olympus' public content for the viewer, from the data files: the Warrior types
(their symbols and whom they beat), the Action cards, the Land Trophy cards and Ares."""
from __future__ import annotations

import json
from functools import cache

from shared.engine.catalog import card

from .content import ARES, DATA, load

TIMING = {"turn": "after your turn action", "battle": "in a battle", "response": "in response"}


def _source(src) -> str:
    if isinstance(src, str):
        return src
    words = " ".join(str(v) for v in (src or {}).values())
    for label in ("house", "inferred", "public", "rulebook"):
        if label in words:
            return label
    return "house"


@cache
def catalog() -> dict:
    c = load()
    raw = {w["id"]: w for w in json.loads((DATA / "warriors.json").read_text())["types"]}
    actions = {a["id"]: a for a in json.loads((DATA / "actions.json").read_text())["actions"]}
    extra = json.loads((DATA / "catalog.json").read_text())
    cards = {}
    for wid, w in c.warriors.items():
        beaten = sorted(c.warriors[o].name for o in c.beats_table[wid])
        beats = f"Beats {', '.join(beaten)}." if beaten else "Beats no other Warrior."
        cards[wid] = card(w.name, f"{beats} {w.count} in the Warrior deck.", {"symbol": w.symbol}, "warrior",
                          _source(raw[wid].get("source")))
        cards[wid]["beats"] = sorted(c.beats_table[wid])
    for aid, a in c.actions.items():
        cards[aid] = card(a.name, f"{actions[aid].get('text', '')} ({a.count} in the Fate deck.)", {"play": TIMING.get(a.timing, a.timing)},
                          "action", _source(actions[aid].get("source")))
    for lid, land in c.lands.items():
        cards[lid] = card(land.name, f"Land Trophy worth {land.value}" + (f", {land.colour} symbol." if land.colour else "."),
                          {"points": land.value, "colour": land.colour}, "land", "house")
    ares = extra[ARES]
    cards[ARES] = card(ares["name"], ares["text"], {}, "ares", ares["source"])
    return {"cards": cards, "winning_points": c.number("winning_points"), "set_bonus_points": c.number("set_bonus_points")}
