"""Battle order, steps 1 to 10, and the Warrior table."""
import pytest

from shared.games.battlefields_of_olympus import GAME
from shared.games.battlefields_of_olympus.content import ARES

from .helpers import BATTLE, PASS, C, legal, play, run, table, types, warrior


def _battle(hands, **kw):
    kw.setdefault("land_pile", ["hills_red", "woodland_red"])
    state = table(hands=hands, **kw)
    state, _ = play(state, 0, BATTLE)
    return state


def _finish_restock(state):
    while state["phase"] == "restock":
        state, _ = play(state, state["actor"], {"type": "restock_done"})
    return state


def test_battle_step_1_attacker_first_then_players_alternate_one_warrior_at_a_time():
    state = _battle((["cavalry", "archers"], ["spearmen", "archers"]))
    assert GAME.to_act(state) == [0] and legal(state, 1) == []
    state, _ = play(state, 0, warrior("cavalry"))
    assert GAME.to_act(state) == [1]
    state, _ = play(state, 1, warrior("spearmen"))
    assert GAME.to_act(state) == [0]
    assert [w["card"] for w in state["battle"]["line"]] == ["cavalry", "spearmen"]


def test_battle_step_1_attacker_passing_before_first_warrior_loses():
    state = _battle((["cavalry"], ["spearmen"]))
    state, events = play(state, 0, PASS)
    assert state["seats"][1]["lands"] == ["hills_red"]
    assert [e["data"]["winner"] for e in events if e["type"] == "battle_ended"] == [1]


def test_battle_step_1_defender_passing_before_first_warrior_loses_at_once():
    state = _battle((["cavalry"], ["spearmen"]))
    state, _ = play(state, 0, warrior("cavalry"))
    state, events = play(state, 1, PASS)
    assert state["seats"][0]["lands"] == ["hills_red"]
    assert "battle_cleared" in types(events)


def test_battle_step_2_each_warrior_must_beat_or_tie_the_opponents_current_one():
    state = _battle((["cavalry"], ["archers", "spearmen", "cavalry", "heavy_infantry", "swordsmen"][:4]))
    state, _ = play(state, 0, warrior("cavalry"))
    cards = sorted(m["card"] for m in legal(state, 1) if m["type"] == "play_warrior")
    assert cards == ["archers", "cavalry", "spearmen"]  # heavy infantry loses to cavalry
    with pytest.raises(Exception) as err:
        GAME.decide(state, 1, warrior("heavy_infantry"), None)
    assert "card" in str(err.value)


def test_battle_step_3_actions_instead_of_or_in_addition_to_a_warrior():
    state = _battle((["swordsmen", "cavalry"], ["cavalry"]), actions=(["flank"], ["shield_wall"]))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")))
    assert {"type": "play_action", "card": "flank"} in legal(state, 0)
    state, _ = play(state, 0, {"type": "play_action", "card": "flank"})  # instead of a Warrior
    state, _ = play(state, 1, {"type": "respond", "card": "shield_wall", "target": 0})
    assert state["battle"]["leader"] == 1 and GAME.to_act(state) == [0]
    state, _ = play(state, 0, warrior("cavalry"))  # ... and a Warrior in addition
    assert state["battle"]["line"][-1]["result"] == "tie"


def test_battle_step_3_flank_changes_win_condition_and_forces_second_consecutive_play():
    state = _battle((["swordsmen"], ["cavalry", "archers"]), actions=(["flank"], []))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, {"type": "play_action", "card": "flank"}))
    assert state["battle"]["leader"] == 0 and GAME.to_act(state) == [1]
    assert [m["card"] for m in legal(state, 1) if m["type"] == "play_warrior"] == ["archers"]


def test_battle_step_4_pass_gives_opponent_one_free_chance_then_battle_is_over():
    state = _battle((["archers"], ["archers", "heavy_infantry"]), actions=([], ["flank"]))
    state, _ = run(state, (0, warrior("archers")), (1, warrior("archers")), (0, PASS))
    moves = legal(state, 1)
    assert all(m["type"] in ("play_warrior", "pass") for m in moves)  # one Warrior, nothing else
    state, events = play(state, 1, warrior("heavy_infantry"))
    assert "battle_ended" in types(events) and state["seats"][1]["lands"] == ["hills_red"]


