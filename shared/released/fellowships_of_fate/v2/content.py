"""The game's content, loaded once from ``data/*.json``: members, adventures, relics, journals, numbers.

Code holds rules only; every card and number lives in the data files, each entry with its
``source`` (``rulebook``, ``public`` or ``house``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

ICONS = ("strength", "mana", "wisdom", "wild", "overcome", "excavate", "interrupt_all", "sun")
ABILITIES = ("nameless", "legendary")


@dataclass(frozen=True)
class MemberType:
    """A member card (or a card treated as one, like Mythical Beast): a name and two abilities."""

    id: str
    name: str
    holy_shield: bool
    nameless: tuple
    legendary: tuple

    def ability(self, which: str) -> tuple:
        return self.nameless if which == "nameless" else self.legendary


@dataclass(frozen=True)
class Adventure:
    id: str
    title: str
    icon: str  # "compass" (Overcome) or "sun" (Legendary Traveler of Fate)
    cost: dict
    vp: int | None
    ability: tuple  # resolved when obtained (sun cards)
    member: MemberType | None  # Mythical Beast


@dataclass(frozen=True)
class Relic:
    id: str
    title: str
    level: int
    vp: int | None
    ability: str | None  # level 1: "nameless" or "legendary"
    member: str | None  # level 1: the member type whose same-named ability it replaces
    icons: tuple


@dataclass(frozen=True)
class Content:
    members: dict[str, MemberType]  # the nine types and any adventure treated as a member
    member_order: tuple[str, ...]  # the nine types every player owns
    adventures: dict[str, Adventure]
    relics: dict[str, Relic]
    level1: tuple[str, ...]
    level2: tuple[str, ...]
    journal_pages: dict[str, int]
    colours: tuple[str, ...]
    tokens: tuple[str, ...]
    rounds: int
    hand_size: int
    field_size: int
    extra_relic_slots: int
    level1_by_players: dict[int, int]

    def vp(self, card: str) -> int:
        """Printed VP of an adventure or relic (0 when it has none)."""
        c = self.adventures.get(card) or self.relics.get(card)
        return (c.vp or 0) if c is not None else 0

    def has_vp(self, card: str) -> bool:
        c = self.adventures.get(card) or self.relics.get(card)
        return c is not None and c.vp is not None


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


def _icons(raw: list) -> tuple:
    """Validated icon sequence, kept as JSON-friendly tuples of str / dict."""
    out = []
    for icon in raw:
        if isinstance(icon, str):
            if icon not in ICONS:
                raise ValueError(f"unknown icon {icon!r}")
        elif isinstance(icon, dict) and set(icon) == {"cost"}:
            if not icon["cost"] or any(t not in ICONS[:3] or n <= 0 for t, n in icon["cost"].items()):
                raise ValueError(f"bad cost box {icon!r}")
        elif isinstance(icon, dict) and set(icon) == {"kind"}:
            if not icon["kind"] or any(i != "wild" for i in icon["kind"]):
                raise ValueError(f"a token-of-a-kind box holds wild icons only: {icon!r}")
        else:
            raise ValueError(f"bad icon {icon!r}")
        out.append(icon)
    return tuple(out)


def _member(id: str, raw: dict[str, Any]) -> MemberType:
    return MemberType(id, raw["name"], bool(raw["holy_shield"]), _icons(raw["nameless"]), _icons(raw["legendary"]))


@cache
def content() -> Content:
    rules = {k: v["value"] for k, v in _load("rules.json").items() if isinstance(v, dict)}
    members = {m["id"]: _member(m["id"], m) for m in _load("members.json")["members"]}
    order = tuple(members)
    adventures = {}
    for a in _load("adventures.json")["adventures"]:
        member = _member(a["id"], a["member"]) if a.get("member") else None
        if member:
            members[a["id"]] = member
        adventures[a["id"]] = Adventure(
            a["id"], a["title"], a["icon"], dict(a.get("cost") or {}), a.get("vp"),
            _icons(a.get("ability") or []), member,
        )
    relics = {}
    for r in _load("relics.json")["relics"]:
        relics[r["id"]] = Relic(r["id"], r["title"], r["level"], r.get("vp"), r.get("ability"),
                                r.get("member"), _icons(r.get("icons") or []))
        if r["level"] == 1 and (r["ability"] not in ABILITIES or r["member"] not in order):
            raise ValueError(f"level 1 relic {r['id']} must name an ability of a member type")
    journals = {j["colour"]: j["pages"] for j in _load("journals.json")["journals"]}
    return Content(
        members=members,
        member_order=order,
        adventures=adventures,
        relics=relics,
        level1=tuple(r for r in relics if relics[r].level == 1),
        level2=tuple(r for r in relics if relics[r].level == 2),
        journal_pages=journals,
        colours=tuple(rules["colours"]),
        tokens=tuple(rules["tokens"]),
        rounds=rules["rounds"],
        hand_size=rules["hand_size"],
        field_size=rules["field_size"],
        extra_relic_slots=rules["extra_relic_slots"],
        level1_by_players={int(k): v for k, v in rules["level1_relics_by_players"].items()},
    )
