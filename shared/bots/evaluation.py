"""How a bot scores a simulated state, and the one-ply choice built on it (the ``greedy`` level,
and the opponent model a search may use)."""
from __future__ import annotations

from ..engine.game import Game
from ..rng import FastRng

WIN_BONUS = 1_000.0


def evaluate(game: Game, state: dict, seat: int) -> float:
    """A finished game by ``seat``'s rank (a shared win is split), else the game's heuristic."""
    result = game.outcome(state)
    if result is not None:
        best = min(result.ranks)
        if result.ranks[seat] == best:
            return WIN_BONUS / max(1, result.ranks.count(best))
        return -WIN_BONUS * result.ranks[seat]
    return game.heuristic(state, seat)


def one_ply(game: Game, worlds: list[dict], seat: int, moves: list[dict], rng: FastRng) -> dict:
    """The move whose result scores best for ``seat`` summed over ``worlds`` (ties at random).

    The worlds are left untouched: each move is played on a copy."""
    best, best_score = [], float("-inf")
    for move in moves:
        total = 0.0
        for world in worlds:
            after = game.copy_state(world)
            game.advance(after, seat, move, rng)
            total += evaluate(game, after, seat)
        if total > best_score:
            best, best_score = [move], total
        elif total == best_score:
            best.append(move)
    return best[rng.randbelow(len(best))] if best else moves[rng.randbelow(len(moves))]
