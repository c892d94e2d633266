"""Greedy against random in Battlefields of Olympus, seat-rotated (shared.bots.arena.win_rate).

Prints one JSON line per pairing. Usage: python bench/eval_battlefields_of_olympus.py [games]
(default 200; the rules make it a 2-player game only).
"""
from __future__ import annotations

import json
import sys
import time

from shared.bots.arena import win_rate
from shared.games.battlefields_of_olympus import GAME


def main(games: int) -> None:
    for hero, villain in (("greedy", "random"), ("random", "random")):
        start = time.perf_counter()
        result = win_rate(GAME, hero, villain, 2, games, seed=1000)
        result["seconds"] = round(time.perf_counter() - start, 1)
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
