"""Play whole matches in-process between bot policies (evaluation scripts, benchmarks).

Every policy decides from its seat's view and legal moves only, exactly as over HTTP. A seat's
player is a level name (``POLICIES``) or any policy callable (a level with its own budget).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..engine.game import Game
from ..engine.outcome import Outcome
from ..rng import FastRng, SeededRng
from .policies import POLICIES, Policy

Player = str | Policy


@dataclass
class MatchRecord:
    outcome: Outcome | None  # None: aborted without a result (``abort_after_max_steps``)
    steps: int
    state: dict
    thinking_s: list[float] = field(default_factory=list)  # per seat
    decisions: list[int] = field(default_factory=list)  # per seat


def _policy(player: Player) -> Policy:
    return POLICIES[player] if isinstance(player, str) else player


def play_match(game: Game, levels: Sequence[Player], options: dict | None = None, *, seed: int = 0,
               max_steps: int = 20_000, abort_after_max_steps: bool = False) -> MatchRecord:
    """A full match with ``levels[s]`` playing seat s; returns the outcome, length and thinking time.

    A match still going after ``max_steps`` raises, or with ``abort_after_max_steps`` ends without
    an outcome, as the server aborts a match at ``MAX_MATCH_EVENTS`` (and scoring rates nothing)."""
    players = len(levels)
    policies = [_policy(p) for p in levels]
    opts = game.validate_options(players, options or {})
    state = game.fold(game.setup(players, opts, SeededRng(f"arena-{seed}".encode(), "setup")))
    rng = FastRng(seed)
    thinking, decisions = [0.0] * players, [0] * players
    steps = 0
    while (result := game.outcome(state)) is None:
        if steps >= max_steps:
            if abort_after_max_steps:
                return MatchRecord(outcome=None, steps=steps, state=state, thinking_s=thinking, decisions=decisions)
            raise RuntimeError(f"{game.id}: no outcome after {max_steps} steps (seed {seed})")
        acting = game.to_act(state)
        seat = acting[rng.randbelow(len(acting))]
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        start = time.process_time()
        move = policies[seat](game, view, seat, legal, rng)
        thinking[seat] += time.process_time() - start
        decisions[seat] += 1
        if move not in legal:
            raise RuntimeError(f"{game.id}: seat {seat}'s policy chose an unlisted move {move!r}")
        game.advance(state, seat, move, rng)
        steps += 1
    return MatchRecord(outcome=result, steps=steps, state=state, thinking_s=thinking, decisions=decisions)


def win_rate(game: Game, hero: Player, villain: Player, players: int, games: int, options: dict | None = None,
             *, seed: int = 0, on_match: Callable[[int, MatchRecord, int], None] | None = None) -> dict:
    """``hero`` in one seat rotating through all seats, ``villain`` in the others.

    A win is rank 1 (shared wins count as wins); ``fair_share`` is what an equal player would
    win (one over the number of sides: teams in team games). Returns rates and mean length;
    ``on_match(i, record, hero_seat)`` sees each match as it ends."""
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
        if on_match:
            on_match(i, rec, hero_seat)
    return {
        "game": game.id, "players": players, "hero": hero if isinstance(hero, str) else getattr(hero, "name", "hero"),
        "villain": villain if isinstance(villain, str) else getattr(villain, "name", "villain"), "games": games,
        "hero_win_rate": wins / games, "fair_share": 1 / sides, "mean_steps": steps / games,
    }
