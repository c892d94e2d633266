"""The search bot's tuning for Rise of Tribes: its leaf is scored by the heuristic at once, in the
heuristic's units, and it plays from a seat's view alone."""
import pytest

from shared.bots.ismcts import SearchParams, rewards
from shared.bots.policies import search_policy
from shared.canonical import clone
from shared.rng import FastRng, SeededRng

from .helpers import GAME, at, give, hand
from .scenarios import two


def test_search_params_score_the_leaf_by_the_heuristic_without_random_playout():
    params = SearchParams.for_game(GAME)
    assert params.playout_steps == 0
    assert params.iterations >= 100


def test_search_scale_tells_a_one_point_lead_apart():
    """At the tuned scale a point more (4 heuristic units) moves the reward visibly, and a lead of
    15 points is not yet a certain win."""
    scale = SearchParams.for_game(GAME).scale
    state = at(two(), 0, kind="goals", step="goals")
    even = rewards(GAME, state, scale)
    state["seats"][0]["score"] += 1
    ahead = rewards(GAME, state, scale)
    assert ahead[0] - even[0] > 0.1 and ahead[1] < even[1]
    state["seats"][0]["score"] += 14
    assert rewards(GAME, state, scale)[0] < 1.0


def _race_position():
    """Both seats at 13 points, seat 0 in step 5 with Explorers (2 points) completable, and a
    village and a Development affordable too: ending the turn would hand seat 1 its chance."""
    state = two({0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 3: {0: 2}, 5: {0: 1}, 8: {1: 3}})
    state = at(state, 0, kind="goals", step="goals")
    hand(state, 0, "explorers", "agriculture")
    give(state, 0, food=4, wood=4, stone=4)
    state["seats"][0]["score"] = state["seats"][1]["score"] = 13
    return state


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_search_wins_in_step5_instead_of_ending_the_turn_with_a_winning_goal(seed):
    state = _race_position()
    rng = FastRng(seed)
    while GAME.outcome(state) is None and GAME.to_act(state) == [0] and state["turn"]["seat"] == 0:
        legal = GAME.legal_moves(state, 0)
        move = search_policy(GAME, GAME.view(state, 0), 0, legal, rng, iterations=100)
        GAME.advance(state, 0, move, rng)
    assert GAME.outcome(state) is not None and state["winner"] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_search_answers_a_legal_move_from_the_view_and_leaves_the_view_untouched(players):
    opts = GAME.validate_options(players, {})
    state = GAME.fold(GAME.setup(players, opts, SeededRng(b"search", players)))
    rng = FastRng(players)
    for _ in range(60):  # into the game with random moves
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        GAME.advance(state, seat, moves[rng.randbelow(len(moves))], rng)
    assert GAME.outcome(state) is None
    for _ in range(5):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        view = GAME.view(state, seat)
        before = clone(view)
        move = search_policy(GAME, view, seat, legal, FastRng(7), iterations=40)
        assert move in legal and view == before
        GAME.advance(state, seat, move, rng)
