"""Bot policies choose legal moves from a seat's view alone, for every game."""
import pytest

from shared.bots.arena import play_match, win_rate
from shared.bots.ismcts import OPPONENT_MODELS, SearchParams
from shared.bots.policies import POLICIES, search_policy
from shared.engine import registry
from shared.rng import FastRng, SeededRng


def opening(game, players):
    state = game.fold(game.setup(players, game.validate_options(players, {}), SeededRng(b"bots", "setup")))
    rng = FastRng(3)
    for _ in range(5):  # a few random moves in, so the position is not trivial
        if game.outcome(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        state = game.fold(game.decide(state, seat, rng.choice(game.legal_moves(state, seat)), rng), state)
    return state


EVERY_SEATING = [(g.id, n) for g in registry.all_games() for n in range(g.min_players, g.max_players + 1)]


def to_decide(game_id, players):
    """A seat to act a few moves in, with its view and legal moves."""
    game = registry.get(game_id)
    state = opening(game, players)
    seat = game.to_act(state)[0]
    return game, game.view(state, seat), seat, game.legal_moves(state, seat)


@pytest.mark.parametrize("game_id,players", EVERY_SEATING)
@pytest.mark.parametrize("level", sorted(POLICIES))
def test_every_level_answers_a_legal_move_from_the_view(game_id, players, level):
    game, view, seat, legal = to_decide(game_id, players)
    if level == "search":
        move = search_policy(game, view, seat, legal, FastRng(1), iterations=30)
    else:
        move = POLICIES[level](game, view, seat, legal, FastRng(1))
    assert move in legal


@pytest.mark.parametrize("game_id,players", EVERY_SEATING)
@pytest.mark.parametrize("opponents", OPPONENT_MODELS)
def test_search_answers_a_legal_move_with_either_opponent_model(game_id, players, opponents):
    game, view, seat, legal = to_decide(game_id, players)
    assert search_policy(game, view, seat, legal, FastRng(1), iterations=30, opponents=opponents) in legal


def test_an_unknown_opponent_model_is_refused():
    with pytest.raises(ValueError, match="opponents"):
        SearchParams(opponents="paranoid")


@pytest.mark.parametrize("game_id,players", EVERY_SEATING)
def test_every_seats_heuristic_at_once_equals_each_seats_heuristic(game_id, players):
    """``Game.heuristics`` (what search rewards use) is ``heuristic`` seat by seat, along a match."""
    game = registry.get(game_id)
    state = opening(game, players)
    rng = FastRng(9)
    for _ in range(60):
        if game.outcome(state) is not None:
            break
        assert game.heuristics(state) == [game.heuristic(state, s) for s in range(players)]
        seat = rng.choice(game.to_act(state))
        game.advance(state, seat, rng.choice(game.legal_moves(state, seat)), rng)


def test_greedy_beats_random_at_duel():
    result = win_rate(registry.get("duel"), "greedy", "random", 2, 60)
    assert result["hero_win_rate"] > 0.55


def test_an_arena_match_reaches_an_outcome():
    record = play_match(registry.get("duel"), ["search", "random"], seed=2)
    assert sorted(record.outcome.ranks) in ([1, 2], [1, 1])
