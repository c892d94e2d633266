"""Bot strength: one level (the hero) against another (the villain), seat-rotated.

Prints one JSON line per player count: the hero's win rate with its 95% Wilson interval, the fair
share (one over the number of sides), the margin over it, the hero's mean thinking time per
decision (CPU seconds) and the mean match length. Matches are seeded, so a run is reproducible
when the search budget is a number of iterations (``--iterations``), not seconds. A line that
involves the search level records its whole ``search`` parameters (the game's tuning with
``--iterations``/``--seconds``/``--search`` applied), which is how ``shared.bots.levels`` tells
the record of the level as offered from a tuning run.

    python -m bench.eval_bots --game arkon --hero search --villain greedy --players 2 --games 100
    [--iterations N | --seconds S] [--search '{"opponents": "tree"}'] [--options '{"promo_cards": ["savin"]}']
    [--jobs 2] [--markdown]
"""
from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import asdict
from functools import partial
from multiprocessing import Pool

from shared.bots.arena import play_match
from shared.bots.ismcts import SearchParams
from shared.bots.policies import POLICIES, search_policy
from shared.engine import registry


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def player(level: str, search: dict):
    if level == "search" and search:
        return partial(search_policy, **search)
    return POLICIES[level]


def one_match(args: tuple) -> dict:
    game_id, hero, villain, players, options, seed, i, search = args
    game = registry.get(game_id)
    hero_seat = i % players
    levels = [player(villain, search)] * players
    levels[hero_seat] = player(hero, search)
    rec = play_match(game, levels, options, seed=seed + i, abort_after_max_steps=True)
    return {
        "win": rec.outcome is not None and rec.outcome.ranks[hero_seat] == 1,
        "aborted": rec.outcome is None,
        "sides": len(game.sides(rec.state)),
        "steps": rec.steps,
        "hero_s": rec.thinking_s[hero_seat], "hero_decisions": rec.decisions[hero_seat],
    }


def evaluate(game_id: str, hero: str, villain: str, players: int, games: int, *, options=None, seed=0,
             iterations=None, seconds=None, search=None, jobs=1) -> dict:
    """``search`` overrides the game's tuned search parameters (as ``iterations``/``seconds`` do)."""
    overrides = {**(search or {}), "iterations": iterations, "seconds": seconds}
    overrides = {k: v for k, v in overrides.items() if v is not None}
    tasks = [(game_id, hero, villain, players, options or {}, seed, i, overrides) for i in range(games)]
    start = time.perf_counter()
    if jobs > 1:
        with Pool(jobs) as pool:
            results = pool.map(one_match, tasks, chunksize=1)
    else:
        results = [one_match(t) for t in tasks]
    wins = sum(r["win"] for r in results)
    lo, hi = wilson(wins, games)
    fair = 1 / results[0]["sides"]
    decisions = sum(r["hero_decisions"] for r in results)
    searched = "search" in (hero, villain)
    return {
        "bench": "eval_bots", "game": game_id, "players": players, "hero": hero, "villain": villain,
        "options": options or {}, "iterations": iterations, "seconds": seconds, "games": games, "seed": seed,
        "search": asdict(SearchParams.for_game(registry.get(game_id), **overrides)) if searched else None,
        "hero_win_rate": round(wins / games, 3), "ci95": [round(lo, 3), round(hi, 3)],
        "fair_share": round(fair, 3), "margin_pts": round(100 * (wins / games - fair), 1),
        "aborted": sum(r["aborted"] for r in results),  # no result after 20,000 steps: not a win
        "hero_s_per_decision": round(sum(r["hero_s"] for r in results) / max(1, decisions), 4),
        "mean_steps": round(sum(r["steps"] for r in results) / games, 1),
        "wall_s": round(time.perf_counter() - start, 1),
    }


def markdown(rows: list[dict]) -> str:
    out = ["| players | hero | villain | budget | games | hero wins | 95% CI | fair share | s/decision |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        budget = f"{r['iterations']} it" if r["iterations"] else (f"{r['seconds']} s" if r["seconds"] else "tuned")
        out.append(f"| {r['players']} | {r['hero']} | {r['villain']} | {budget} | {r['games']} | "
                   f"{100 * r['hero_win_rate']:.1f}% | {100 * r['ci95'][0]:.1f}–{100 * r['ci95'][1]:.1f}% | "
                   f"{100 * r['fair_share']:.0f}% | {r['hero_s_per_decision']:.3f} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, choices=[g.id for g in registry.all_games()])
    parser.add_argument("--hero", default="search", choices=sorted(POLICIES))
    parser.add_argument("--villain", default="greedy", choices=sorted(POLICIES))
    parser.add_argument("--players", type=int, nargs="*")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--options", type=json.loads, default={})
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--search", type=json.loads, default={},
                        help="search parameters over the game's tuning, e.g. '{\"opponents\": \"tree\"}'")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    game = registry.get(args.game)
    rows = []
    for players in args.players or range(game.min_players, game.max_players + 1):
        row = evaluate(args.game, args.hero, args.villain, players, args.games, options=args.options,
                       seed=args.seed, iterations=args.iterations, seconds=args.seconds, search=args.search,
                       jobs=args.jobs)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.markdown:
        print(markdown(rows))


if __name__ == "__main__":
    main()
