"""The search level in Arkon: its heuristic ends a bid's gathering, and search finishes a bid
instead of picking and putting back cards forever (strength itself: ``bench.eval_bots``)."""
from shared.bots.policies import search_policy
from shared.games.arkon.heuristic import DRAFT_STEP_COST
from shared.rng import FastRng

from .helpers import GAME, act, table, with_full_deck


def gathering():
    """Seat 0 put the Orc up and is gathering its bid from Negotiations and Arcane Insight."""
    state = with_full_deck(table([["orc", "negotiations", "arcane_insight"], ["elf", "peace"]],
                                 phase="bidding", clans=[["human"], ["dwarf"]]))
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    return state


def test_heuristic_prefers_placing_the_bid_to_gathering_on_with_the_same_cards():
    picked, _ = act(gathering(), 0, {"type": "pick", "card": "negotiations"})
    placed, _ = act(picked, 0, {"type": "place"})
    again, _ = act(picked, 0, {"type": "pick", "card": "arcane_insight"})
    again, _ = act(again, 0, {"type": "unpick", "card": "arcane_insight"})  # same draft, 3 steps
    h_placed, h_picked, h_again = (GAME.heuristic(s, 0) for s in (placed, picked, again))
    assert h_placed > h_picked > h_again
    assert abs((h_placed - h_picked) - DRAFT_STEP_COST) < 1e-9
    assert abs((h_picked - h_again) - 2 * DRAFT_STEP_COST) < 1e-9


def test_search_places_its_bid_within_a_few_gathering_steps():
    state = gathering()
    rng = FastRng(7)
    for _ in range(12):
        legal = GAME.legal_moves(state, 0)
        move = search_policy(GAME, GAME.view(state, 0), 0, legal, rng, iterations=120)
        state, _ = act(state, 0, move)
        if move["type"] == "place":
            break
    assert move["type"] == "place"
    assert "0" in state["bid"]["counts"]  # placed: everyone sees how many cards


def test_search_parameters_cut_playouts_short_and_match_the_heuristics_units():
    params = GAME.search
    assert params["playout_steps"] <= 4 and params["scale"] >= 2.0
