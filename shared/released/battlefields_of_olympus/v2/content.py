"""The game's cards and numbers, loaded from the JSON files in ``data/`` and checked.

Code elsewhere holds only rules; every card list, count and number comes from here.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
ARES = "ares"


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


@dataclass(frozen=True)
class WarriorType:
    id: str
    name: str
    symbol: str
    top_right: frozenset
    count: int


@dataclass(frozen=True)
class ActionCard:
    id: str
    name: str
    count: int
    timing: str  # "turn" | "battle" | "response"
    effect: dict | None
    requires: tuple
    cancels: frozenset
    defeats: frozenset

    def can_cancel(self, other: str) -> bool:
        return "*" in self.cancels or other in self.cancels

    def can_defeat(self, other: str) -> bool:
        return other in self.defeats

    @property
    def counters(self) -> bool:
        """Whether the card can be played as a reply to an opponent's Action."""
        return bool(self.cancels or self.defeats)


@dataclass(frozen=True)
class Land:
    id: str
    name: str
    colour: str | None  # only duplicate Lands carry a colour symbol
    value: int


@dataclass(frozen=True)
class Content:
    warriors: dict
    actions: dict
    lands: dict
    numbers: dict
    beats_table: dict
    bonus: dict

    def beats(self, a: str, b: str) -> bool:
        """Whether Warrior type ``a`` beats type ``b`` (a top-right symbol matches b's top-left)."""
        return b in self.beats_table[a]

    def beats_or_ties(self, a: str, b: str) -> bool:
        return a == b or self.beats(a, b)

    def number(self, key: str) -> int:
        return self.numbers[key]["value"]

    def warrior_deck(self) -> list[str]:
        """All Warrior cards, grouped by type (unshuffled)."""
        return [w.id for w in self.warriors.values() for _ in range(w.count)]

    def fate_deck(self) -> list[str]:
        """All Fate cards: Actions by id (with copies), Lands by id, Ares (unshuffled)."""
        cards = [a.id for a in self.actions.values() for _ in range(a.count)]
        cards += list(self.lands)
        cards += [ARES] * self.number("ares_count")
        return cards

    def fate_kind(self, card: str) -> str:
        if card == ARES:
            return "ares"
        return "land" if card in self.lands else "action"


SOURCE_LABELS = ("rulebook", "public", "inferred", "house")


def source_labels(source) -> list[str]:
    """Every label of a ``source`` entry (a string, or a dict of strings or of such dicts)."""
    if isinstance(source, dict):
        return [label for value in source.values() for label in source_labels(value)]
    return [source]


def _check(raw_warriors: list, raw_actions: list, raw_lands: list, warriors: dict, beats_table: dict) -> None:
    """The data's own consistency: sources on every entry, one per who-beats-whom relation and
    per Action count, colours exactly on the duplicate Lands."""
    for entry in raw_warriors + raw_actions + raw_lands:
        labels = source_labels(entry.get("source"))
        if not labels or any(not isinstance(l, str) or l.split(" ")[0] not in SOURCE_LABELS for l in labels):
            raise ValueError(f"{entry['id']}: every source must start with one of {SOURCE_LABELS}")
    for w in raw_warriors:
        if set(w["source"]["beats"]) != beats_table[w["id"]]:
            raise ValueError(f"{w['id']}: source.beats must name each beaten type once")
    for a in raw_actions:
        if "count" not in a["source"]:
            raise ValueError(f"{a['id']}: no source for its count")
    copies = Counter(l["name"] for l in raw_lands)
    for l in raw_lands:
        if (l["colour"] is not None) != (copies[l["name"]] > 1):
            raise ValueError(f"{l['id']}: a colour symbol belongs to the duplicate Lands only")
    if sum(w.count for w in warriors.values()) != _load("warriors.json")["deck_size"]:
        raise ValueError("Warrior counts do not add up to the deck size")


@lru_cache(maxsize=1)
def load() -> Content:
    raw_w = _load("warriors.json")["types"]
    warriors = {
        w["id"]: WarriorType(w["id"], w["name"], w["symbol"], frozenset(w["top_right"]), w["count"])
        for w in raw_w
    }
    by_symbol = {w.symbol: w.id for w in warriors.values()}
    beats_table = {w.id: frozenset(by_symbol[s] for s in w.top_right) for w in warriors.values()}
    raw_a = _load("actions.json")["actions"]
    actions = {
        a["id"]: ActionCard(
            a["id"], a["name"], a["count"], a["timing"], a["effect"], tuple(a["requires"]),
            frozenset(a["cancels"]), frozenset(a["defeats"]),
        )
        for a in raw_a
    }
    raw_l = _load("lands.json")["lands"]
    lands = {l["id"]: Land(l["id"], l["name"], l["colour"], l["value"]) for l in raw_l}
    _check(raw_w, raw_a, raw_l, warriors, beats_table)
    return Content(warriors, actions, lands, _load("rules.json"), beats_table, _load("bonus_warrior.json"))
