"""The game's cards and numbers, loaded from the JSON files in ``data/``.

Code elsewhere holds only rules; every card list, count and number comes from here.
"""
from __future__ import annotations

import json
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
    colour: str
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


@lru_cache(maxsize=1)
def load() -> Content:
    raw_w = _load("warriors.json")["types"]
    warriors = {
        w["id"]: WarriorType(w["id"], w["name"], w["symbol"], frozenset(w["top_right"]), w["count"])
        for w in raw_w
    }
    by_symbol = {w.symbol: w.id for w in warriors.values()}
    beats_table = {w.id: frozenset(by_symbol[s] for s in w.top_right) for w in warriors.values()}
    actions = {
        a["id"]: ActionCard(
            a["id"], a["name"], a["count"], a["timing"], a["effect"], tuple(a["requires"]),
            frozenset(a["cancels"]), frozenset(a["defeats"]),
        )
        for a in _load("actions.json")["actions"]
    }
    lands = {l["id"]: Land(l["id"], l["name"], l["colour"], l["value"]) for l in _load("lands.json")["lands"]}
    return Content(warriors, actions, lands, _load("rules.json"), beats_table, _load("bonus_warrior.json"))
