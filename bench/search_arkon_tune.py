"""Arkon search tuning: ``bench.eval_bots`` with the game's ``search`` parameters overridden.

    python -m bench.search_arkon_tune --params '{"playout_steps": 2, "iterations": 150}' --games 20
    [--players 2] [--seed 0] [--villain greedy]

Prints the ``eval_bots`` JSON line with the parameters tried added (``params``); the published
numbers come from ``bench.eval_bots`` itself with the parameters committed in ``Arkon.search``.
"""
from __future__ import annotations

import argparse
import json

from bench.eval_bots import evaluate
from shared.engine import registry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--params", type=json.loads, default={})
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--villain", default="greedy")
    args = parser.parse_args()
    game = registry.get("arkon")
    type(game).search = {**(getattr(game, "search", None) or {}), **args.params}
    row = evaluate("arkon", "search", args.villain, args.players, args.games, seed=args.seed)
    print(json.dumps({**row, "params": type(game).search}), flush=True)


if __name__ == "__main__":
    main()
