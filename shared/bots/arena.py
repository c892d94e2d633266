"""Play whole matches in-process between bot policies (evaluation scripts, benchmarks).

Every policy decides from its seat's view and legal moves only, exactly as over HTTP.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.game import Game
from ..engine.outcome import Outcome
from ..rng import FastRng, SeededRng
from .policies import POLICIES


@dataclass
class MatchRecord:
    outcome: Outcome
    steps: int
    state: dict


def play_match(game: Game, levels: list[str], options: dict | None = None, *, seed: int = 0, max_steps: int = 20_000) -> MatchRecord:
    """A full match with ``levels[s]`` playing seat s; returns the outcome and length."""
    players = len(levels)
    opts = game.validate_options(players, options or {})
    state = game.fold(game.setup(players, opts, SeededRng(f"arena-{seed}".encode(), "setup")))
    rng = FastRng(seed)
    steps = 0
    while (result := game.outcome(state)) is None:
        if steps >= max_steps:
            raise RuntimeError(f"{game.id}: no outcome after {max_steps} steps (seed {seed})")
        acting = game.to_act(state)
        seat = acting[rng.randbelow(len(acting))]
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        move = POLICIES[levels[seat]](game, view, seat, legal, rng)
        state = game.fold(game.decide(state, seat, move, rng), state)
        steps += 1
    return MatchRecord(outcome=result, steps=steps, state=state)


def win_rate(game: Game, hero: str, villain: str, players: int, games: int, options: dict | None = None, *, seed: int = 0) -> dict:
    """``hero`` in one seat rotating through all seats, ``villain`` in the others.

    A win is rank 1 (shared wins count as wins); ``fair_share`` is what an equal player would
    win (one over the number of sides: teams in team games). Returns rates and mean length.
    """
    wins = 0
    steps = 0
    sides = players
    for i in range(games):
        hero_seat = i % players
        levels = [villain] * players
        levels[hero_seat] = hero
        rec = play_match(game, levels, options, seed=seed + i)
        wins += rec.outcome.ranks[hero_seat] == 1
        steps += rec.steps
        sides = len(rec.outcome.teams) if rec.outcome.teams else players
    return {
        "game": game.id, "players": players, "hero": hero, "villain": villain, "games": games,
        "hero_win_rate": wins / games, "fair_share": 1 / sides, "mean_steps": steps / games,
    }
