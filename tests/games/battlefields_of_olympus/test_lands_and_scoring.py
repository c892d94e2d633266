"""Bonus Warrior for three Lands of one colour, scoring, the end of the game and final ranks."""
from shared.games.battlefields_of_olympus import GAME
from shared.games.battlefields_of_olympus.scoring import points

from .helpers import BATTLE, PASS, C, legal, play, run, table, types, warrior


def _win_battle(state, seat=0):
    """Seat 0 attacks with its first Warrior; seat 1 passes before playing: seat 0 wins."""
    state, _ = play(state, 0, BATTLE)
    state, events = run(state, (0, warrior(state["seats"][0]["hand"][0])), (1, PASS))
    return state, events


def test_bonus_three_lands_of_one_colour_give_a_face_up_bonus_warrior():
    state = table(hands=(["archers"], ["spearmen"]), lands=(["woodland_red", "hills_red"], []),
                  land_pile=["river_red"], wtop=["cavalry"])
    state, events = _win_battle(state)
    bonus = [e for e in events if e["type"] == "bonus_drawn"]
    assert bonus and GAME.redact(bonus[0], 1)["data"]["card"] == "cavalry"
    assert state["seats"][0]["bonus"] == "cavalry"
    assert GAME.view(state, 1)["seats"][0]["bonus"] == "cavalry"  # face up


def test_bonus_warrior_is_played_like_a_hand_warrior_and_redrawn_while_still_qualifying():
    state = table(hands=(["swordsmen"], ["spearmen"]), lands=(["woodland_red", "hills_red", "river_red"], []),
                  bonus=("archers", None), land_pile=["hills_blue"], wtop=["heavy_infantry"])
    state, _ = play(state, 0, BATTLE)
    assert warrior("archers", "bonus") in legal(state, 0)
    state, _events = run(state, (0, warrior("archers", "bonus")), (1, PASS))
    assert "archers" in state["wdisc"]
    assert state["seats"][0]["bonus"] == "heavy_infantry"


def test_bonus_lost_when_the_third_land_of_that_colour_is_lost():
    state = table(hands=(["archers"], ["spearmen"]), actions=(["raid"], []), ftop=["elite"],
                  lands=([], ["woodland_red", "hills_red", "river_red", "olympus"]), bonus=(None, "cavalry"))
    state, _ = play(state, 0, {"type": "draw_fate"})
    state, _ = play(state, 0, {"type": "play_action", "card": "raid", "land": "hills_red"})
    state, events = run(state, (0, warrior("archers")), (1, PASS))
    assert state["seats"][1]["lands"] == ["woodland_red", "river_red", "olympus"]
    assert [e["data"] for e in events if e["type"] == "bonus_lost"] == [{"seat": 1, "card": "cavalry"}]
    assert state["seats"][1]["bonus"] is None and "cavalry" in state["wdisc"]


def test_bonus_olympus_has_no_colour_symbol_and_never_completes_three_of_a_colour():
    """COMPONENTS: only the duplicate Land Trophy cards carry a colour symbol; Olympus is a single
    copy, so two blue Lands and Olympus are not three Lands with the same colour symbol."""
    state = table(hands=(["archers"], ["spearmen"]), lands=(["hills_blue", "river_blue"], []),
                  land_pile=["olympus"], wtop=["cavalry"])
    state, events = _win_battle(state)
    assert state["seats"][0]["lands"] == ["hills_blue", "river_blue", "olympus"]
    assert "bonus_drawn" not in types(events) and state["seats"][0]["bonus"] is None


def test_bonus_a_player_holds_at_most_one_bonus_warrior():
    lands = ["woodland_red", "hills_red", "river_red", "woodland_yellow", "hills_yellow"]
    state = table(hands=(["archers"], ["spearmen"]), lands=(lands, []), bonus=("cavalry", None),
                  land_pile=["river_yellow"])
    state, events = _win_battle(state)
    assert "bonus_drawn" not in types(events) and state["seats"][0]["bonus"] == "cavalry"


