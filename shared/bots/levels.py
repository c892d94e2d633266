"""The bot levels a game offers, weakest first, with their measured strength.

Strength is data: ``strength/<game id>.jsonl`` holds the output lines of ``bench/eval_bots.py``
(one per matchup and player count, seat-rotated and seeded, with 95% intervals); ``describe``
gives each level its win rates against the level below it, for ``GET /v1/games``.
"""
from __future__ import annotations

import json
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path

from ..engine import registry
from .ismcts import SearchParams

LEVELS = ("random", "greedy", "search")
DESCRIPTIONS = {
    "random": "a uniformly random legal move",
    "greedy": "one move ahead: the legal move whose result its game's heuristic scores best",
    "search": "information-set Monte Carlo tree search over states consistent with its view",
}
DATA = Path(__file__).with_name("strength")


@lru_cache(maxsize=None)
def measurements(game_id: str) -> tuple[dict, ...]:
    """The recorded evaluation lines of a game (none when it was not measured)."""
    path = DATA / f"{game_id}.jsonl"
    if not path.exists():
        return ()
    return tuple(json.loads(line) for line in path.read_text().splitlines() if line.strip())


DEFAULTS = asdict(SearchParams())


def as_offered(game_id: str, row: dict) -> bool:
    """Whether an evaluation line measured the search level as the server plays it (the game's
    tuned ``search`` parameters); a line from a tuning run with other parameters is not its record.

    A line records its whole ``search`` parameters; an older line only its ``iterations``, taken
    with the opponent model every search had then ("tree"). A parameter added since a line was
    recorded had its default then (the search had no such knob)."""
    if "search" not in (row["hero"], row["villain"]):
        return True
    try:
        tuned = asdict(SearchParams.for_game(registry.get(game_id)))
    except KeyError:
        return True
    recorded = row.get("search")
    if recorded is None:
        if row.get("iterations") is None:
            return True
        recorded = {"iterations": row["iterations"], "opponents": "tree"}
        return recorded == {k: tuned[k] for k in recorded}
    return {**DEFAULTS, **recorded} == tuned


def describe(game_id: str) -> list[dict]:
    """Each level, weakest first, with its measured record against the level below it (as offered)."""
    rows = [r for r in measurements(game_id) if r.get("bench") == "eval_bots" and as_offered(game_id, r)]
    out = []
    for i, level in enumerate(LEVELS):
        entry: dict = {"level": level, "description": DESCRIPTIONS[level]}
        if i:
            below = LEVELS[i - 1]
            entry["against_level_below"] = [
                {"level": below, "players": r["players"], "matches": r["games"], "win_rate": r["hero_win_rate"],
                 "ci95": r["ci95"], "fair_share": r["fair_share"], "options": r.get("options") or {}}
                for r in sorted(rows, key=lambda r: r["players"]) if r["hero"] == level and r["villain"] == below
            ]
        out.append(entry)
    return out


def calibration(game_id: str) -> dict:
    """The last leaderboard calibration of the levels (``bench/calibrate_levels.py``), or ``{}``."""
    runs = [r for r in measurements(game_id) if r.get("bench") == "calibrate_levels"]
    if not runs:
        return {}
    last = runs[-1]
    return {k: last[k] for k in ("matches", "players", "order", "order_holds_from", "ratings") if k in last}
