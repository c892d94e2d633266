"""Formation: every player secretly and simultaneously chooses 4 of their members, in one move."""
from itertools import combinations
from math import comb

import pytest

from shared.engine.conformance import check_decision
from shared.engine.errors import IllegalMove
from shared.games.fellowships_of_fate.formation import max_formations

from .helpers import C, GAME, act, form, form_move, quick_move, setup_event

HAND = ["warrior", "magician", "cleric", "sage"]


def _start(players=3):
    return GAME.fold([setup_event(players)])


def test_rule_formation_is_simultaneous():
    state = _start(3)
    assert state["phase"] == "formation"
    assert GAME.to_act(state) == [0, 1, 2]


def test_rule_formation_one_move_lists_every_choice_of_four_of_the_nine_members():
    """1. Formation: "Choose 4 member cards from your 9 member cards": every 4-subset is one
    ``form`` move, listed once, in the order of the seat's members."""
    state = _start(2)
    legal = GAME.legal_moves(state, 0)
    assert {m["type"] for m in legal} == {"form"}
    hands = [tuple(m["members"]) for m in legal]
    assert len(hands) == comb(9, 4) == 126
    assert set(hands) == set(combinations(C.member_order, 4))
    assert len(set(frozenset(h) for h in hands)) == 126  # no hand twice in another order
    state, _ = act(state, 0, form_move(state, 0, ["thief", "warrior", "magician", "cleric"]))
    assert GAME.to_act(state) == [1] and GAME.legal_moves(state, 0) == []
    assert state["formation"]["values"]["0"] == sorted(["thief", "warrior", "magician", "cleric"])


def test_rule_formation_rejects_a_hand_of_other_than_four_members_or_unknown_ones():
    state = _start(2)
    for bad in (HAND[:3], HAND + ["thief"], ["warrior", "warrior", "magician", "cleric"],
                ["warrior", "magician", "cleric", "nobody"], list(reversed(HAND))):
        with pytest.raises(IllegalMove):
            GAME.decide(state, 0, {"type": "form", "members": bad}, None)


def test_formation_is_bounded_by_the_members_a_seat_can_ever_have():
    """The list is always enumerable: at most C(9 + Beasts, 4) moves."""
    beasts = sum(1 for a in C.adventures.values() if a.member is not None)
    assert max_formations() == comb(9 + beasts, 4) == 210


def test_rule_formation_choices_are_hidden_from_others():
    """1. Formation: "Choose 4 member cards ... and keep them hidden from other players"; others
    see only that a seat has formed (the form event is public, the members are not)."""
    state = _start(3)
    state, events = act(state, 0, form_move(state, 0, HAND))
    assert [e["type"] for e in events] == ["form"]
    for seat in (None, 1, 2):
        assert GAME.redact(events[0], seat)["data"] == {"seat": 0}
        assert "warrior" not in str(GAME.redact(events[0], seat))
        view = GAME.view(state, seat)
        assert view["formation"]["committed"] == [0] and "mine" not in view["formation"]
        assert "warrior" not in str(view["formation"]) and "warrior" not in str(view["seats"][0]["hand"])
    assert GAME.redact(events[0], 0)["data"] == {"seat": 0, "members": ["warrior", "magician", "cleric", "sage"]}
    assert GAME.view(state, 0)["formation"]["mine"] == sorted(HAND)


def test_rule_explore_begins_when_all_have_chosen_and_hands_stay_hidden():
    state = _start(2)
    state = form(state, {0: HAND, 1: ["thief", "werewolf", "archaeologist", "traveler_of_fate"]})
    assert state["phase"] == "explore"
    assert sorted(state["seats"][0]["hand"]) == sorted(HAND)
    assert len(state["seats"][0]["standby"]) == 5
    assert GAME.view(state, 1)["seats"][0]["hand"] == {"count": 4}
    assert GAME.view(state, 1)["seats"][0]["standby"] == {"count": 5}
    assert GAME.to_act(state) == [0]


def test_formation_options_are_all_reachable_and_the_decision_cannot_cycle():
    """Every hand the rulebook allows is reachable from the start of the Formation, by one move,
    also with the Mythical Beast as a tenth member (``shared.engine.conformance``)."""
    state = _start(2)
    report = check_decision(GAME, state, 0)
    assert report.complete and report.declared == report.reached == 126 and report.deepest == 1
    state["seats"][1]["members"].append("mythical_beast")
    state["seats"][1]["standby"].append("mythical_beast")
    report = check_decision(GAME, state, 1)
    assert report.declared == report.reached == 210
    state, _ = act(state, 0, form_move(state, 0, HAND))
    assert GAME.rulebook_options(state, 0) is None  # formed: no decision pending
    assert GAME.option_chosen(_start(2), state, 0) == sorted(HAND)


def _next(state: dict) -> dict:
    """One quick move by the first seat to act: the first hand in a Formation, else a quick turn."""
    seat = GAME.to_act(state)[0]
    move = GAME.legal_moves(state, seat)[0] if state["phase"] == "formation" else quick_move(state)
    return act(state, seat, move)[0]


def test_formation_option_chosen_is_the_hand_formed_in_this_round_only():
    """The conformance contract of "1. Formation": ``option_chosen`` names the hand a seat formed
    since ``start`` — while the others still choose, once Explore has begun (the seat was the
    last), and never a hand of a later round or after the game has ended."""
    start = _start(2)
    assert GAME.option_chosen(start, start, 1) is None
    state, _ = act(start, 0, form_move(start, 0, HAND))
    other = ["thief", "werewolf", "archaeologist", "traveler_of_fate"]
    state, _ = act(state, 1, form_move(state, 1, other))
    assert state["phase"] == "explore"
    assert GAME.option_chosen(start, state, 1) == sorted(other)
    assert GAME.option_chosen(start, state, 0) == sorted(HAND)
    while state["round"] == 1:
        state = _next(state)
    state, _ = act(state, 0, form_move(state, 0, HAND))
    assert state["round"] == 2 and state["phase"] == "formation"
    assert GAME.option_chosen(start, state, 0) is None


def test_formation_option_chosen_is_none_once_the_game_is_over():
    state = _start(2)
    while state["round"] < 4:
        state = _next(state)
    start = state
    while state["phase"] != "over":
        state = _next(state)
    assert state["round"] == start["round"] == 4
    assert GAME.option_chosen(start, state, 0) is None
