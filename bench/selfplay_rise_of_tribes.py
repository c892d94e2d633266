"""Rise of Tribes engine speed: random self-play moves per second (legal_moves + decide + evolve).

Prints one JSON line. Usage: python bench/selfplay_rise_of_tribes.py [--seconds 10] [--players 3]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.engine import registry  # noqa: E402
from shared.rng import FastRng  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--powers", action="store_true")
    args = parser.parse_args()
    game = registry.get("rise-of-tribes")
    opts = game.validate_options(args.players, {"tribal_powers": args.powers})
    rng = FastRng(0)
    moves = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < args.seconds:
        state = game.fold(game.setup(args.players, opts, rng))
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            legal = game.legal_moves(state, seat)
            events = game.decide(state, seat, legal[rng.randbelow(len(legal))], rng)
            for ev in events:
                state = game.evolve(state, ev)
            moves += 1
        games += 1
    elapsed = time.perf_counter() - started
    print(json.dumps({"game": game.id, "players": args.players, "options": opts, "games": games,
                      "moves": moves, "seconds": round(elapsed, 2),
                      "moves_per_second": round(moves / elapsed, 1)}))


if __name__ == "__main__":
    main()
