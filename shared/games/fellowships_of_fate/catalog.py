"""The game's public content for viewers (``GET /v1/games/fellowships-of-fate/catalog``).

Built from ``data/*.json`` alone: every member type, adventure, relic and journal with its
printed name, values (VP, playing cost, level, pages), its abilities written out as the card's
text (the rulebook's Icon Reference, read left to right), its kind and its source (``rulebook``,
``public`` or ``house``, as the data files record it). Also the token types, the icon words, the
number of rounds and the field's layout. Nothing of any match: no deck order, no hand.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from .content import DATA, content

#: The Icon Reference of the rulebook, one sentence per icon of the data files' vocabulary.
ICON_WORDS = {
    "strength": "gain 1 Strength",
    "mana": "gain 1 Mana",
    "wisdom": "gain 1 Wisdom",
    "wild": "gain 1 token of any type",
    "overcome": "Overcome (obtain a compass card from the field, paying its cost)",
    "excavate": "Excavate (obtain the top Relic card)",
    "interrupt_all": "interrupt all upright cards of every name",
    "sun": "obtain a sun card from the field and resolve its ability",
}
TOKEN_NAMES = {"strength": "Strength", "mana": "Mana", "wisdom": "Wisdom"}


def _raw(name: str, key: str) -> list[dict]:
    return json.loads((Path(DATA) / name).read_text())[key]


def tokens_text(tokens: dict) -> str:
    """``{"strength": 2, "mana": 1}`` as "2 Strength, 1 Mana" (in the rulebook's token order)."""
    return ", ".join(f"{tokens[t]} {TOKEN_NAMES[t]}" for t in TOKEN_NAMES if tokens.get(t))


def icon_text(icon) -> str:
    """One icon (or box) of an ability in words."""
    if isinstance(icon, str):
        return ICON_WORDS[icon]
    if "cost" in icon:
        return f"pay {tokens_text(icon['cost'])} (if you cannot, your turn ends)"
    return f"gain {len(icon['kind'])} tokens all of one type"


def ability_text(icons) -> str:
    """An icon row as a sentence, left to right (repeated gains of one token said once, "gain 2
    Strength"); an empty row does nothing."""
    if not icons:
        return "No effect."
    said: list[list] = []  # [count, token] for a run of gains, [text, None] otherwise
    for icon in icons:
        if isinstance(icon, str) and icon in TOKEN_NAMES:
            if said and said[-1][1] == icon:
                said[-1][0] += 1
            else:
                said.append([1, icon])
        else:
            said.append([icon_text(icon), None])
    text = ", then ".join(f"gain {n} {TOKEN_NAMES[t]}" if t else n for n, t in said)
    return text[0].upper() + text[1:] + "."


def _member_entry(m, raw: dict) -> dict:
    shield = " Holy Shield: immune to interrupt." if m.holy_shield else ""
    return {
        "name": m.name, "kind": "member", "source": raw.get("source", "house"),
        "text": f"Nameless: {ability_text(m.nameless)} Legendary: {ability_text(m.legendary)}{shield}",
        "values": {"Holy Shield": "yes"} if m.holy_shield else {},
        "nameless": list(m.nameless), "legendary": list(m.legendary), "holy_shield": m.holy_shield,
    }


def _adventure_entry(a, raw: dict) -> dict:
    values: dict = {"VP": a.vp if a.vp is not None else "none"}
    if a.icon == "compass":
        values["Cost"] = tokens_text(a.cost)
        text = f"Compass card: obtain it with Overcome by paying {tokens_text(a.cost)}."
    else:
        text = f"Sun card: obtained free with the Legendary Traveler of Fate; when obtained: {ability_text(a.ability)}"
    entry = {"name": a.title, "kind": "adventure", "source": raw.get("source", "house"), "icon": a.icon,
             "cost": dict(a.cost), "vp": a.vp, "ability": list(a.ability)}
    if a.member is not None:
        text += (f" It joins your members at once. Nameless: {ability_text(a.member.nameless)}"
                 f" Legendary: {ability_text(a.member.legendary)}")
        entry["member"] = True
    entry["text"] = text
    entry["values"] = values
    return entry


def _relic_entry(r, raw: dict, members: dict) -> dict:
    values: dict = {"Level": r.level}
    if r.level == 1:
        which = "Legendary" if r.ability == "legendary" else "Nameless"
        name = f"{which} {members[r.member].name}"
        text = (f"Level 1 relic, face up in your play area. From your next turn it may replace the "
                f"{name} ability: {ability_text(r.icons)}")
        values["Replaces"] = name
    else:
        values["VP"] = r.vp
        text = f"Level 2 relic: {r.vp} VP, placed under your journal."
    return {"name": r.title, "kind": "relic", "source": raw.get("source", "house"), "level": r.level,
            "vp": r.vp, "text": text, "values": values}


@cache
def _catalog() -> dict:
    from .game import FellowshipsOfFate

    c = content()
    cards: dict[str, dict] = {}
    for raw in _raw("members.json", "members"):
        cards[raw["id"]] = _member_entry(c.members[raw["id"]], raw)
    for raw in _raw("adventures.json", "adventures"):
        cards[raw["id"]] = _adventure_entry(c.adventures[raw["id"]], raw)
    for raw in _raw("relics.json", "relics"):
        cards[raw["id"]] = _relic_entry(c.relics[raw["id"]], raw, c.members)
    journals = {}
    for raw in _raw("journals.json", "journals"):
        cid = f"journal_{raw['colour']}"
        cards[cid] = {"name": raw["title"], "kind": "journal", "source": raw.get("source", "house"),
                      "text": f"Your journal: the VP cards you obtain go face down under it; "
                              f"it adds {raw['pages']} page(s) to your final VP.",
                      "values": {"Pages": raw["pages"]}}
        journals[raw["colour"]] = cid
    return {
        "game": FellowshipsOfFate.id,
        "engine": FellowshipsOfFate.version,
        "cards": cards,
        "journals": journals,
        "tokens": {t: TOKEN_NAMES[t] for t in c.tokens},
        "icons": dict(ICON_WORDS),
        "rounds": c.rounds,
        "hand_size": c.hand_size,
        "field_size": c.field_size,
        "extra_relic_slots": c.extra_relic_slots,
        "phases": {"formation": "Formation", "explore": "Explore", "over": "game over"},
    }


def catalog() -> dict:
    """The public content as plain JSON (a fresh copy: callers may not change the cached one)."""
    return json.loads(json.dumps(_catalog()))
