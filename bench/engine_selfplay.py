"""Engine speed: random self-play moves per second, per game and player count, median of several
runs: the simulation path search bots use (``legal_moves`` + ``advance`` in place; goal 20k
moves/s for every game) beside the contract's pure path (``legal_moves`` + ``decide`` + ``evolve``
per event, what a live match does) in the same run.

``python -m bench.engine_selfplay [--seconds=N] [--runs=N] [--game=ID] [--options='{"roles": true}']``"""
from __future__ import annotations

import json
import sys
import time

from shared.engine import registry
from shared.rng import FastRng, SeededRng

from .common import argv_int, emit, median


def selfplay(game, players: int, seconds: float, seed: int, *, pure: bool = True,
             options: dict | None = None) -> tuple[int, float, int]:
    """(moves, elapsed, games) of random self-play for about ``seconds``.

    ``pure``: ``decide`` and fold each event with the contract's pure ``evolve`` (a copy per
    event); otherwise ``advance`` the one state in place (what a simulation does)."""
    rng = FastRng(seed)
    moves = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        opts = game.validate_options(players, options or {})
        state = game.fold(game.setup(players, opts, SeededRng(b"bench", f"{seed}-{games}")))
        while game.outcome(state) is None and time.perf_counter() - t0 < seconds:
            acting = game.to_act(state)
            seat = acting[rng.randbelow(len(acting))]
            legal = game.legal_moves(state, seat)
            move = legal[rng.randbelow(len(legal))]
            if pure:
                for ev in game.decide(state, seat, move, rng):
                    state = game.evolve(state, ev)
            else:
                game.advance(state, seat, move, rng)
            moves += 1
        games += 1
    return moves, time.perf_counter() - t0, games


def main() -> None:
    seconds = argv_int("seconds", 3)
    runs = argv_int("runs", 3)
    args = sys.argv[1:]
    only = [a.split("=", 1)[1] for a in args if a.startswith("--game=")]
    options = next((json.loads(a.split("=", 1)[1]) for a in args if a.startswith("--options=")), {})
    for game in registry.all_games():
        if game.id == "duel" or (only and game.id not in only):
            continue
        for players in range(game.min_players, game.max_players + 1):
            rates, baseline = [], []
            for run in range(runs):
                moves, elapsed, _ = selfplay(game, players, seconds, run, pure=False, options=options)
                rates.append(moves / elapsed)
                moves, elapsed, _ = selfplay(game, players, seconds, run, options=options)
                baseline.append(moves / elapsed)
            emit(bench="engine_selfplay", game=game.id, players=players, options=options,
                 advance_moves_per_s=round(median(rates), 1), pure_moves_per_s=round(median(baseline), 1),
                 ratio=round(median(rates) / median(baseline), 3), runs=runs, seconds_per_run=seconds)


if __name__ == "__main__":
    main()
