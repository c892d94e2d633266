"""Setup: adventure deck and field, relic deck by player count, supply, members, starting player."""
import pytest

from shared.rng import SeededRng

from .helpers import C, GAME


def _setup(players, options=None, seed=b"s"):
    opts = GAME.validate_options(players, options or {})
    events = GAME.setup(players, opts, SeededRng(seed, "setup"))
    return events, GAME.fold(events)


def test_rule_setup_field_of_four_face_up_from_shuffled_adventure_deck():
    events, state = _setup(3)
    assert len(state["field"]) == 4 and None not in state["field"]
    assert sorted(state["field"] + state["adventure_deck"]) == sorted(C.adventures)
    assert len(C.adventures) == 32
    assert events[0]["data"]["field"] == state["field"]
    assert "adventure_deck" not in events[0]["data"]


@pytest.mark.parametrize("players,level1", [(2, 3), (3, 4), (4, 6), (5, 7)])
def test_rule_setup_level1_relics_by_player_count_on_top_of_level2(players, level1):
    _, state = _setup(players)
    deck = state["relic_deck"]
    assert len(deck) == level1 + 22
    assert all(C.relics[r].level == 1 for r in deck[:level1])
    assert sorted(deck[level1:]) == sorted(C.level2)
    assert sorted(deck[:level1] + state["relics_removed"]) == sorted(C.level1)


def test_rule_setup_level1_relics_chosen_at_random():
    chosen = {tuple(sorted(_setup(2, seed=bytes([i]))[1]["relic_deck"][:3])) for i in range(12)}
    assert len(chosen) > 1


def test_rule_setup_players_have_nine_members_in_standby_and_a_journal():
    _, state = _setup(5)
    assert [s["colour"] for s in state["seats"]] == ["red", "blue", "yellow", "green", "purple"]
    for s in state["seats"]:
        assert sorted(s["standby"]) == sorted(C.member_order) and len(s["standby"]) == 9
        assert s["hand"] == [] and s["play"] == [] and s["journal"] == []
        assert s["tokens"] == {"strength": 0, "mana": 0, "wisdom": 0}
    assert all(C.journal_pages[s["colour"]] >= 0 for s in state["seats"])


def test_rule_setup_starting_player_holds_the_round_marker():
    starts = {_setup(4, seed=bytes([i]))[1]["start_seat"] for i in range(20)}
    assert starts <= {0, 1, 2, 3} and len(starts) > 1
    _, state = _setup(4, {"starting_player": "seat0"})
    assert state["start_seat"] == 0 and state["round"] == 1


def test_rule_setup_supply_is_unlimited():
    from .helpers import explore, gain, give, play, steps
    state = explore(2, {0: ["warrior", "cleric", "sage", "thief"], 1: ["sage", "magician", "cleric", "thief"]})
    give(state, 0, strength=38)  # every printed Strength token (20 x 1 + 6 x 3) is already taken
    state = steps(state, play("warrior", "nameless"), gain("strength"), gain("strength"))
    assert state["seats"][0]["tokens"]["strength"] == 40


def test_options_reject_unknown_choices_and_player_counts():
    with pytest.raises(ValueError):
        GAME.validate_options(3, {"starting_player": "oldest"})
    with pytest.raises(ValueError):
        GAME.validate_options(6, {})
    with pytest.raises(ValueError):
        GAME.validate_options(1, {})


def test_setup_deck_orders_are_secret():
    events, state = _setup(4)
    for seat in (None, 0, 3):
        red = GAME.redact(events[0], seat)
        assert "secret" not in red and "relic_deck" not in red["data"]
        view = GAME.view(state, seat)
        assert view["adventure_deck"] == {"count": 28}
        assert view["relic_deck"] == {"count": 28, "level1": 6}
        assert view["relics_removed"] == {"count": 2}


def test_rule_setup_starting_player_is_drawn_unless_seat0_is_asked_for():
    """Player Setup E: without the ``seat0`` option the starting player is drawn, also when
    ``setup`` is given no options at all (the option's default is ``random``)."""
    starts = {GAME.setup(4, {}, SeededRng(bytes([i]), "setup"))[0]["data"]["start_seat"] for i in range(20)}
    assert len(starts) > 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rule_setup_event_names_the_field_colours_starting_player_and_level1_relic_count(players):
    """Common Setup and "Number of Relic cards to use": the public setup event (the log's
    format) names the player count, colours, starting seat, the field and how many Level 1
    relics are in the relic deck."""
    events, state = _setup(players, {"starting_player": "seat0"})
    assert events[0]["data"] == {"players": players, "colours": list(C.colours[:players]), "start_seat": 0,
                                 "field": state["field"], "level1_relics": C.level1_by_players[players]}


def test_fold_rejects_an_event_type_it_does_not_know_and_names_it():
    """The reducers are total on the events ``play`` emits; any other type in a log is an error
    that says which type it was."""
    _, state = _setup(2)
    with pytest.raises(ValueError, match="unknown event type 'shuffle'"):
        GAME.apply(state, {"type": "shuffle", "data": {}})
