"""Game setup, the four turn options, Fate draws and the Warrior hand limit."""
from collections import Counter

import pytest

from shared.games.battlefields_of_olympus import GAME
from shared.games.battlefields_of_olympus.content import ARES
from shared.rng import SeededRng

from .helpers import BATTLE, C, legal, play, run, table, types


def _setup(seed=b"s"):
    return GAME.fold(GAME.setup(2, GAME.validate_options(2, {}), SeededRng(seed, "setup")))


def test_setup_shuffles_both_decks_separately_and_deals_four_warriors_each():
    state = _setup()
    assert [len(s["hand"]) for s in state["seats"]] == [4, 4]
    assert len(state["wdeck"]) == 42
    kinds = Counter(C.fate_kind(c) for c in state["fdeck"])
    assert kinds == {"action": 30, "land": 14, "ares": 6}
    assert set(state["wdeck"]) <= set(C.warriors)
    other = _setup(b"other")
    assert state["fdeck"] != other["fdeck"] and state["wdeck"] != other["wdeck"]


def test_setup_seat_0_starts():
    state = _setup()
    assert GAME.to_act(state) == [0] and state["turn"] == 0
    assert GAME.legal_moves(state, 1) == []


@pytest.mark.parametrize("players", [1, 3])
def test_setup_exactly_two_players(players):
    with pytest.raises(ValueError):
        GAME.validate_options(players, {})


def test_turn_option_a_draw_fate_action_goes_to_hand_face_down():
    state = table(hands=(["archers"] * 4, ["spearmen"] * 4), ftop=["flank"])
    state, events = play(state, 0, {"type": "draw_fate"})
    assert state["seats"][0]["actions"] == ["flank"]
    drawn = events[0]
    assert GAME.redact(drawn, 1)["data"].get("card") is None
    assert GAME.redact(drawn, 0)["data"]["card"] == "flank"


def test_turn_option_b_discard_warriors_face_up_and_draw_as_many():
    state = table(hands=(["archers", "archers", "cavalry", "spearmen"], []), wtop=["swordsmen", "heavy_infantry"])
    state, _ = play(state, 0, {"type": "discard_warrior", "card": "archers"})
    assert state["phase"] == "discarding" and state["wdisc"] == ["archers"]
    assert {"type": "discard_action", "card": "flank"} not in legal(state, 0)
    state, _ = play(state, 0, {"type": "discard_warrior", "card": "cavalry"})
    state, _ = play(state, 0, {"type": "discard_done"})
    assert state["seats"][0]["hand"] == sorted(["archers", "spearmen", "swordsmen", "heavy_infantry"])
    assert state["wdisc"] == ["archers", "cavalry"]
    assert state["turn"] == 1 and state["phase"] == "action"


def test_turn_option_c_discard_actions_and_draw_as_many_warriors():
    state = table(hands=(["archers", "cavalry"], []), actions=(["elite", "flank", "scout"], []),
                  wtop=["swordsmen", "spearmen"])
    state, _ = play(state, 0, {"type": "discard_action", "card": "elite"})
    state, _ = play(state, 0, {"type": "discard_action", "card": "flank"})
    state, _ = play(state, 0, {"type": "discard_done"})
    assert state["seats"][0]["hand"] == sorted(["archers", "cavalry", "swordsmen", "spearmen"])
    assert state["adisc"] == ["elite", "flank"]
    assert state["phase"] == "post"  # Scout may still be played after the action


def test_turn_option_d_battle_for_topmost_land_only_when_there_is_one():
    state = table(hands=(["archers"], ["spearmen"]))
    assert BATTLE not in legal(state, 0)
    state = table(hands=(["archers"], ["spearmen"]), land_pile=["hills_red", "woodland_red"])
    assert BATTLE in legal(state, 0)
    state, _ = play(state, 0, BATTLE)
    assert state["phase"] == "battle" and state["battle"]["land"] == "hills_red"
    assert state["battle"]["attacker"] == 0 and GAME.to_act(state) == [0]


def test_turn_exactly_one_option_then_turn_passes_when_no_battle():
    state = table(hands=(["archers"], ["spearmen"]), actions=(["rally"], []), ftop=["elite"])
    state, _ = play(state, 0, {"type": "draw_fate"})
    moves = legal(state, 0)
    assert {"type": "draw_fate"} not in moves and BATTLE not in moves
    assert {"type": "end_turn"} in moves and {"type": "play_action", "card": "rally"} in moves
    state, _ = play(state, 0, {"type": "end_turn"})
    assert state["turn"] == 1 and GAME.to_act(state) == [1]


