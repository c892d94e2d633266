"""Battlefields of Olympus: search against greedy for several search settings, same seeds.

Each config (a JSON object) overrides the game's ``search`` parameters for one seat-rotated run of
``bench.eval_bots``;
one JSON line per config. For tuning, not a published number.

    python -m bench.tuning.search_boo_sweep --games 16 '{"playout_steps": 0, "scale": 2}' '{"playout_steps": 8}'
"""
from __future__ import annotations

import argparse
import json

from bench.eval_bots import evaluate
from shared.engine import registry

GAME = "battlefields-of-olympus"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("configs", nargs="+", type=json.loads)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int)
    args = parser.parse_args()
    cls = type(registry.get(GAME))
    base = dict(cls.search)
    for config in args.configs:
        cls.search = {**base, **config}
        row = evaluate(GAME, "search", "greedy", 2, args.games, seed=args.seed, iterations=args.iterations)
        print(json.dumps({"config": config, **row}), flush=True)


if __name__ == "__main__":
    main()
