"""The greedy bot's heuristic does real work (the full table is bench/eval_arkon.py)."""
from shared.bots.arena import win_rate
from shared.bots.policies import greedy_policy
from shared.rng import FastRng

from .helpers import GAME, table, with_full_deck


def test_greedy_takes_the_winning_clan():
    state = with_full_deck(table([["conquest", "desolate", "arcane_insight"], ["elf", "peace"]],
                                 clans=[["human", "orc", "dwarf"], ["elf", "human"]]))
    legal = GAME.legal_moves(state, 0)
    move = greedy_policy(GAME, GAME.view(state, 0), 0, legal, FastRng(0))
    assert move == {"type": "play", "card": "conquest", "target": 1, "clan": "elf"}


def test_greedy_destroys_the_clan_that_would_let_an_opponent_win():
    state = with_full_deck(table([["desolate", "arcane_insight"], ["elf", "negotiations"]],
                                 clans=[["human"], ["human", "orc", "dwarf"]]))
    move = greedy_policy(GAME, GAME.view(state, 0), 0, GAME.legal_moves(state, 0), FastRng(0))
    assert move["card"] == "desolate" and move["target"] == 1


def test_heuristic_prefers_more_clans_and_fewer_for_opponents():
    base = table([["elf"], ["elf"]], clans=[["human"], ["orc"]])
    ahead = table([["elf"], ["elf"]], clans=[["human", "dwarf"], ["orc"]])
    behind = table([["elf"], ["elf"]], clans=[["human"], ["orc", "dwarf"]])
    assert GAME.heuristic(ahead, 0) > GAME.heuristic(base, 0) > GAME.heuristic(behind, 0)


def test_greedy_beats_random_in_a_short_seat_rotated_match():
    result = win_rate(GAME, "greedy", "random", 2, 12, seed=500)
    assert result["hero_win_rate"] >= 0.75
