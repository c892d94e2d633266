"""Arkon random self-play throughput: legal_moves + decide + evolve per second (one JSON line)."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as `python bench/<this file>`

from shared.engine import registry  # noqa: E402
from shared.rng import FastRng, SeededRng  # noqa: E402


def run(players: int, games: int, options: dict, seed: int = 0) -> dict:
    game = registry.get("arkon")
    opts = game.validate_options(players, options)
    moves = 0
    start = time.perf_counter()
    for g in range(games):
        state = game.fold(game.setup(players, opts, SeededRng(f"selfplay-{seed + g}".encode(), "setup")))
        rng = FastRng(seed + g)
        while game.outcome(state) is None:
            acting = game.to_act(state)
            seat = acting[rng.randbelow(len(acting))]
            legal = game.legal_moves(state, seat)
            for event in game.decide(state, seat, legal[rng.randbelow(len(legal))], rng):
                state = game.evolve(state, event)
            moves += 1
    elapsed = time.perf_counter() - start
    return {"bench": "selfplay", "game": "arkon", "players": players, "options": opts, "games": games,
            "moves": moves, "seconds": round(elapsed, 3), "moves_per_second": round(moves / elapsed, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--promo", action="store_true")
    parser.add_argument("--roles", action="store_true")
    args = parser.parse_args()
    print(json.dumps(run(args.players, args.games, {"promo_cards": args.promo, "roles": args.roles})))


if __name__ == "__main__":
    main()
