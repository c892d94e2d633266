"""Greedy against random in Fellowships of Fate, seat-rotated, for every player count.

Prints one JSON line per player count (shared.bots.arena.win_rate). Usage:
python bench/eval_fellowships_of_fate.py [--games N] [--players 2 3 4 5]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.bots.arena import win_rate  # noqa: E402
from shared.engine import registry  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = registry.get("fellowships-of-fate")
    for players in args.players:
        start = time.perf_counter()
        result = win_rate(game, "greedy", "random", players, args.games, seed=args.seed)
        result["seconds"] = round(time.perf_counter() - start, 1)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