def test_battle_step_4_declining_the_free_chance_ends_the_battle():
    state = _battle((["cavalry"], ["spearmen", "spearmen"]))
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("spearmen")))
    state, _ = run(state, (0, PASS), (1, PASS))
    assert state["seats"][1]["lands"] == ["hills_red"] and state["battle"] is None


def test_battle_step_5_victor_is_player_of_last_winning_card_and_takes_topmost_land():
    state = _battle((["cavalry", "heavy_infantry"], ["spearmen"]))
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("spearmen")), (0, PASS), (1, PASS))
    assert state["seats"][1]["lands"] == ["hills_red"] and state["land_pile"] == ["woodland_red"]


def test_battle_step_5_tying_warriors_draw_and_no_land_is_awarded():
    state = _battle((["cavalry"], ["cavalry"]))
    state, events = run(state, (0, warrior("cavalry")), (1, warrior("cavalry")), (0, PASS), (1, PASS))
    ended = next(e for e in events if e["type"] == "battle_ended")
    assert ended["data"]["winner"] is None
    assert state["land_pile"] == ["hills_red", "woodland_red"]
    assert state["seats"][0]["lands"] == state["seats"][1]["lands"] == []


def test_battle_step_5_second_tying_card_in_a_row_by_same_player_wins_superior_numbers():
    state = _battle((["cavalry"], ["cavalry", "cavalry"]))
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("cavalry")), (0, PASS))
    state, events = play(state, 1, warrior("cavalry"))
    played = next(e for e in events if e["type"] == "warrior_played")
    assert played["data"]["result"] == "numbers"
    assert state["seats"][1]["lands"] == ["hills_red"]


def test_battle_step_6_used_cards_to_their_discard_piles_and_ares_to_its_own_pile():
    state = _battle((["swordsmen", "cavalry"], ["cavalry"]), actions=(["flank"], ["shield_wall"]), ares_pile=1)
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")),
                   (0, {"type": "play_action", "card": "flank"}),
                   (1, {"type": "respond", "card": "shield_wall", "target": 0}), (0, PASS), (1, PASS))
    assert sorted(state["wdisc"]) == ["cavalry", "swordsmen"]
    assert sorted(state["adisc"]) == ["flank", "shield_wall"]
    assert state["ares_pile"] == [] and state["ares_disc"] == [ARES]


def test_battle_step_7_warriors_revealed_by_scout_return_to_hand():
    state = table(hands=(["cavalry"], ["spearmen", "archers"]), actions=(["scout"], []),
                  land_pile=["hills_red"], ftop=["elite"])
    state, _ = run(state, (0, {"type": "draw_fate"}), (0, {"type": "play_action", "card": "scout"}))
    assert state["seats"][1]["revealed"] == ["archers", "spearmen"]
    assert GAME.view(state, 0)["seats"][1]["revealed"] == ["archers", "spearmen"]
    state, _ = run(state, (0, {"type": "end_turn"}), (1, BATTLE), (1, warrior("spearmen")), (0, PASS))
    assert state["seats"][1]["revealed"] == [] and "archers" in state["seats"][1]["hand"]
    assert GAME.view(state, 0)["seats"][1]["hand"] == {"count": len(state["seats"][1]["hand"])}


def test_battle_step_8_each_draws_one_warrior_to_reserve_and_loser_a_second():
    state = _battle((["cavalry"], ["spearmen"]), wtop=["archers", "swordsmen", "heavy_infantry"])
    state, events = run(state, (0, warrior("cavalry")), (1, warrior("spearmen")), (0, PASS), (1, PASS))
    draws = [e["data"] for e in events if e["type"] == "warrior_drawn"]
    assert draws == [{"seat": 0, "to": "reserve"}, {"seat": 1, "to": "reserve"}, {"seat": 0, "to": "reserve"}]
    assert state["seats"][0]["reserve"] == ["heavy_infantry", "archers"]
    assert state["seats"][1]["reserve"] == ["swordsmen"]


