"""The game's components, loaded once from the JSON files in ``data/`` (code holds only rules),
and checked on load: every entry says where it comes from (``source``)."""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
RESOURCES = ("food", "wood", "stone")
ACTIONS = ("grow", "move", "gather", "lead")
STRENGTHS = ("weak", "standard", "strong")
SOURCES = ("house", "public", "rulebook")  # from the least to the most certain


def _load(name: str) -> dict:
    with open(DATA / name, encoding="utf-8") as fh:
        return json.load(fh)


BOARD = _load("board.json")
RULES = _load("rules.json")
DICE = _load("dice.json")
ACTION_TABLE = _load("actions.json")["actions"]
GOALS = {c["id"]: c for c in _load("goals.json")["cards"]}
EVENTS = {c["id"]: c for c in _load("events.json")["cards"]}
_TRIBES = _load("tribes.json")
TRIBES = {t["id"]: t for t in _TRIBES["tribes"]}
POWERS = {p["id"]: p for p in _TRIBES["powers"]}

TERRAINS = [t["id"] for t in BOARD["terrains"]]
RESOURCE_OF = {t["id"]: t["resource"] for t in BOARD["terrains"]}
POPULATION_LIMIT = BOARD["population_limit"]["value"]
FACES = DICE["faces"]["value"]
WIN = RULES["winning_score"]


@cache
def adjacency(players: int) -> tuple[tuple[int, ...], ...]:
    """Neighbours of each hex on the map for ``players``."""
    return tuple(tuple(n) for n in BOARD["maps"][str(players)]["adjacency"])


@cache
def outer_hexes(players: int) -> frozenset[int]:
    """Hexes with fewer than six neighbours."""
    return frozenset(h for h, n in enumerate(adjacency(players)) if len(n) < 6)


def goal_deck(players: int) -> list[str]:
    """The Goal cards of one player's deck for this player count (Pottery needs 3+)."""
    return [c["id"] for c in GOALS.values() if players >= c.get("min_players", 0)]


def action_numbers(action: str, strength: str) -> dict:
    return ACTION_TABLE[action][strength]


def strength_of(dice: list[str]) -> str:
    """The version of an action given the dice now on it."""
    rule = DICE["strength"]
    if dice.count(rule["weak_if_at_least"]["face"]) >= rule["weak_if_at_least"]["count"]:
        return "weak"
    if dice.count(rule["strong_if_at_least"]["face"]) >= rule["strong_if_at_least"]["count"]:
        return "strong"
    return "standard"


def event_effects(card: dict) -> list[dict]:
    """Every effect of an event card: what it does when drawn, while active and on doubles."""
    return card.get("on_draw", []) + card.get("effects", []) + card.get("on_doubles", [])


def least_certain(sources: list[str]) -> str:
    return min(sources, key=SOURCES.index)


def check_sources() -> None:
    """Every entry names its source; an event card names its name's source and each effect's,
    and its own ``source`` is the least certain of its effects' (so a card whose name is public
    but whose effect is ours reads ``house``)."""
    entries = (list(GOALS.values()) + list(EVENTS.values()) + list(TRIBES.values()) + list(POWERS.values())
               + list(ACTION_TABLE.values()) + list(BOARD["maps"].values()) + BOARD["terrains"]
               + [v for v in DICE.values() if isinstance(v, dict)] + [RULES])
    for entry in entries:
        if entry.get("source") not in SOURCES:
            raise ValueError(f"no valid source on {entry.get('id', entry)}")
    for card in EVENTS.values():
        parts = [op.get("source") for op in event_effects(card)]
        if card.get("leaves"):
            parts.append(card.get("leaves_source"))
        if card.get("name_source") not in SOURCES or any(p not in SOURCES for p in parts):
            raise ValueError(f"event {card['id']}: a name or an effect without a valid source")
        if card["source"] != least_certain(parts):
            raise ValueError(f"event {card['id']}: source {card['source']} but its least certain effect is "
                             f"{least_certain(parts)}")


check_sources()
