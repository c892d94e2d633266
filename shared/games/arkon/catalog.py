"""Arkon's public content for viewers (``GET /v1/games/arkon/catalog``).

Built from ``data/*.json`` alone: every card (clans, actions, responses, and the promotional
cards) with its printed name, influence value, text, kind, copies in the deck and source
(``rulebook``, ``public`` or ``house``, with ``source_detail`` saying which field comes from
where); the role cards; the clan types; the four phases of a turn in the rulebook's words.
Nothing of any match: no deck order, no hand, no bid.
"""
from __future__ import annotations

import json
from functools import cache

from .content import DATA, HAND_LIMIT, WIN_CLANS

#: The rulebook's names of a turn's phases (``phases.py`` ids).
PHASES = {"action1": "First Action Phase", "bidding": "Bidding Phase", "action2": "Second Action Phase",
          "draw": "Universal Draw Phase", "over": "game over"}
KINDS = {"clan": "Clan", "action": "Action", "response": "Response"}


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


def _card(raw: dict) -> dict:
    values: dict = {"Influence": raw["influence"]}
    if raw.get("passive"):
        values["Passive influence"] = raw["passive"]
    entry = {"name": raw["name"], "kind": raw["kind"], "text": raw.get("text", ""),
             "values": values, "source": raw["source"], "influence": raw["influence"],
             "copies": raw["copies"], "type": KINDS[raw["kind"]]}
    if raw.get("source_detail"):
        entry["source_detail"] = dict(raw["source_detail"])
    if raw.get("clan"):
        entry["clan"] = raw["clan"]
    if raw.get("promo"):
        entry["promo"] = True
    if raw.get("target"):
        entry["target"] = raw["target"]
    return entry


@cache
def _catalog() -> dict:
    from .game import Arkon

    raw = _load("cards.json")
    cards = {c["id"]: _card(c) for c in raw["cards"]}
    roles = {r["id"]: {"name": r["name"], "text": r.get("text", ""), "source": r.get("source", "house")}
             for r in _load("roles.json")["roles"]}
    return {
        "game": Arkon.id,
        "engine": Arkon.version,
        "cards": cards,
        "roles": roles,
        "clan_types": {t: cards[t]["name"] if t in cards else t.title() for t in raw["clan_types"]},
        "phases": dict(PHASES),
        "hand_limit": HAND_LIMIT,
        "win_clans": WIN_CLANS,
    }


def catalog() -> dict:
    """The public content as plain JSON (a fresh copy: callers may not change the cached one)."""
    return json.loads(json.dumps(_catalog()))