def test_battle_step_8_after_a_draw_nobody_draws_a_second_warrior():
    state = _battle((["cavalry"], ["cavalry"]))
    state, events = run(state, (0, warrior("cavalry")), (1, warrior("cavalry")), (0, PASS), (1, PASS))
    assert [e["data"]["seat"] for e in events if e["type"] == "warrior_drawn"] == [0, 1]


def test_battle_step_9_players_restock_hands_from_reserve_up_to_four():
    state = _battle((["cavalry", "archers"], ["spearmen"]), reserves=(["swordsmen", "swordsmen", "archers"], []),
                    wtop=["heavy_infantry", "cavalry", "spearmen"])
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("spearmen")), (0, PASS), (1, PASS))
    # seat 0 lost: it restocks first (it begins the next turn)
    assert state["phase"] == "restock" and GAME.to_act(state) == [0]
    assert sorted(m["card"] for m in legal(state, 0) if m["type"] == "restock") == [
        "archers", "heavy_infantry", "spearmen", "swordsmen"]
    state, _ = run(state, (0, {"type": "restock", "card": "swordsmen"}), (0, {"type": "restock", "card": "swordsmen"}))
    state, _ = play(state, 0, {"type": "restock", "card": "heavy_infantry"})
    assert len(state["seats"][0]["hand"]) == 4  # hand full: its restock ends by itself
    assert GAME.to_act(state) == [1]
    state, _ = play(state, 1, {"type": "restock_done"})
    assert state["phase"] == "action"


def test_battle_step_10_loser_begins_the_next_turn():
    state = _battle((["cavalry"], ["spearmen"]))
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("spearmen")), (0, PASS), (1, PASS))
    state = _finish_restock(state)
    assert state["turn"] == 0 and GAME.to_act(state) == [0]
    state = _battle((["spearmen"], ["cavalry"]))
    state, _ = run(state, (0, warrior("spearmen")), (1, PASS))
    state = _finish_restock(state)
    assert state["turn"] == 1


def test_battle_step_10_after_a_draw_the_player_of_the_last_card_begins():
    state = _battle((["cavalry"], ["cavalry"]))
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("cavalry")), (0, PASS), (1, PASS))
    state = _finish_restock(state)
    assert state["turn"] == 1


@pytest.mark.parametrize("a,b,result", [
    ("cavalry", "swordsmen", True), ("cavalry", "heavy_infantry", True), ("archers", "cavalry", True),
    ("spearmen", "cavalry", True), ("heavy_infantry", "archers", True), ("heavy_infantry", "spearmen", True),
    ("heavy_infantry", "swordsmen", True), ("archers", "spearmen", True), ("archers", "swordsmen", True),
    ("swordsmen", "spearmen", True), ("archers", "heavy_infantry", False), ("cavalry", "archers", False),
    ("spearmen", "swordsmen", False), ("archers", "archers", False),
])
def test_warriors_who_beats_whom_by_symbols_matches_components_table(a, b, result):
    assert C.beats(a, b) is result


def test_warriors_same_type_ties_holding_the_line():
    for w in C.warriors:
        assert C.beats_or_ties(w, w) and not C.beats(w, w)
    state = _battle((["archers"], ["archers"]))
    state, _ = run(state, (0, warrior("archers")), (1, warrior("archers")))
    assert state["battle"]["leader"] is None and state["battle"]["line"][-1]["result"] == "tie"