def test_turn_after_action_any_number_of_turn_actions_may_be_played():
    state = table(hands=(["archers"], ["spearmen"]), actions=(["rally", "scout"], []), ftop=["hills_red"])
    state, _ = play(state, 0, {"type": "draw_fate"})
    state, _ = play(state, 0, {"type": "play_action", "card": "rally"})
    assert state["phase"] == "post"
    state, _ = play(state, 0, {"type": "play_action", "card": "scout"})
    assert state["seats"][1]["revealed"] == ["spearmen"]
    assert legal(state, 0) == [{"type": "end_turn"}]


def test_fate_land_goes_face_up_on_land_pile_and_player_draws_a_warrior():
    state = table(hands=(["archers"], []), ftop=["olympus"], wtop=["cavalry"])
    state, events = play(state, 0, {"type": "draw_fate"})
    assert state["land_pile"] == ["olympus"]
    assert GAME.redact(events[0], 1)["data"]["card"] == "olympus"
    assert state["seats"][0]["hand"] == ["archers", "cavalry"]


def test_fate_ares_goes_on_ares_pile_and_player_draws_a_warrior():
    state = table(hands=(["archers"], []), ftop=[ARES], wtop=["cavalry"])
    state, _ = play(state, 0, {"type": "draw_fate"})
    assert state["ares_pile"] == [ARES] and state["seats"][0]["hand"] == ["archers", "cavalry"]
    assert state["phase"] == "action" and state["turn"] == 1  # no Land: no battle


def test_fate_land_drawn_with_ares_in_play_forces_battle_on_that_turn():
    """A player holding no Action has nothing to play first: the forced battle begins at once."""
    state = table(hands=(["archers"], ["spearmen"]), ares_pile=1, ftop=["hills_red"])
    state, events = play(state, 0, {"type": "draw_fate"})
    assert "battle_started" in types(events)
    assert state["battle"]["land"] == "hills_red" and state["battle"]["attacker"] == 0


def test_fate_draw_forcing_battle_rally_and_scout_may_still_be_played_before_the_battle():
    """TURN ORDER: "After you perform an action, you may also play ... Ambush, Raid, Rally or
    Scout"; Drawing a Fate Card: "you must declare BATTLE for the topmost Land Trophy card on your
    turn". The drawer plays Rally and Scout, then must declare the battle; he cannot end his turn."""
    state = table(hands=(["archers"], ["spearmen"]), actions=(["rally", "scout"], []), ares_pile=1,
                  ftop=["hills_red"], wtop=["cavalry", "swordsmen", "heavy_infantry"])
    state, events = play(state, 0, {"type": "draw_fate"})
    assert "battle_started" not in types(events) and state["phase"] == "post"
    moves = legal(state, 0)
    assert {"type": "play_action", "card": "rally"} in moves and {"type": "play_action", "card": "scout"} in moves
    assert BATTLE in moves and {"type": "end_turn"} not in moves
    state, _ = run(state, (0, {"type": "play_action", "card": "rally"}), (0, {"type": "play_action", "card": "scout"}))
    assert state["seats"][0]["hand"] == ["archers", "cavalry", "heavy_infantry", "swordsmen"]
    assert state["seats"][1]["revealed"] == ["spearmen"]
    assert legal(state, 0) == [BATTLE]
    state, _ = play(state, 0, BATTLE)
    assert state["battle"]["land"] == "hills_red" and state["battle"]["attacker"] == 0
    assert state["battle"]["ares"] == 1


def test_fate_draw_forcing_battle_an_ambush_fights_it_with_the_opponent_playing_first():
    """An Ambush played after the forcing Fate draw starts the battle for the topmost Land: it is
    the battle the Ares forced, so it uses the Ares up."""
    state = table(hands=(["archers"], ["spearmen"]), actions=(["ambush"], []), ares_pile=1, ftop=["hills_red"])
    state, _ = play(state, 0, {"type": "draw_fate"})
    state, _ = play(state, 0, {"type": "play_action", "card": "ambush"})
    assert state["battle"]["land"] == "hills_red" and GAME.to_act(state) == [1]
    state, _ = play(state, 1, {"type": "pass"})
    assert state["seats"][0]["lands"] == ["hills_red"]
    assert state["ares_pile"] == [] and state["ares_disc"] == [ARES]


def test_fate_draw_forcing_battle_a_raid_first_leaves_the_forced_battle_for_the_next_turn():
    """A Raid played after the forcing draw is a battle of its own: it ends the turn (step 10
    names who begins the next one) and does not use up the Ares, so the Land and the Ares still
    in play leave the next turn only the battle for the topmost Land."""
    state = table(hands=(["archers"], ["spearmen"]), actions=(["raid"], []), lands=([], ["woodland_red"]),
                  ares_pile=1, ftop=["hills_red"])
    state, _ = play(state, 0, {"type": "draw_fate"})
    state, _ = run(state, (0, {"type": "play_action", "card": "raid", "land": "woodland_red"}),
                   (0, {"type": "play_warrior", "card": "archers", "from": "hand"}), (1, {"type": "pass"}))
    assert state["seats"][0]["lands"] == ["woodland_red"] and state["ares_pile"] == [ARES]
    while state["phase"] == "restock":
        state, _ = play(state, state["actor"], {"type": "restock_done"})
    assert state["turn"] == 1 and legal(state, 1) == [BATTLE]


