"""Setup (rulebook pages 2-3)."""
from collections import Counter

import pytest

from shared.games.rise_of_tribes.content import adjacency

from shared.rng import SeededRng

from .helpers import GAME, decision, fresh, legal, play, run


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_setup_players_plus_one_tiles_of_each_terrain(players):
    state = fresh(players)
    assert Counter(state["terrain"]) == {"lake": players + 1, "forest": players + 1, "mountain": players + 1}
    assert len(state["terrain"]) == len(adjacency(players))


def test_rule_setup_terrain_laid_at_random():
    layouts = {tuple(fresh(3, seed=s)["terrain"]) for s in range(6)}
    assert len(layouts) > 1


def test_rule_setup_supplies_24_of_each_resource_and_12_villages():
    state = fresh(2)
    assert state["supply"] == {"food": 24, "wood": 24, "stone": 24, "villages": 12}


def test_rule_setup_three_dice_per_action_sun_moon_blank_and_two_loose():
    state = fresh(2)
    assert state["dice"] == {a: ["sun", "moon", "blank"] for a in ("grow", "move", "gather", "lead")}
    assert len(state["loose"]) == 2


@pytest.mark.parametrize("players,cards", [(2, 14), (3, 15), (4, 15)])
def test_rule_setup_goal_deck_of_15_without_pottery_for_two(players, cards):
    state = fresh(players)
    for seat in state["seats"]:
        assert len(seat["deck"]) == cards
        assert ("pottery" in seat["deck"]) == (players > 2)
    assert len({tuple(s["deck"]) for s in state["seats"]}) > 1  # shuffled independently


def test_rule_setup_twenty_members_score_zero_random_tribe_boards():
    state = fresh(4)
    for seat in state["seats"]:
        assert seat["supply"] == 20 and seat["score"] == 0
    assert len({s["tribe"] for s in state["seats"]}) == 4
    assert len({tuple(s["tribe"] for s in fresh(4, seed=k)["seats"]) for k in range(5)}) > 1


def test_rule_setup_event_deck_of_12_shuffled():
    state = fresh(2)
    assert len(state["events"]["deck"]) == 12 and state["events"]["slots"] == [None, None]
    assert len({tuple(fresh(2, seed=k)["events"]["deck"]) for k in range(4)}) > 1


def test_rule_setup_start_player_places_two_members_on_one_hex():
    state = fresh(2, seed=3)
    start = state["start"]
    d = decision(state)
    assert d["seat"] == start and d["kind"] == "start"
    assert {m["count"] for m in legal(state, start)} == {2}
    state = run(state, start, {"type": "place", "hex": 4, "count": 2})
    assert state["pop"][4][start] == 2


def _place_all(players, seed=0):
    state = fresh(players, seed=seed)
    order = [(state["start"] + k) % players for k in range(players)]
    return state, order


def test_rule_setup_clockwise_second_player_three_members_unoccupied_hex():
    state, order = _place_all(3)
    state = run(state, order[0], {"type": "place", "hex": 4, "count": 2})
    assert decision(state)["seat"] == order[1]
    moves = legal(state, order[1])
    assert all(m["count"] == 3 for m in moves)
    assert all(m["hex"] != 4 for m in moves), "no start in a hex already occupied"


def test_rule_setup_third_player_three_members_and_two_resources_of_choice():
    state, order = _place_all(3)
    state = run(state, order[0], {"type": "place", "hex": 0, "count": 2})
    state = run(state, order[1], {"type": "place", "hex": 1, "count": 3})
    state = run(state, order[2], {"type": "place", "hex": 11, "count": 3},
                {"type": "take", "resource": "stone"}, {"type": "take", "resource": "stone"})
    assert state["pop"][11][order[2]] == 3
    assert state["seats"][order[2]]["res"] == {"food": 0, "wood": 0, "stone": 2}
    assert state["turn"]["step"] not in ("placement",) and decision(state)["seat"] == order[0]


