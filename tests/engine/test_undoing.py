"""Moves that only undo a step of a decision are marked, and "play the first legal move" always
finishes (issue 25: a bot account's flow; issue 23: no decision can be kept going for ever).

Today's engines offer no such move — every compound choice is one move, and
``tests/engine/test_decisions.py`` proves that no seat's moves return its decision to a state it
was in. Older released versions (Fellowships of Fate 1–2, Arkon 2–3) offer ``unpick``; the API
lists its positions in ``undoing``, so a client that leaves them out (``tabletop_client.playable``)
finishes those matches too, where the first legal move alone picks and unpicks for ever.
"""
from __future__ import annotations

import pytest

from shared.canonical import encode
from shared.engine import Game, registry
from shared.rng import SeededRng
from tabletop_client import playable

LIVE = sorted((g.id, players) for g in registry.installed() if not g.frozen
              for players in range(g.min_players, g.max_players + 1))
# Rise of Tribes ends only when a player reaches 15 points ("Winning", p. 9); a tribe that always
# takes its first option grows and moves but never gathers or builds, so it never scores and the
# match never ends — by the rulebook, not by undoing (a random playable move finishes it: the
# conformance playouts of tests/games/rise_of_tribes do).
ENDS_BY_FIRST_MOVES = [(g, p) for g, p in LIVE if g != "rise-of-tribes"]
OLD_WITH_UNPICK = [("fellowships-of-fate", "1"), ("fellowships-of-fate", "2"), ("arkon", "2"), ("arkon", "3")]
MAX_STEPS = 20_000


def start(game: Game, players: int, seed: int) -> dict:
    secret = f"undoing-{seed}".encode()
    opts = game.validate_options(players, {})
    return game.fold(game.setup(players, opts, SeededRng(secret, "setup")))


def first_move_playout(game: Game, players: int, *, skip_undoing: bool, seed: int = 0) -> tuple[dict, int, bool]:
    """Always the first acting seat, always its first legal move (less the undoing ones if asked),
    until the game ends, ``MAX_STEPS`` pass, or the state repeats: (state, steps, repeated)."""
    state, seen = start(game, players, seed), set()
    for step in range(MAX_STEPS):
        if game.outcome(state) is not None:
            return state, step, False
        key = encode(state)
        if key in seen:
            return state, step, True
        seen.add(key)
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        if skip_undoing:
            moves = playable({"moves": moves, "undoing": game.undoing(moves)})
        game.advance(state, seat, moves[0], SeededRng(f"undoing-{seed}".encode(), step))
    return state, MAX_STEPS, False


def test_no_current_engine_declares_a_move_that_only_undoes():
    assert all(not registry.get(g.id).undoing_moves for g in registry.installed() if not g.frozen)


@pytest.mark.parametrize("game_id, players", ENDS_BY_FIRST_MOVES, ids=[f"{g}-{p}p" for g, p in ENDS_BY_FIRST_MOVES])
def test_playing_the_first_legal_move_always_finishes_the_match(game_id, players):
    """What docs/api.md promises a bot writer: the first of ``moves`` at every turn ends the match."""
    game = registry.get(game_id)
    state, steps, repeated = first_move_playout(game, players, skip_undoing=False)
    assert not repeated, f"{game_id} {players}p: the first legal move returned the match to a state after {steps} moves"
    assert game.outcome(state) is not None, f"{game_id} {players}p: not over after {steps} first moves"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rise_of_tribes_first_moves_never_return_to_a_state_and_never_score(players):
    """The first legal move never undoes (no state repeats in 20,000 moves), and the match goes on
    only because nobody scores: the rulebook's one end (15 points) is never approached."""
    game = registry.get("rise-of-tribes")
    state, steps, repeated = first_move_playout(game, players, skip_undoing=False)
    assert not repeated and steps == MAX_STEPS
    assert max(seat["score"] for seat in state["seats"]) < 15 and game.outcome(state) is None


@pytest.mark.parametrize("game_id, version", OLD_WITH_UNPICK, ids=[f"{g}-{v}" for g, v in OLD_WITH_UNPICK])
def test_an_older_version_marks_unpick_as_undoing_and_the_first_other_move_finishes(game_id, version):
    game = registry.get(game_id, version)
    assert game.undoing_moves == {"unpick"}
    state, steps, repeated = first_move_playout(game, game.min_players, skip_undoing=True)
    assert not repeated and game.outcome(state) is not None, f"{game_id} {version}: not over after {steps}"


def test_the_undoing_positions_are_exactly_the_unpick_moves_of_a_formation_in_progress():
    """Fellowships of Fate 2: a member picked for the formation can be unpicked; that move, and only
    that one, is listed in ``undoing``."""
    game = registry.get("fellowships-of-fate", "2")
    state = start(game, 2, seed=1)
    for step in range(200):
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        marked = game.undoing(moves)
        if marked:
            assert marked == [i for i, m in enumerate(moves) if m["type"] == "unpick"]
            assert len(marked) < len(moves), "something besides undoing is always playable"
            return
        game.advance(state, seat, moves[0], SeededRng(b"undoing-mark", step))
    pytest.fail("no formation with a member to unpick within 200 moves")


def test_without_the_mark_the_first_legal_move_picks_and_unpicks_for_ever_in_an_older_version():
    """Why the mark is needed: Fellowships of Fate 2's first legal move returns the match to a state
    it was in (the loop issue 25 found: v4,279 after 200 s)."""
    game = registry.get("fellowships-of-fate", "2")
    _, steps, repeated = first_move_playout(game, 2, skip_undoing=False)
    assert repeated, f"the first legal move of Fellowships of Fate 2 ended the match in {steps} moves"
