"""Fate of Akalon bot evaluation (JSON lines; not a test).

1. greedy vs random, seat-rotated, per player count (``shared.bots.arena.win_rate``);
2. ``--matchups N``: the faction table over greedy-vs-greedy 2-player games. Every unordered
   faction pair plays N games (seeds ``seed`` .. ``seed+N-1``), the two factions swapping seats
   every game (half the games each faction sits in seat 0, which picks first after a lost
   skirmish). A win scores 1, a tie 1/2. Printed per matchup: the first-named faction's score
   rate, wins/ties/losses, and a 95% confidence interval (normal approximation with the
   sample standard deviation of the per-game scores); then each faction's overall rate.
   ``--markdown`` also prints the table as Markdown (for ``docs/games/fate_of_akalon.md``).

Usage: python bench/eval_fate_of_akalon.py [--games 200] [--players 2 3 4] [--matchups 200] [--markdown]
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as `python bench/<this file>`

from shared.bots.arena import play_match, win_rate  # noqa: E402
from shared.engine import registry  # noqa: E402
from shared.games.fate_of_akalon.content import FACTIONS  # noqa: E402

BOUNDS = (0.35, 0.65)


def matchup(game, first: str, second: str, games: int, seed: int = 0) -> dict:
    """``games`` greedy-vs-greedy games of ``first`` against ``second``, seats alternating."""
    scores = []
    steps = 0
    for i in range(games):
        pair = [first, second] if i % 2 == 0 else [second, first]
        rec = play_match(game, ["greedy", "greedy"], {"factions": pair}, seed=seed + i)
        steps += rec.steps
        me = pair.index(first)
        mine, theirs = rec.outcome.ranks[me], rec.outcome.ranks[1 - me]
        scores.append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
    rate = sum(scores) / games
    sd = math.sqrt(sum((x - rate) ** 2 for x in scores) / (games - 1)) if games > 1 else 0.0
    half = 1.96 * sd / math.sqrt(games)
    return {
        "matchup": f"{first}-{second}", "games": games, "rate": round(rate, 3),
        "wins": scores.count(1.0), "ties": scores.count(0.5), "losses": scores.count(0.0),
        "ci95": [round(max(0.0, rate - half), 3), round(min(1.0, rate + half), 3)],
        "within_bounds": BOUNDS[0] <= rate <= BOUNDS[1], "mean_steps": round(steps / games, 1),
    }


def matchup_table(game, games: int, seed: int = 0) -> dict:
    rows = [matchup(game, a, b, games, seed) for a, b in combinations(FACTIONS, 2)]
    points = {f: 0.0 for f in FACTIONS}
    played = {f: 0 for f in FACTIONS}
    for row in rows:
        a, b = row["matchup"].split("-")
        points[a] += row["rate"] * games
        points[b] += (1 - row["rate"]) * games
        played[a] += games
        played[b] += games
    return {
        "game": game.id, "table": "matchups", "players": 2, "levels": "greedy-vs-greedy",
        "games_per_matchup": games, "seeds": [seed, seed + games - 1], "seat_rotation": "alternate",
        "bounds": list(BOUNDS), "rows": rows,
        "faction_rate": {f: round(points[f] / played[f], 3) for f in FACTIONS},
        "all_within_bounds": all(r["within_bounds"] for r in rows),
    }


def markdown(table: dict) -> str:
    lines = ["| matchup | first-named faction's score | 95% CI | wins / ties / losses |", "|---|---|---|---|"]
    for r in table["rows"]:
        lo, hi = r["ci95"]
        lines.append(f"| {r['matchup']} | {r['rate']:.1%} | {lo:.1%}–{hi:.1%} | "
                     f"{r['wins']} / {r['ties']} / {r['losses']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="greedy vs random games per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--matchups", type=int, default=0, help="greedy-vs-greedy games per faction pair")
    parser.add_argument("--markdown", action="store_true", help="also print the matchup table as Markdown")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = registry.get("fate-of-akalon")
    for players in args.players:
        start = time.perf_counter()
        result = win_rate(game, "greedy", "random", players, args.games, {}, seed=args.seed)
        result.update(seconds=round(time.perf_counter() - start, 1))
        print(json.dumps(result), flush=True)
    if args.matchups:
        start = time.perf_counter()
        table = matchup_table(game, args.matchups, seed=args.seed)
        table.update(seconds=round(time.perf_counter() - start, 1))
        print(json.dumps(table), flush=True)
        if args.markdown:
            print(markdown(table), flush=True)


if __name__ == "__main__":
    main()
