"""The four faction decks: card definitions loaded from ``data/cards.json`` and checked.

A physical card is an *instance id* ``"<key>#<n>"`` (``"orc-goblin#2"``); every copy of a card
shares its definition. Nothing in here knows a rule: it only answers "what is printed on it",
and refuses a data file whose texts fall outside the effect vocabulary (see ``NOTES.md``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).parent / "data" / "cards.json"

#: the moments a text can fire at (the rulebook's bold keywords, plus "play" and "continuous")
MOMENTS = ("play", "continuous", "after_all", "defeated", "victorious", "cemetery")
#: conditions in front of an effect: **Attacking**, **Defending**, "if you have a card in hand"
CONDITIONS = (None, "attacking", "defending", "holding")
#: effects that hold while their card is on the battlefield
CONTINUOUS_ACTIONS = ("modify", "ignore_text", "limit_plays")
#: effects that happen once, when their moment comes
INSTANT_ACTIONS = ("play_another", "reveal_play", "draw", "discard_random", "next_attacker", "recover", "move_self")
SOURCES = ("rulebook", "public", "house")


@dataclass(frozen=True)
class CardDef:
    """One card as printed: name, combat value, text, faction, attribute, frequency, effects."""

    key: str
    faction: str
    name: str
    value: int
    text: str
    attribute: str
    frequency: int
    effects: tuple
    source: str

    def effects_on(self, on: str) -> list[tuple[int, dict]]:
        """``(index, effect)`` pairs of the effects that fire at moment ``on``."""
        return [(i, fx) for i, fx in enumerate(self.effects) if fx["on"] == on]

    def has(self, on: str) -> bool:
        return any(fx["on"] == on for fx in self.effects)


def check_effect(key: str, fx: dict) -> None:
    """Raise ``ValueError`` when an effect primitive is outside the vocabulary."""
    if fx.get("on") not in MOMENTS:
        raise ValueError(f"{key}: unknown moment {fx.get('on')!r}")
    if fx.get("if") not in CONDITIONS:
        raise ValueError(f"{key}: unknown condition {fx.get('if')!r}")
    if fx.get("do") in CONTINUOUS_ACTIONS:
        if fx["on"] != "continuous":
            raise ValueError(f"{key}: {fx['do']} is a continuous effect")
    elif fx.get("do") not in INSTANT_ACTIONS:
        raise ValueError(f"{key}: unknown action {fx.get('do')!r}")
    elif fx["on"] == "continuous":
        raise ValueError(f"{key}: {fx['do']} is an instant effect")


def _load() -> tuple[list[str], dict[str, CardDef]]:
    raw = json.loads(DATA.read_text())
    factions = [f["key"] for f in raw["factions"]]
    defs = {}
    for c in raw["cards"]:
        if c["faction"] not in factions or c["source"] not in SOURCES:
            raise ValueError(f"{c['key']}: unknown faction or source")
        for fx in c["effects"]:
            check_effect(c["key"], fx)
        defs[c["key"]] = CardDef(
            key=c["key"], faction=c["faction"], name=c["name"], value=c["value"], text=c["text"],
            attribute=c["attribute"], frequency=c["frequency"], effects=tuple(c["effects"]),
            source=c["source"],
        )
    return factions, defs


FACTIONS, CARDS = _load()

DECKS: dict[str, list[str]] = {
    f: [f"{d.key}#{n}" for d in CARDS.values() if d.faction == f for n in range(1, d.frequency + 1)]
    for f in FACTIONS
}
_BY_ID: dict[str, CardDef] = {cid: CARDS[cid.split("#", 1)[0]] for deck in DECKS.values() for cid in deck}


def card(card_id: str) -> CardDef:
    """The definition of a card instance."""
    return _BY_ID[card_id]


def kind(card_id: str) -> str:
    """The card's key (all copies share it)."""
    return _BY_ID[card_id].key


def value(card_id: str) -> int:
    return _BY_ID[card_id].value


def total_value(cards) -> int:
    """Sum of printed combat values (a cemetery value)."""
    return sum(_BY_ID[c].value for c in cards)


def by_name(faction: str, name: str) -> str:
    """The key of ``faction``'s card called ``name`` (for tests and tools)."""
    for d in CARDS.values():
        if d.faction == faction and d.name == name:
            return d.key
    raise KeyError(f"{faction} has no card named {name!r}")
