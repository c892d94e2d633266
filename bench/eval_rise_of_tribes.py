"""Rise of Tribes: greedy's win rate against random (seat-rotated) and the mean game length.

Prints one JSON line per player count (and option set). Usage:
    python bench/eval_rise_of_tribes.py [--games 200] [--powers] [--baseline]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.bots.arena import play_match, win_rate  # noqa: E402
from shared.games.rise_of_tribes.game import RiseOfTribes  # noqa: E402


class _Measured(RiseOfTribes):
    """The game, noting each match's length in turns. The arena's last ``outcome`` call of a
    match is on its final state (the greedy bot's look-ahead calls come before it), so the
    last finished state seen before the next ``setup`` is the match's end."""

    def __init__(self):
        self.turns: list[int] = []
        self._last: int | None = None

    def outcome(self, state):
        result = super().outcome(state)
        if result is not None:
            self._last = state["turn"]["number"]
        return result

    def setup(self, players, options, rng):
        self.flush()
        return super().setup(players, options, rng)

    def flush(self) -> None:
        if self._last is not None:
            self.turns.append(self._last)
            self._last = None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--powers", action="store_true", help="Tribal Powers variant")
    parser.add_argument("--baseline", action="store_true", help="also the length of random-only games")
    args = parser.parse_args()
    options = {"tribal_powers": args.powers}
    for players in args.players:
        game = _Measured()
        started = time.perf_counter()
        row = win_rate(game, "greedy", "random", players, args.games, options, seed=1000 * players)
        row["options"] = options
        game.flush()
        row["mean_turns"] = round(sum(game.turns) / len(game.turns), 1)
        row["seconds"] = round(time.perf_counter() - started, 1)
        print(json.dumps(row), flush=True)
        if args.baseline:
            turns = [play_match(game, ["random"] * players, options, seed=50_000 + i).state["turn"]["number"]
                     for i in range(args.games)]
            print(json.dumps({"game": game.id, "players": players, "baseline": "random vs random",
                              "games": args.games, "options": options,
                              "mean_turns": round(sum(turns) / len(turns), 1)}), flush=True)


if __name__ == "__main__":
    main()