def test_fate_draw_forcing_battle_a_defeated_ambush_leaves_the_battle_to_declare():
    state = table(hands=(["archers"], ["spearmen"]), actions=(["ambush"], ["sentries"]), ares_pile=1,
                  ftop=["hills_red"])
    state, _ = run(state, (0, {"type": "draw_fate"}), (0, {"type": "play_action", "card": "ambush"}),
                   (1, {"type": "respond", "card": "sentries", "target": 0}))
    assert state["battle"] is None and legal(state, 0) == [BATTLE]


def test_fate_land_and_ares_in_play_leave_only_the_battle_as_turn_option():
    state = table(hands=(["archers"], ["spearmen"]), ares_pile=1, land_pile=["hills_red"])
    assert legal(state, 0) == [BATTLE]


def test_fate_more_than_four_actions_discard_or_play_one():
    state = table(hands=(["archers"], []), actions=(["elite", "flank", "rally", "skirmish"], []), ftop=["scout"])
    state, _ = play(state, 0, {"type": "draw_fate"})
    moves = legal(state, 0)
    assert {"type": "end_turn"} not in moves
    assert {"type": "discard_excess", "card": "elite"} in moves
    assert {"type": "play_action", "card": "rally"} in moves
    state, _ = play(state, 0, {"type": "discard_excess", "card": "elite"})
    assert len(state["seats"][0]["actions"]) == 4 and {"type": "end_turn"} in legal(state, 0)


def test_hand_limit_warrior_drawn_with_four_in_hand_goes_face_down_on_reserve():
    state = table(hands=(["archers"] * 4, []), ftop=["hills_red"], wtop=["cavalry"])
    state, events = play(state, 0, {"type": "draw_fate"})
    assert state["seats"][0]["hand"] == ["archers"] * 4
    assert state["seats"][0]["reserve"] == ["cavalry"]
    drawn = next(e for e in events if e["type"] == "warrior_drawn")
    assert GAME.redact(drawn, 0)["data"]["card"] == "cavalry"  # its owner may look at it
    assert "card" not in GAME.redact(drawn, 1)["data"]
    assert GAME.view(state, 0)["seats"][0]["reserve"] == ["cavalry"]
    assert GAME.view(state, 1)["seats"][0]["reserve"] == {"count": 1}


def test_warrior_discards_reshuffled_into_new_deck_when_deck_runs_out():
    state = table(hands=(["archers"], []), ftop=["hills_red"])
    everything = list(state["wdeck"])
    state["wdisc"], state["wdeck"] = everything, []
    state, events = play(state, 0, {"type": "draw_fate"})
    assert types(events)[1:3] == ["warrior_deck_reshuffled", "warrior_drawn"]
    assert sorted(events[1]["secret"]["order"]) == sorted(everything)
    assert "secret" not in GAME.redact(events[1], 0)
    assert state["wdisc"] == [] and len(state["wdeck"]) == len(everything) - 1


def test_exhausted_fate_deck_forces_battles_then_ends_without_lands():
    state = table(hands=(["archers"], ["spearmen"]), land_pile=["hills_red"], fate_rest=False)
    assert legal(state, 0) == [BATTLE]
    state, _events = run(state, (0, BATTLE), (0, {"type": "play_warrior", "card": "archers", "from": "hand"}),
                        (1, {"type": "pass"}))
    assert state["seats"][0]["lands"] == ["hills_red"]
    while state["phase"] == "restock":
        state, _ = play(state, state["actor"], {"type": "restock_done"})
    assert state["phase"] == "over" and GAME.outcome(state).ranks == [1, 2]


def test_warrior_draw_with_deck_and_discards_both_empty_draws_nothing():
    """NOTES 20: with neither a Warrior deck nor Warrior discards, a Warrior draw draws nothing
    (here the one a Land from the Fate deck gives); the turn goes on."""
    state = table(hands=(["archers"], []), ftop=["hills_red"])
    state["wdeck"], state["wdisc"] = [], []
    state, events = play(state, 0, {"type": "draw_fate"})
    assert "warrior_drawn" not in types(events) and "warrior_deck_reshuffled" not in types(events)
    assert state["seats"][0]["hand"] == ["archers"] and state["land_pile"] == ["hills_red"]
