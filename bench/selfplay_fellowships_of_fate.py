"""Random self-play speed of the Fellowships of Fate engine: legal_moves + decide + evolve per move.

Prints one JSON line. Usage: python bench/selfplay_fellowships_of_fate.py [--seconds S] [--players N]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.engine import registry  # noqa: E402
from shared.rng import FastRng, SeededRng  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    game = registry.get("fellowships-of-fate")
    opts = game.validate_options(args.players, {})
    rng = FastRng(1)
    moves = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        state = game.fold(game.setup(args.players, opts, SeededRng(b"bench%d" % games, "setup")))
        while game.outcome(state) is None:
            acting = game.to_act(state)
            seat = acting[rng.randbelow(len(acting))]
            legal = game.legal_moves(state, seat)
            for event in game.decide(state, seat, legal[rng.randbelow(len(legal))], rng):
                game.apply(state, event)
            moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    print(json.dumps({"game": game.id, "players": args.players, "games": games, "moves": moves,
                      "seconds": round(elapsed, 2), "moves_per_second": round(moves / elapsed, 1),
                      "games_per_second": round(games / elapsed, 2)}))


if __name__ == "__main__":
    main()
