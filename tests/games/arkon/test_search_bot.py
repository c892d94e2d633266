"""The search level in Arkon: a bid is one move among every part of the hand (up to 256), which
the search samples instead of expanding (``sample_moves``); strength itself: ``bench.eval_bots``."""
from shared.bots.ismcts import SearchParams, search_tree
from shared.bots.policies import search_policy
from shared.rng import FastRng

from .helpers import GAME, act, table, with_full_deck


def bidding(hand):
    """Seat 0 put the Orc up (its 2 influence) and bids from ``hand``; seat 1 (an Elf in play,
    Negotiations in hand) bids after it."""
    state = with_full_deck(table([["orc", *hand], ["negotiations", "peace"]],
                                 phase="bidding", clans=[["human"], ["elf"]]))
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    return state


def test_search_bid_is_one_legal_move_and_places_the_bid_at_once():
    state = bidding(["negotiations", "arcane_insight"])
    legal = GAME.legal_moves(state, 0)
    assert len(legal) == 4  # {}, {arcane_insight}, {negotiations}, both
    move = search_policy(GAME, GAME.view(state, 0), 0, legal, FastRng(7), iterations=120)
    assert move in legal and move["type"] == "bid"
    state, _ = act(state, 0, move)
    assert state["bid"]["counts"]["0"] == len(move["cards"])  # placed: everyone sees how many


def test_search_samples_a_large_bid_instead_of_expanding_every_part_of_the_hand():
    hand = ["arcane_insight", "change_of_fate", "conquest", "desolate", "negotiations", "peace", "thievery"]
    state = bidding(hand)
    legal = GAME.legal_moves(state, 0)
    assert len(legal) == 2 ** len(hand)
    params = SearchParams.for_game(GAME, iterations=40)
    assert params.sample_moves == GAME.search["sample_moves"] < len(legal)
    root = search_tree(GAME, GAME.view(state, 0), 0, legal, FastRng(3), params)
    offered = sum(child.avail for _, child in root.children.values())
    # each walk offered a sample, never all 128 parts: the tree stays as wide as its budget
    assert len(root.children) <= params.iterations and offered <= params.iterations * params.sample_moves
    unsampled = search_tree(GAME, GAME.view(state, 0), 0, legal, FastRng(3),
                            SearchParams.for_game(GAME, iterations=40, sample_moves=len(legal)))
    assert sum(child.avail for _, child in unsampled.children.values()) > offered

