"""Arkon search tuning: matches like ``bench.eval_bots`` with the game's ``search`` parameters
overridden, one JSON line per match on stderr as it ends (to spot long matches early).

    python -m bench.tuning.search_arkon_tune --params '{"playout_steps": 2, "iterations": 150}' --games 20
    [--players 2] [--seed 0] [--villain greedy]

Prints a summary line (win rate, Wilson interval, CPU seconds per hero decision, the parameters
tried). The published numbers come from ``bench.eval_bots`` with the committed ``Arkon.search``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial

from bench import eval_bots
from bench.eval_bots import one_match, wilson
from shared.bots.arena import play_match
from shared.engine import registry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--params", type=json.loads, default={})
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--villain", default="greedy")
    parser.add_argument("--max-steps", type=int, default=2000, help="a match without outcome by then is locked up")
    args = parser.parse_args()
    game = registry.get("arkon")
    eval_bots.play_match = partial(play_match, max_steps=args.max_steps)
    type(game).search = {**(getattr(game, "search", None) or {}), **args.params}
    wins = decisions = 0
    hero_s = 0.0
    for i in range(args.games):
        start = time.process_time()
        try:
            r = one_match(("arkon", "search", args.villain, args.players, {}, args.seed, i, {}))
        except RuntimeError as e:  # no outcome within the arena's step cap: a locked-up match
            print(json.dumps({"match": i, "error": str(e)}), file=sys.stderr, flush=True)
            continue
        wins += r["win"]
        decisions += r["hero_decisions"]
        hero_s += r["hero_s"]
        print(json.dumps({"match": i, **r, "cpu_s": round(time.process_time() - start, 1)}),
              file=sys.stderr, flush=True)
    lo, hi = wilson(wins, args.games)
    print(json.dumps({
        "players": args.players, "villain": args.villain, "games": args.games, "seed": args.seed,
        "wins": wins, "ci95": [round(lo, 3), round(hi, 3)],
        "hero_s_per_decision": round(hero_s / max(1, decisions), 4), "params": type(game).search,
    }), flush=True)


if __name__ == "__main__":
    main()
