"""Fate of Akalon bot evaluation (JSON lines; not a test).

1. greedy vs random, seat-rotated, >= 200 games per player count (``shared.bots.arena.win_rate``);
2. a faction table over greedy-vs-greedy 2-player games, cycling through every ordered faction
   pairing: each faction's win rate (a tie counts half) and each matchup's.

Usage: python bench/eval_fate_of_akalon.py [--games 200] [--players 2 3 4] [--faction-games 1000]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import permutations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as `python bench/<this file>`

from shared.bots.arena import play_match, win_rate  # noqa: E402
from shared.engine import registry  # noqa: E402
from shared.games.fate_of_akalon.content import FACTIONS  # noqa: E402


def faction_table(game, games: int, seed: int = 0) -> dict:
    pairings = list(permutations(FACTIONS, 2))
    score = {f: 0.0 for f in FACTIONS}
    played = {f: 0 for f in FACTIONS}
    matchup: dict[str, list[float]] = {}
    steps = 0
    for i in range(games):
        pair = pairings[i % len(pairings)]
        rec = play_match(game, ["greedy", "greedy"], {"factions": list(pair)}, seed=seed + i)
        steps += rec.steps
        ranks = rec.outcome.ranks
        points = [1.0 if ranks[s] < ranks[1 - s] else 0.5 if ranks[s] == ranks[1 - s] else 0.0 for s in (0, 1)]
        for s, f in enumerate(pair):
            score[f] += points[s]
            played[f] += 1
        first = min(pair)
        entry = matchup.setdefault(f"{first}-{max(pair)}", [0.0, 0])
        entry[0] += points[pair.index(first)]
        entry[1] += 1
    return {
        "game": game.id, "table": "faction_win_rate", "players": 2, "levels": "greedy-vs-greedy",
        "games": games, "mean_steps": steps / games,
        "faction_win_rate": {f: round(score[f] / played[f], 3) for f in FACTIONS},
        "matchup_first_named_win_rate": {k: round(v[0] / v[1], 3) for k, v in sorted(matchup.items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="greedy vs random games per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--faction-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = registry.get("fate-of-akalon")
    for players in args.players:
        start = time.perf_counter()
        result = win_rate(game, "greedy", "random", players, args.games, {}, seed=args.seed)
        result.update(seconds=round(time.perf_counter() - start, 1))
        print(json.dumps(result), flush=True)
    if args.faction_games:
        start = time.perf_counter()
        result = faction_table(game, args.faction_games, seed=args.seed)
        result.update(seconds=round(time.perf_counter() - start, 1))
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
