"""Calibrate the leaderboard's bot ratings: matches between the bot levels, rated by the scoring
service's own rules (``services.scoring.ratings``: standings, openskill Plackett-Luce, one rating
per ``bot:<level>``), until the leaderboard orders the levels as their strength does.

Plays the pairs (random, greedy), (greedy, search), (random, search) in turn, seat-rotated and
seeded, at two players. Prints one JSON line per game: the matches played, the leaderboard order
at the end (weakest first, by the public rating mu - 3 sigma), from which match on the order was
random < greedy < search and stayed so (``order_holds_from``, null if it never settled), and the
ratings. A match with no result after 20,000 steps is aborted and, as by the scoring service, not
rated (``aborted``; ``--max-steps`` lowers the limit for games whose weaker levels can stall).
The line records the search parameters it played. ``--record`` appends it to
``shared/bots/strength/<game>.jsonl``; ``GET /v1/games`` shows the last one.

    python -m bench.calibrate_levels [--game arkon] [--matches 30] [--jobs 2] [--record]
"""
from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from multiprocessing import Pool

from services.scoring.ratings import Rating, rate, standings
from shared.bots.arena import play_match
from shared.bots.ismcts import SearchParams
from shared.bots.levels import DATA, LEVELS
from shared.engine import registry

PAIRS = (("random", "greedy"), ("greedy", "search"), ("random", "search"))


def schedule(matches: int) -> list[tuple[int, list[str]]]:
    """(seed, levels by seat) for each match: the pairs in turn, seats swapped every other round."""
    out = []
    for i in range(matches):
        a, b = PAIRS[i % len(PAIRS)]
        out.append((i, [a, b] if (i // len(PAIRS)) % 2 == 0 else [b, a]))
    return out


def one(args) -> dict:
    game_id, seed, levels, max_steps = args
    rec = play_match(registry.get(game_id), levels, seed=10_000 + seed, max_steps=max_steps,
                     abort_after_max_steps=True)
    if rec.outcome is None:  # aborted: the scoring service rates only finished matches
        return {"status": "aborted", "seats": [{"bot": level} for level in levels]}
    return {"status": "finished", "outcome": rec.outcome.to_json(), "seats": [{"bot": level} for level in levels]}


def calibrate(game_id: str, matches: int, jobs: int = 1, max_steps: int = 20_000) -> dict:
    tasks = [(game_id, seed, levels, max_steps) for seed, levels in schedule(matches)]
    if jobs > 1:
        with Pool(jobs) as pool:
            finished = pool.map(one, tasks, chunksize=1)
        finished = list(finished)
    else:
        finished = [one(t) for t in tasks]
    ratings = {f"bot:{level}": Rating.fresh() for level in LEVELS}
    holds_from = None
    aborted = 0
    for n, message in enumerate(finished, start=1):
        if message["status"] != "finished":
            aborted += 1
            continue
        ratings.update(rate(message, standings(message), ratings))
        values = [ratings[f"bot:{level}"].value for level in LEVELS]
        in_order = values == sorted(values) and len(set(values)) == len(values)
        holds_from = (holds_from or n) if in_order else None
    order = sorted(LEVELS, key=lambda level: ratings[f"bot:{level}"].value)
    return {
        "bench": "calibrate_levels", "game": game_id, "players": 2, "matches": matches, "aborted": aborted,
        "search": asdict(SearchParams.for_game(registry.get(game_id))),
        "order": order,
        "order_holds_from": holds_from,
        "ratings": {level: {**ratings[f"bot:{level}"].to_json(), "rating": ratings[f"bot:{level}"].value}
                    for level in LEVELS},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=[g.id for g in registry.all_games()])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--max-steps", type=int, default=20_000,
                        help="abort a match with no result after this many moves (the server: MAX_MATCH_EVENTS)")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args()
    for game_id in args.game or [g.id for g in registry.all_games() if g.id != "duel"]:
        row = calibrate(game_id, args.matches, args.jobs, args.max_steps)
        print(json.dumps(row), flush=True)
        if args.record:
            with (DATA / f"{game_id}.jsonl").open("a") as f:
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