def test_rule_setup_fourth_player_three_across_two_adjacent_hexes_and_two_resources():
    state, order = _place_all(4)
    state = run(state, order[0], {"type": "place", "hex": 0, "count": 2})
    state = run(state, order[1], {"type": "place", "hex": 14, "count": 3})
    state = run(state, order[2], {"type": "place", "hex": 8, "count": 3},
                {"type": "take", "resource": "food"}, {"type": "take", "resource": "wood"})
    fourth = order[3]
    assert {m["count"] for m in legal(state, fourth)} == {1, 2}
    state = run(state, fourth, {"type": "place", "hex": 6, "count": 2})
    second = legal(state, fourth)
    assert {m["hex"] for m in second} == set(adjacency(4)[6]) - {0}  # 0 is occupied
    assert {m["count"] for m in second} == {1}
    state = run(state, fourth, {"type": "place", "hex": 7, "count": 1},
                {"type": "take", "resource": "food"}, {"type": "take", "resource": "food"})
    assert state["pop"][6][fourth] == 2 and state["pop"][7][fourth] == 1
    assert state["seats"][fourth]["res"]["food"] == 2
    # play begins with the start player
    assert state["turn"]["seat"] == order[0] and decision(state)["seat"] == order[0]


def test_rule_setup_play_begins_with_start_player_rolling():
    state, order = _place_all(2)
    state = run(state, order[0], {"type": "place", "hex": 0, "count": 2})
    state, events = play(state, order[1], {"type": "place", "hex": 8, "count": 3})
    assert state["turn"]["seat"] == order[0]
    assert any(e["type"] == "rolled" for e in events)


def test_rule_setup_deck_orders_hidden_from_every_view():
    state = fresh(3)
    for seat in (0, 1, 2, None):
        v = GAME.view(state, seat)
        assert all(s["deck"] == {"count": 15} for s in v["seats"])
        assert v["events"]["deck"] == {"count": 12}
    setup = GAME.setup(3, GAME.validate_options(3, {}), __import__("shared.rng", fromlist=["FastRng"]).FastRng(0))[0]
    assert "goal_decks" not in GAME.redact(setup, 0)["data"]


TURN_FIELDS = {"seat", "number", "step", "rolled", "actions", "moved", "gathered", "used", "fight", "fought", "placed"}


def test_rule_setup_state_before_the_first_turn():
    """Set up: the start player holds the (numberless, 0) setup turn, both dice unrolled, the
    options kept in the state."""
    state = fresh(2, powers=True)
    assert state["options"] == {"tribal_powers": True} and state["loose"] == ["unrolled", "unrolled"]
    assert state["turn"]["seat"] == state["start"] and state["turn"]["number"] == 0
    assert set(state["turn"]) == TURN_FIELDS and state["turn"]["rolled"] == []


def test_power_trader_not_during_setup():
    """Trader is "at any time on your turn": the setup's power choices and placements are no turn."""
    state = fresh(2, powers=True)
    seat = state["start"]
    state["seats"][seat]["power"] = "trader"
    state["seats"][seat]["res"]["food"] = 2
    assert decision(state)["seat"] == seat and "trade" not in {m["type"] for m in legal(state, seat)}


def test_rule_setup_folded_without_its_secret_part_gives_empty_goal_decks():
    """A log without the setup's secret part (the public log) still folds: no deck is known."""
    opts = GAME.validate_options(2, {"tribal_powers": False})
    events = GAME.setup(2, opts, SeededRng(b"test", 0))
    events = [{k: v for k, v in e.items() if k != "secret"} for e in events]
    state = GAME.fold(events)
    assert [s["deck"] for s in state["seats"]] == [[], []]


def _start_decision(hexes):
    """The first placement of a 2-player game, made to place in ``hexes`` hexes, with the
    opponent standing on both neighbours of hex 0 (hexes 1 and 3)."""
    state = fresh(2, tribes=("daba", "kiror"))
    d = decision(state)
    assert d["kind"] == "start"
    d["hexes"] = hexes
    other = 1 - d["seat"]
    state["pop"][1][other] = state["pop"][3][other] = 1
    return state, d["seat"]


def test_rule_setup_a_single_start_hex_need_not_have_a_free_neighbour():
    state, seat = _start_decision(1)
    assert 0 in {m["hex"] for m in legal(state, seat)}


def test_rule_setup_the_first_of_two_start_hexes_needs_a_free_neighbour():
    state, seat = _start_decision(2)
    hexes = {m["hex"] for m in legal(state, seat)}
    assert 0 not in hexes and 1 not in hexes and 2 in hexes
