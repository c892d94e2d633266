"""Rise of Tribes: search against greedy under trial ``search`` parameters (tuning aid).

Sets ``RiseOfTribes.search`` from the command line, then runs ``bench.eval_bots.evaluate`` in this
process and prints its JSON line with the parameters tried. Usage:

    python -m bench.tuning.search_rot_tune --players 2 --games 20 --iterations 100 \
        [--playout-steps 4] [--c 0.7] [--scale 4] [--seed 1000]
"""
from __future__ import annotations

import argparse
import json

from bench.eval_bots import evaluate
from shared.games.rise_of_tribes.game import RiseOfTribes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--villain", default="greedy")
    parser.add_argument("--iterations", type=int)
    parser.add_argument("--playout-steps", type=int)
    parser.add_argument("--c", type=float)
    parser.add_argument("--scale", type=float)
    args = parser.parse_args()
    tried = {k: v for k, v in {"iterations": args.iterations, "playout_steps": args.playout_steps,
                               "c": args.c, "scale": args.scale}.items() if v is not None}
    RiseOfTribes.search = {**(getattr(RiseOfTribes, "search", None) or {}), **tried}
    row = evaluate(RiseOfTribes.id, "search", args.villain, args.players, args.games, seed=args.seed)
    print(json.dumps({**row, "params": RiseOfTribes.search}), flush=True)


if __name__ == "__main__":
    main()