def test_scoring_land_values_plus_two_for_each_three_of_a_kind():
    assert points(C, ["woodland_red", "woodland_yellow", "woodland_blue"]) == 5  # rulebook example
    assert points(C, ["hills_red", "hills_yellow", "olympus"]) == 10
    assert points(C, ["river_red", "river_yellow", "river_blue", "olympus"]) == 9 + 2 + 6


def test_end_game_ends_at_once_when_a_player_reaches_16_points():
    state = table(hands=(["archers"], ["spearmen"]), lands=(["olympus", "fortress_blue", "hills_red"], []),
                  land_pile=["river_red"])
    state, events = _win_battle(state)
    assert points(C, state["seats"][0]["lands"]) == 16
    assert types(events)[-1] == "game_ended" and "battle_cleared" not in types(events)
    assert GAME.outcome(state).ranks == [1, 2] and GAME.outcome(state).scores == [16, 0]
    assert legal(state, 0) == legal(state, 1) == []


def test_end_game_ends_after_the_sixth_ares_is_discarded():
    state = table(hands=(["archers"], ["spearmen"]), land_pile=["woodland_red"], ares_pile=1, ares_disc=5)
    assert legal(state, 0) == [BATTLE]
    state, _events = _win_battle(state)
    assert len(state["ares_disc"]) == 6 and state["phase"] == "over"
    assert GAME.outcome(state).details["reason"] == "the last Ares card was discarded"


def test_end_most_points_wins_then_most_land_cards_then_a_shared_rank():
    state = table(lands=(["olympus"], ["woodland_red", "hills_red", "hills_blue"]))
    state["phase"] = "over"
    result = GAME.outcome(state)
    assert result.scores == [6, 5] and result.ranks == [1, 2]
    state["seats"][1]["lands"] = ["woodland_red", "fortress_blue"]
    assert GAME.outcome(state).ranks == [2, 1]  # 6 points each: two Land cards beat one
    state["seats"][1]["lands"] = ["olympus"]
    state["seats"][0]["lands"] = ["city_red", "hills_yellow"]
    state["seats"][1]["lands"] = ["fortress_blue", "woodland_blue"]
    assert GAME.outcome(state).ranks == [1, 1]


def test_option_target_points_changes_the_winning_total_and_rejects_other_values():
    state = table(hands=(["archers"], ["spearmen"]), lands=(["olympus", "fortress_blue"], []),
                  land_pile=["woodland_red"], target_points=12)
    state, _events = _win_battle(state)
    assert state["phase"] == "over" and GAME.outcome(state).scores == [12, 0]
    assert GAME.validate_options(2, {})["target_points"] == 16
    try:
        GAME.validate_options(2, {"target_points": 15})
    except ValueError as err:
        assert "target_points" in str(err)
    else:
        raise AssertionError("target_points 15 accepted")


def test_option_target_points_chosen_at_setup_is_the_matchs_winning_total():
    """The option reaches the match: the setup event and the state carry the chosen total."""
    from shared.rng import SeededRng

    for target in (12, 16, 20):
        events = GAME.setup(2, GAME.validate_options(2, {"target_points": target}), SeededRng(b"t", "setup"))
        assert events[0]["data"]["target_points"] == target
        assert GAME.fold(events)["target_points"] == target


def test_end_no_fate_cards_and_no_lands_left_ends_the_game_scored_as_usual():
    """NOTES 20 (exhausted decks): a turn starting with neither Fate cards nor Lands left ends the
    game; the outcome names the reason and counts each seat's Land cards."""
    state = table(hands=(["cavalry"], ["spearmen"]), lands=(["olympus"], ["woodland_red", "hills_red"]),
                  ftop=["elite"], fate_rest=False)
    state, _ = play(state, 0, {"type": "draw_fate"})
    state, events = play(state, 0, {"type": "end_turn"})
    assert events[-1]["type"] == "game_ended"
    assert events[-1]["data"] == {"reason": "no Fate cards and no Lands left to battle for"}
    assert (state["phase"], state["actor"], state["chain"]) == ("over", None, None)
    outcome = GAME.outcome(state)
    assert outcome.details == {"lands": [1, 2], "reason": "no Fate cards and no Lands left to battle for"}
