"""Random self-play speed of the Battlefields of Olympus engine: legal_moves + decide + evolve.

Prints one JSON line: {"game", "games", "moves", "seconds", "moves_per_second"}.
Usage: python bench/selfplay_battlefields_of_olympus.py [games]
"""
from __future__ import annotations

import json
import sys
import time

from shared.rng import FastRng, SeededRng
from shared.games.battlefields_of_olympus import GAME


def selfplay(games: int) -> dict:
    moves = 0
    start = time.perf_counter()
    for seed in range(games):
        state = GAME.fold(GAME.setup(2, GAME.validate_options(2, {}), SeededRng(f"bench-{seed}".encode(), "setup")))
        rng = FastRng(seed)
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_moves(state, seat)
            for event in GAME.decide(state, seat, legal[rng.randbelow(len(legal))], rng):
                state = GAME.evolve(state, event)
            moves += 1
    seconds = time.perf_counter() - start
    return {"game": GAME.id, "games": games, "moves": moves, "seconds": round(seconds, 3),
            "moves_per_second": round(moves / seconds, 1)}


if __name__ == "__main__":
    print(json.dumps(selfplay(int(sys.argv[1]) if len(sys.argv) > 1 else 50)))
