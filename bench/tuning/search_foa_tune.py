"""Fate of Akalon search tuning: the same seeded search-vs-greedy matches under several
``search`` parameter sets (paired: every set plays the same seeds), one JSON line per set.

    python -m bench.tuning.search_foa_tune --players 3 --games 16 --iterations 200 \
        --configs '[{}, {"playout_steps": 6, "scale": 5}]'
"""
from __future__ import annotations

import argparse
import json

from bench.eval_bots import evaluate
from shared.engine import Game, registry

GAME = "fate-of-akalon"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--configs", type=json.loads, default=[{}])
    args = parser.parse_args()
    cls = type(registry.get(GAME))
    tuned = dict(getattr(cls, "search", None) or {})
    own_playout = cls.playout_move
    for config in args.configs:
        config = dict(config)
        # "playout": "random" measures the engine's default (uniform) playout instead of the game's
        cls.playout_move = Game.playout_move if config.pop("playout", None) == "random" else own_playout
        cls.search = {**tuned, **config}
        row = evaluate(GAME, "search", "greedy", args.players, args.games, seed=args.seed,
                       iterations=args.iterations)
        label = {**cls.search, "playout": "random" if cls.playout_move is Game.playout_move else "game"}
        print(json.dumps({"config": label, **row}), flush=True)
    cls.search, cls.playout_move = tuned, own_playout


if __name__ == "__main__":
    main()
