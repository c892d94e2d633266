"""Random self-play speed of the Fate of Akalon engine: legal_moves + decide + evolve per move.

Prints one JSON line: {"game", "players", "games", "moves", "events_per_move", "seconds",
"moves_per_second", "moves_per_cpu_second"} (CPU time is the fairer figure on a shared machine).
Usage: python bench/selfplay_fate_of_akalon.py [--games N] [--players P]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.games.fate_of_akalon import GAME  # noqa: E402
from shared.rng import FastRng  # noqa: E402


def selfplay(games: int, players: int, seed: int = 0) -> dict:
    moves = events = 0
    start, cpu = time.perf_counter(), time.process_time()
    for g in range(games):
        rng = FastRng(seed + g)
        state = GAME.fold(GAME.setup(players, GAME.validate_options(players, {}), rng))
        while GAME.outcome(state) is None:
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_moves(state, seat)
            move = legal[rng.randbelow(len(legal))]
            for ev in GAME.decide(state, seat, move, rng):
                state = GAME.evolve(state, ev)
                events += 1
            moves += 1
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"bench": "selfplay", "game": GAME.id, "players": players, "games": games, "moves": moves,
            "events_per_move": round(events / moves, 2), "seconds": round(seconds, 3),
            "moves_per_second": round(moves / seconds, 1), "moves_per_cpu_second": round(moves / cpu, 1)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args()
    print(json.dumps(selfplay(args.games, args.players)))


if __name__ == "__main__":
    main()
