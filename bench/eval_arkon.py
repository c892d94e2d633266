"""Arkon bot evaluation: greedy vs random, seat-rotated, per player count (JSON lines)."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as `python bench/<this file>`

from shared.bots.arena import win_rate  # noqa: E402
from shared.engine import registry  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--promo", action="store_true", help="both promotional cards (Reinforcements, Savin)")
    parser.add_argument("--roles", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = registry.get("arkon")
    options = {"promo_cards": ["reinforcements", "savin"] if args.promo else [], "roles": args.roles}
    for players in args.players:
        start = time.perf_counter()
        result = win_rate(game, "greedy", "random", players, args.games, options, seed=args.seed)
        result.update(options=options, seconds=round(time.perf_counter() - start, 1))
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
