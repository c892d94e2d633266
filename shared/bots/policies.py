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
from .evaluation import one_ply
from .ismcts import SearchParams, ismcts


def random_policy(game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng) -> dict:
    return legal[rng.randbelow(len(legal))]


def greedy_policy(
    game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng, *, samples: int = 2
) -> dict:
    if len(legal) == 1:
        return legal[0]
    # a seat's legal moves are the same in every world (conformance)
    return one_ply(game, [game.determinize(view, seat, rng) for _ in range(samples)], seat, legal, rng)


def search_policy(
    game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng,
    *, iterations: int | None = None, seconds: float | None = None, **overrides,
) -> dict:
    """ISMCTS with the game's tuned parameters; ``iterations``/``seconds`` override its budget,
    and any other ``SearchParams`` field given overrides that field."""
    if len(legal) == 1:
        return legal[0]
    params = SearchParams.for_game(game, iterations=iterations, seconds=seconds, **overrides)
    return ismcts(game, view, seat, legal, rng, params)


Policy = Callable[[Game, dict, int, list, FastRng], dict]

POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy,
    "search": search_policy,
}


def choose_move(level: str, game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng) -> dict:
    return POLICIES[level](game, view, seat, legal, rng)
