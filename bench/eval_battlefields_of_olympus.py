"""Greedy against random in Battlefields of Olympus, seat-rotated (shared.bots.arena.win_rate).

Prints one JSON line per pairing (greedy vs random, random vs random, greedy vs greedy), then
how greedy-vs-greedy games end (the 6th Ares, 16 points, or no Fate cards and no Lands left).
Usage: python bench/eval_battlefields_of_olympus.py [games] (default 200; the rules make it a
2-player game only).
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as `python bench/<this file>`

from shared.bots.arena import play_match, win_rate
from shared.games.battlefields_of_olympus import GAME


def main(games: int) -> None:
    for hero, villain in (("greedy", "random"), ("random", "random"), ("greedy", "greedy")):
        start = time.perf_counter()
        result = win_rate(GAME, hero, villain, 2, games, seed=1000)
        result["seconds"] = round(time.perf_counter() - start, 1)
        print(json.dumps(result), flush=True)
    print(json.dumps({"game": GAME.id, "greedy_vs_greedy_end_reasons": end_reasons(games, seed=1000)}), flush=True)


def end_reasons(games: int, *, seed: int) -> dict:
    """How many greedy-vs-greedy games end for each reason (the same seeds as ``win_rate``)."""
    reasons = Counter(play_match(GAME, ["greedy", "greedy"], seed=seed + i).outcome.details["reason"]
                      for i in range(games))
    return dict(reasons.most_common())


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
