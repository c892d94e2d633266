"""The game's components, loaded once from the JSON files in ``data/`` (code holds only rules)."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
RESOURCES = ("food", "wood", "stone")
ACTIONS = ("grow", "move", "gather", "lead")
STRENGTHS = ("weak", "standard", "strong")


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


@lru_cache(maxsize=None)
def adjacency(players: int) -> tuple[tuple[int, ...], ...]:
    """Neighbours of each hex on the map for ``players``."""
    return tuple(tuple(n) for n in BOARD["maps"][str(players)]["adjacency"])


@lru_cache(maxsize=None)
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
