"""Bot levels, each a pure function of what a seat may know: its view and its legal moves.

* ``random`` — a uniformly random legal move.
* ``greedy`` — one ply: for each legal move, apply it to a few determinized states built from
  the view and score the result with the game's ``heuristic``; best average wins.
* ``search`` — information-set Monte Carlo tree search (``ismcts``) over determinized states.

A bot never sees more than a human in its seat: everything starts from ``view``.
"""
from __future__ import annotations

from typing import Callable

from ..engine.game import Game
from ..rng import FastRng
from .ismcts import SearchParams, ismcts

WIN_BONUS = 1_000.0


def random_policy(game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng) -> dict:
    return legal[rng.randbelow(len(legal))]


def evaluate(game: Game, state: dict, seat: int) -> float:
    result = game.outcome(state)
    if result is not None:
        best = min(result.ranks)
        if result.ranks[seat] == best:
            return WIN_BONUS / max(1, result.ranks.count(best))
        return -WIN_BONUS * result.ranks[seat]
    return game.heuristic(state, seat)


def greedy_policy(
    game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng, *, samples: int = 2
) -> dict:
    if len(legal) == 1:
        return legal[0]
    worlds = [game.determinize(view, seat, rng) for _ in range(samples)]
    best, best_score = [], float("-inf")
    for move in legal:
        total = 0.0
        for world in worlds:  # a seat's legal moves are the same in every world (conformance)
            after = game.copy_state(world)
            game.advance(after, seat, move, rng)
            total += evaluate(game, after, seat)
        if total > best_score:
            best, best_score = [move], total
        elif total == best_score:
            best.append(move)
    return best[rng.randbelow(len(best))] if best else legal[rng.randbelow(len(legal))]


def search_policy(
    game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng,
    *, iterations: int | None = None, seconds: float | None = None,
) -> dict:
    """ISMCTS with the game's tuned parameters; ``iterations``/``seconds`` override its budget."""
    if len(legal) == 1:
        return legal[0]
    params = SearchParams.for_game(game, iterations=iterations, seconds=seconds)
    return ismcts(game, view, seat, legal, rng, params)


Policy = Callable[[Game, dict, int, list, FastRng], dict]

POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy,
    "search": search_policy,
}


def choose_move(level: str, game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng) -> dict:
    return POLICIES[level](game, view, seat, legal, rng)