def test_battle_step_5_superior_numbers_also_after_elite_overturned_the_first_tying_card():
    """Step 5 exception: "A second played tying card in a row by the same player is considered a
    winning card." Cavalry holds the line against Cavalry; the attacker's Elite makes his Cavalry
    win; the defender must play again and lays a second Cavalry: his second tying card in a row."""
    state = _battle((["cavalry"], ["cavalry", "cavalry"]), actions=(["elite"], []))
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("cavalry")), (0, {"type": "play_action", "card": "elite"}))
    assert state["battle"]["leader"] == 0 and state["battle"]["line"][-1]["overturned"] is True
    state, events = play(state, 1, warrior("cavalry"))
    assert [e["data"]["result"] for e in events if e["type"] == "warrior_played"] == ["numbers"]
    assert state["battle"]["leader"] == 1
    state, _ = run(state, (0, PASS), (1, PASS))
    assert state["seats"][1]["lands"] == ["hills_red"]


def test_battle_step_5_tying_card_in_the_free_chance_does_not_turn_a_win_into_a_draw():
    """Step 5: "The victor is the player of the last winning card." The defender's Archers beat
    the attacker's Cavalry; the attacker passes; in his free chance the defender lays a Cavalry
    that only holds the line: his Archers stay the last winning card and he takes the Land."""
    state = _battle((["cavalry"], ["archers", "cavalry"]))
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("archers")), (0, PASS))
    state, events = play(state, 1, warrior("cavalry"))
    assert [e["data"]["result"] for e in events if e["type"] == "warrior_played"] == ["tie"]
    assert [e["data"]["winner"] for e in events if e["type"] == "battle_ended"] == [1]
    assert state["seats"][1]["lands"] == ["hills_red"]


def test_battle_step_5_a_tying_card_against_the_leader_still_holds_the_line():
    """The other side of the clause: a tie by the player who was behind makes the battle a draw."""
    state = _battle((["cavalry", "archers"], ["archers"]))
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("archers")), (0, warrior("archers")))
    assert state["battle"]["leader"] is None
    state, events = run(state, (1, PASS), (0, PASS))
    assert [e["data"]["winner"] for e in events if e["type"] == "battle_ended"] == [None]


def test_battle_step_6_battle_for_the_topmost_land_discards_every_ares_it_was_fought_over():
    """Ares cards waiting (drawn while no Land was in play) are all in play when the Land comes:
    the battle for it is fought over all of them and discards them all."""
    state = _battle((["cavalry"], ["spearmen"]), ares_pile=2)
    assert state["battle"]["ares"] == 2
    state, _ = run(state, (0, warrior("cavalry")), (1, PASS))
    assert state["ares_pile"] == [] and state["ares_disc"] == [ARES, ARES]


def test_battle_step_6_a_battle_discards_only_the_ares_it_was_fought_over_not_a_raid():
    """Step 6 moves the *used* cards to the discard piles. An Ares waits for a Land on the Land
    pile; a Raid is fought over an opponent's Land, not over that Ares, which stays in play."""
    state = table(hands=(["archers"], ["archers"]), actions=(["raid"], []), lands=([], ["hills_red"]),
                  ares_pile=1, ftop=["elite"])
    state, _ = run(state, (0, {"type": "draw_fate"}), (0, {"type": "play_action", "card": "raid", "land": "hills_red"}))
    assert state["battle"]["ares"] == 0
    state, _ = run(state, (0, warrior("archers")), (1, PASS))
    assert state["seats"][0]["lands"] == ["hills_red"]
    assert state["ares_pile"] == [ARES] and state["ares_disc"] == []


def test_battle_step_6_the_game_does_not_end_when_a_raid_is_fought_beside_the_sixth_ares():
    """"The game is over after the 6th Ares card is discarded": a Raid does not discard it."""
    state = table(hands=(["archers"], ["archers"]), actions=(["raid"], []), lands=([], ["hills_red"]),
                  ares_pile=1, ares_disc=5, ftop=["elite"])
    state, _ = run(state, (0, {"type": "draw_fate"}), (0, {"type": "play_action", "card": "raid", "land": "hills_red"}),
                   (0, warrior("archers")), (1, PASS))
    assert state["phase"] != "over" and len(state["ares_disc"]) == 5 and state["ares_pile"] == [ARES]
