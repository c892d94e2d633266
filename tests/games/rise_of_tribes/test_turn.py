"""Order of play: steps 1-3 and 5, winning and elimination (rulebook pages 4-9)."""
import pytest

from shared.games.rise_of_tribes.content import GOALS

from .helpers import GAME, Dice, activate, at, decision, give, hand, legal, place, play, run, types
from .scenarios import action_move, two


def _end_turn(state, seat, dice=("blank", "sun")):
    state = at(state, seat, kind="goals", step="goals")
    return play(state, seat, {"type": "end_turn"}, Dice(*dice))


# ----- step 1 ---------------------------------------------------------------------------------
def test_rule_step1_score_one_point_per_own_village():
    state = two({0: {0: 2}, 2: {0: 1}, 8: {1: 3}})
    state["village"][0] = 0
    state["village"][2] = 0
    state["village"][8] = 1
    state, events = _end_turn(state, 1)
    assert state["turn"]["seat"] == 0
    assert state["seats"][0]["score"] == 2 and state["seats"][1]["score"] == 0
    assert [e["data"]["points"] for e in events if e["type"] == "score"] == [2]


def test_rule_step1_no_villages_no_points():
    state, _ = _end_turn(two(), 1)
    assert state["seats"][0]["score"] == 0


# ----- step 2 ---------------------------------------------------------------------------------
def test_rule_step2_roll_two_dice_recorded_in_the_roll_event():
    state, events = _end_turn(two(), 1, ("sun", "moon"))
    rolled = [e for e in events if e["type"] == "rolled"]
    assert len(rolled) == 1 and rolled[0]["data"]["dice"] == ["sun", "moon"]
    assert state["turn"]["rolled"] == ["sun", "moon"]
    assert state["events"]["slots"] == [None, None]


@pytest.mark.parametrize("face", ["sun", "moon", "blank"])
def test_rule_step2_doubles_draw_an_event_into_an_empty_slot(face):
    state = two()
    state["events"]["deck"].remove("drought")
    state["events"]["deck"].insert(0, "drought")
    state, events = _end_turn(state, 1, (face, face))
    assert state["events"]["slots"][0]["id"] == "drought"
    assert [e["data"]["event"] for e in events if e["type"] == "event_drawn"] == ["drought"]


def test_rule_step2_no_event_when_both_slots_hold_active_events():
    state = two()
    activate(state, "plentiful_wood", 0, stock={"wood": 6})
    activate(state, "plentiful_food", 1, stock={"food": 6})
    deck = list(state["events"]["deck"])
    state, events = _end_turn(state, 1, ("moon", "moon"))
    assert state["events"]["deck"] == deck
    assert not any(e["type"] == "event_drawn" for e in events)
    assert decision(state)["kind"] == "action"  # the turn continues


def test_rule_step2_no_event_when_both_slots_full_even_if_an_active_event_leaves_on_that_roll():
    """"If both slots contain currently active events, then no additional event is triggered":
    Drought leaves on these doubles, its slot stays empty until the next doubles."""
    state = two()
    activate(state, "drought", 0)
    activate(state, "plentiful_food", 1, stock={"food": 6})
    deck = list(state["events"]["deck"])
    state, events = _end_turn(state, 1, ("sun", "sun"))
    assert [e["type"] for e in events if e["type"].startswith("event_")] == ["event_left"]
    assert state["events"]["slots"][0] is None and state["events"]["deck"] == deck
    assert state["events"]["discard"] == ["drought"]
    state, events = _end_turn(state, 0, ("moon", "moon"))
    assert state["events"]["slots"][0]["id"] == deck[0]  # the next doubles draw into it


def test_rule_step2_event_deck_reshuffled_from_discard_when_empty():
    state = two()
    state["events"]["discard"] = list(state["events"]["deck"])
    state["events"]["deck"] = []
    state, events = _end_turn(state, 1, ("sun", "sun"))
    assert any(e["type"] == "events_reshuffled" for e in events)
    reshuffle = next(e for e in events if e["type"] == "events_reshuffled")
    assert "order" not in GAME.redact(reshuffle, 0)["data"]
    assert state["events"]["slots"][0] is not None


# ----- step 3: dice ---------------------------------------------------------------------------
def test_rule_step3_die_goes_first_pushing_rightmost_out_as_loose_die():
    state = two(rolled=("sun", "blank"))
    state["dice"]["lead"] = ["moon", "blank", "sun"]
    state, _ = play(state, 0, {"type": "act", "action": "lead", "face": "sun"})
    assert state["dice"]["lead"] == ["sun", "moon", "blank"]
    assert state["loose"] == ["sun"]
    assert state["turn"]["rolled"] == ["blank"]


@pytest.mark.parametrize("column,face,strength", [
    (["moon", "sun", "sun"], "moon", "weak"),      # moons: moon + moon
    (["moon", "blank", "sun"], "sun", "standard"),
    (["sun", "moon", "moon"], "sun", "strong"),    # the pushed-out moon no longer counts
    (["blank", "blank", "sun"], "blank", "standard"),
    (["moon", "moon", "sun"], "sun", "weak"),
])
def test_rule_step3_strength_from_dice_now_on_the_action(column, face, strength):
    state = two(rolled=(face, "blank"))
    state["dice"]["lead"] = column
    state, events = play(state, 0, {"type": "act", "action": "lead", "face": face})
    assert next(e for e in events if e["type"] == "die_placed")["data"]["strength"] == strength


def test_rule_step3_two_actions_each_different():
    state = two(rolled=("sun", "blank"))
    state = run(state, 0, {"type": "act", "action": "lead", "face": "sun"})
    moves = legal(state, 0)
    assert {m["action"] for m in moves if m["type"] == "act"} == {"grow", "move", "gather"}
    assert {m["face"] for m in moves if m["type"] == "act"} == {"blank"}
    state = run(state, 0, {"type": "act", "action": "gather", "face": "blank"}, {"type": "done"})
    assert decision(state)["kind"] == "goals"


def test_rule_step3_each_action_resolved_before_the_next_die_is_placed():
    state = two(rolled=("sun", "blank"))
    state = run(state, 0, action_move(state, "grow", "standard"))
    assert decision(state)["kind"] == "grow"
    assert "act" not in types(state, 0)


# ----- GROW -----------------------------------------------------------------------------------
@pytest.mark.parametrize("strength,count", [("weak", 2), ("standard", 3), ("strong", 4)])
def test_rule_grow_adds_members_by_strength(strength, count):
    state = two()
    state = run(state, 0, action_move(state, "grow", strength))
    assert decision(state)["left"] == count
    for _ in range(count):
        state = run(state, 0, {"type": "grow", "hex": 0})
    assert state["pop"][0][0] == 2 + count
    assert state["seats"][0]["supply"] == 20 - 2 - count
    assert decision(state)["kind"] == "action"


def test_rule_grow_only_in_hexes_you_occupy():
    state = two({0: {0: 2}, 5: {0: 1}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "grow", "standard"))
    assert {m.get("hex") for m in legal(state, 0)} == {0, 5}


def test_rule_grow_adds_members_cannot_end_before_adding_one():
    """GROW: "Add the number of tribe members indicated": ``done`` only once a member is added
    (the additional ones may be declined, Mild Winter's clarification)."""
    state = two()
    state = run(state, 0, action_move(state, "grow", "standard"))
    assert {"type": "done"} not in legal(state, 0)
    state = run(state, 0, {"type": "grow", "hex": 0})
    assert {"type": "done"} in legal(state, 0)
    state = run(state, 0, {"type": "done"})
    assert state["pop"][0][0] == 3 and decision(state)["kind"] == "action"


def test_example_grow_split_between_hexes():
    """Rulebook p.5: a growth of 3 may be split among the hexes the tribe is in."""
    state = two({0: {0: 2}, 5: {0: 1}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "grow", "standard"),
                {"type": "grow", "hex": 0}, {"type": "grow", "hex": 5}, {"type": "grow", "hex": 5})
    assert state["pop"][0][0] == 3 and state["pop"][5][0] == 3


def test_rule_grow_limited_by_supply():
    state = two({0: {0: 19}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "grow", "strong"), {"type": "grow", "hex": 0})
    assert state["seats"][0]["supply"] == 0 and decision(state)["kind"] == "action"


# ----- MOVE -----------------------------------------------------------------------------------
def _move(state, src, dst, count, seat=0):
    return run(state, seat, {"type": "move_from", "hex": src}, {"type": "move_to", "hex": dst},
               {"type": "move_count", "count": count})


@pytest.mark.parametrize("strength,most", [("weak", 2), ("standard", 3), ("strong", 5)])
def test_rule_move_up_to_n_members_by_strength(strength, most):
    """"Move up to the number of tribe members indicated by the Action Board"."""
    state = two({4: {0: 6}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "move", strength), {"type": "move_from", "hex": 4},
                {"type": "move_to", "hex": 1})
    assert [m["count"] for m in legal(state, 0)] == list(range(1, most + 1))
    state = run(state, 0, {"type": "move_count", "count": most})
    assert state["pop"][1][0] == most and state["pop"][4][0] == 6 - most
    assert decision(state)["kind"] == "action"  # every move of the action is used


def test_rule_move_strength_is_a_number_of_one_hex_moves_split_among_groups_and_hexes():
    """MOVE 3 (rulebook p.5, read with "a base movement of 1 hex per move"): one member from hex 0
    to 1, then two from hex 2 to 5, in the same action; then the action is over."""
    state = two({0: {0: 3}, 2: {0: 2}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "move", "standard"))
    state = _move(state, 0, 1, 1)
    d = decision(state)
    assert d["kind"] == "move_from" and d["left"] == 2
    assert legal(state, 0) == [{"type": "move_from", "hex": 0}, {"type": "move_from", "hex": 2}, {"type": "done"}]
    state = run(state, 0, {"type": "move_from", "hex": 2}, {"type": "move_to", "hex": 5})
    assert [m["count"] for m in legal(state, 0)] == [1, 2]
    state = run(state, 0, {"type": "move_count", "count": 2})
    assert [row[0] for row in state["pop"]] == [2, 1, 0, 0, 0, 2, 0, 0, 0]
    assert decision(state)["kind"] == "action"


def test_rule_move_split_from_one_hex_to_two_neighbours():
    state = two({4: {0: 5}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "move", "strong"))
    state = _move(state, 4, 1, 2)
    state = _move(state, 4, 7, 3)
    assert state["pop"][4][0] == 0 and state["pop"][1][0] == 2 and state["pop"][7][0] == 3


def test_rule_move_a_single_tribe_member_can_only_be_moved_once_in_a_turn():
    """"A single tribe member can only be moved once in a turn": with moves left, the members
    that arrived in hex 1 cannot go on to hex 2; only hex 1's unmoved member may still move."""
    state = two({0: {0: 2}, 1: {0: 1}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "move", "strong"))
    state = _move(state, 0, 1, 2)
    assert decision(state)["left"] == 3
    assert legal(state, 0) == [{"type": "move_from", "hex": 1}, {"type": "done"}]
    state = run(state, 0, {"type": "move_from", "hex": 1}, {"type": "move_to", "hex": 2})
    assert [m["count"] for m in legal(state, 0)] == [1]  # 3 moves left, one unmoved member
    state = run(state, 0, {"type": "move_count", "count": 1})
    assert state["pop"][1][0] == 2 and state["pop"][2][0] == 1
    assert decision(state)["kind"] == "action"  # nobody left who has not moved
    assert state["turn"]["moved"][1] == 2 and state["turn"]["moved"][2] == 1


def test_rule_move_base_movement_of_one_hex_per_move():
    state = two({0: {0: 3}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "move", "standard"), {"type": "move_from", "hex": 0})
    assert sorted(m["hex"] for m in legal(state, 0)) == [1, 3]


def test_rule_move_neither_terrain_nor_opponents_affect_movement():
    state = two({4: {0: 3}, 5: {1: 3}})
    state = run(state, 0, action_move(state, "move", "standard"), {"type": "move_from", "hex": 4})
    assert 5 in {m["hex"] for m in legal(state, 0)}


def test_rule_move_up_to_may_move_nobody_or_stop_early():
    state = two()
    state = run(state, 0, action_move(state, "move", "standard"), {"type": "done"})
    assert state["pop"][0][0] == 2 and decision(state)["kind"] == "action"
    state = two({0: {0: 3}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "move", "strong"))
    state = _move(state, 0, 1, 1)
    state = run(state, 0, {"type": "done"})
    assert state["pop"][0][0] == 2 and decision(state)["kind"] == "action"


# ----- GATHER ---------------------------------------------------------------------------------
@pytest.mark.parametrize("strength,hexes", [("weak", 1), ("standard", 2), ("strong", 3)])
def test_rule_gather_hexes_by_strength(strength, hexes):
    state = two({0: {0: 1}, 1: {0: 1}, 6: {0: 1}, 8: {1: 3}})  # three lakes
    state = run(state, 0, action_move(state, "gather", strength))
    for h in (0, 1, 6)[:hexes]:
        state = run(state, 0, {"type": "gather", "hex": h})
    assert state["seats"][0]["res"]["food"] == 2 * hexes
    assert decision(state)["kind"] == "action"


def test_example_gather_two_lakes_gives_four_food():
    """Rulebook p.5: 2 hexes x 2 resources from the two lakes occupied -> 4 food."""
    state = two({0: {0: 1}, 1: {0: 2}, 2: {0: 1}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "gather", "standard"), {"type": "gather", "hex": 0},
                {"type": "gather", "hex": 1})
    assert state["seats"][0]["res"] == {"food": 4, "wood": 0, "stone": 0}
    assert state["turn"]["gathered"] == 4


def test_example_gather_lake_and_forest_gives_two_food_two_wood():
    state = two({0: {0: 1}, 1: {0: 2}, 2: {0: 1}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "gather", "standard"), {"type": "gather", "hex": 1},
                {"type": "gather", "hex": 2})
    assert state["seats"][0]["res"] == {"food": 2, "wood": 2, "stone": 0}


def test_rule_gather_only_from_occupied_hexes_each_once():
    state = two({0: {0: 1}, 2: {0: 1}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "gather", "strong"), {"type": "gather", "hex": 0})
    assert {m.get("hex") for m in legal(state, 0)} == {2, None}


def test_rule_gather_limited_by_supply():
    state = two({0: {0: 1}, 8: {1: 3}})
    state["supply"]["food"] = 1
    state = run(state, 0, action_move(state, "gather", "standard"), {"type": "gather", "hex": 0})
    assert state["seats"][0]["res"]["food"] == 1 and state["supply"]["food"] == 0


# ----- LEAD -----------------------------------------------------------------------------------
@pytest.mark.parametrize("strength,cards", [("weak", 1), ("standard", 2), ("strong", 3)])
def test_rule_lead_draws_goal_cards_face_up_by_strength(strength, cards):
    state = two()
    top = state["seats"][0]["deck"][:cards]
    state, events = play(state, 0, action_move(state, "lead", strength))
    assert state["seats"][0]["progress"] == top
    drawn = next(e for e in events if e["type"] == "goals_drawn")
    assert drawn["data"]["cards"] == top  # face up: everyone sees them
    assert len(state["seats"][0]["deck"]) == 14 - cards


def test_rule_lead_recycle_up_to_one_goal_per_village_before_drawing():
    state = two({0: {0: 2}, 2: {0: 1}, 8: {1: 3}})
    state["village"][0] = 0
    hand(state, 0, "conquest", "harvest", "settlers")
    state = run(state, 0, action_move(state, "lead", "weak"))
    assert decision(state)["kind"] == "recycle" and decision(state)["left"] == 1
    deck_before = list(state["seats"][0]["deck"])
    state, events = play(state, 0, {"type": "recycle", "card": "conquest"})
    # returned to the bottom first, then 1 + 1 drawn from the top
    assert [e["type"] for e in events if e["type"].startswith("goals_")] == ["goals_recycled", "goals_drawn"]
    assert state["seats"][0]["deck"][-1] == "conquest"
    assert state["seats"][0]["progress"] == ["harvest", "settlers"] + deck_before[:2]


def test_rule_lead_all_recycled_cards_returned_before_any_drawn():
    state = two({0: {0: 2}, 2: {0: 1}, 8: {1: 3}})
    state["village"][0] = 0
    state["village"][2] = 0
    hand(state, 0, "conquest", "harvest")
    state = run(state, 0, action_move(state, "lead", "weak"), {"type": "recycle", "card": "conquest"})
    assert decision(state)["kind"] == "recycle"  # nothing drawn yet
    assert len(state["seats"][0]["progress"]) == 1
    state = run(state, 0, {"type": "recycle", "card": "harvest"})
    assert len(state["seats"][0]["progress"]) == 3  # 1 + 2 recycled


def test_rule_lead_recycling_is_optional():
    state = two()
    state["village"][0] = 0
    hand(state, 0, "conquest")
    state = run(state, 0, action_move(state, "lead", "standard"), {"type": "done"})
    assert len(state["seats"][0]["progress"]) == 3


# ----- step 5 ---------------------------------------------------------------------------------
def test_rule_step5_development_costs_resources_gives_ability_and_a_point():
    state = at(two(), 0, kind="goals", step="goals")
    hand(state, 0, "agriculture")
    assert "complete" not in types(state, 0)
    give(state, 0, food=2, wood=1)
    state = run(state, 0, {"type": "complete", "card": "agriculture"})
    s = state["seats"][0]
    assert s["score"] == 1 and s["done"] == ["agriculture"] and sum(s["res"].values()) == 0
    state = at(state, 0)
    state = run(state, 0, action_move(state, "grow", "standard"))
    assert decision(state)["left"] == 3 + 2  # "add 2 additional tribe members"


def test_rule_step5_achievement_checks_position_and_scores_2_to_4():
    state = two({0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 3: {0: 1}, 8: {1: 3}})
    state = at(state, 0, kind="goals", step="goals")
    hand(state, 0, "explorers")
    assert "complete" not in types(state, 0)  # occupies 4 of the 5 hexes needed
    place(state, {5: {0: 1}})
    state = run(state, 0, {"type": "complete", "card": "explorers"})
    assert state["seats"][0]["score"] == GOALS["explorers"]["points"] == 2
    assert all(2 <= c["points"] <= 4 for c in GOALS.values() if c["kind"] == "achievement")
    assert all(c["points"] == 1 for c in GOALS.values() if c["kind"] == "development")


@pytest.mark.parametrize("card,pop,ok", [
    ("dominion", {0: {0: 1}, 2: {0: 1}, 4: {0: 1}}, True),
    ("dominion", {0: {0: 1}, 2: {0: 1, 1: 1}, 4: {0: 1}}, False),
    ("strongholds", {0: {0: 2, 1: 1}, 2: {0: 1}, 4: {0: 3, 1: 2}}, True),
    ("strongholds", {0: {0: 2, 1: 2}, 2: {0: 1}, 4: {0: 3, 1: 2}}, False),
    ("homeland", {0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 5: {0: 1}}, True),
    ("homeland", {0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 8: {0: 1}}, False),
    ("conquest", {0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 3: {0: 1}}, True),
    ("great_tribe", {0: {0: 5}, 1: {0: 5}, 2: {0: 4}}, True),
    ("great_tribe", {0: {0: 5}, 1: {0: 5}, 2: {0: 3}}, False),
])
def test_rule_goal_terms_occupation_majority_control(card, pop, ok):
    state = two(pop)
    state = at(state, 0, kind="goals", step="goals")
    hand(state, 0, card)
    assert ({"type": "complete", "card": card} in legal(state, 0)) == ok


def test_rule_harvest_counts_gathered_resources_not_event_resources():
    """Harvest (gather 5 this turn; "resources from events do not count"): two lake hexes with
    Plentiful Food bring 8 food, but only 4 were gathered, so after a second action that gathers
    nothing the goal cannot be completed."""
    state = two({0: {0: 2}, 1: {0: 1}, 8: {1: 3}})
    activate(state, "plentiful_food", 0, stock={"food": 6})
    hand(state, 0, "harvest")
    state = run(state, 0, action_move(state, "gather", "standard"), {"type": "gather", "hex": 0},
                {"type": "gather", "hex": 1})
    assert state["seats"][0]["res"]["food"] == 8 and state["turn"]["gathered"] == 4
    state = run(state, 0, action_move(state, "grow", "weak"), {"type": "grow", "hex": 0}, {"type": "done"})
    assert decision(state)["kind"] == "goals"
    assert "complete" not in types(state, 0)


def test_rule_harvest_completed_by_gathering_five_or_more():
    """A strong GATHER of three hexes gathers 6 >= 5: after the second action the goal scores."""
    state = two({0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 8: {1: 3}})
    hand(state, 0, "harvest")
    state = run(state, 0, action_move(state, "gather", "strong"), {"type": "gather", "hex": 0},
                {"type": "gather", "hex": 1}, {"type": "gather", "hex": 2})
    assert state["turn"]["gathered"] == 6 and decision(state)["kind"] == "action"
    state = run(state, 0, action_move(state, "grow", "weak"), {"type": "grow", "hex": 0}, {"type": "done"})
    assert decision(state)["kind"] == "goals"
    assert {"type": "complete", "card": "harvest"} in legal(state, 0)
    score = state["seats"][0]["score"]
    state = run(state, 0, {"type": "complete", "card": "harvest"})
    assert state["seats"][0]["score"] == score + 2 and "harvest" in state["seats"][0]["done"]


def test_rule_step5_completing_is_optional_and_points_never_lost():
    state = two({0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 3: {0: 1}, 8: {1: 3}})
    state = at(state, 0, kind="goals", step="goals")
    hand(state, 0, "conquest")
    assert {"type": "end_turn"} in legal(state, 0)
    state = run(state, 0, {"type": "complete", "card": "conquest"})
    state["pop"][1][0] = 0
    state["pop"][1][1] = 3
    assert state["seats"][0]["score"] == 4 and state["seats"][0]["done"] == ["conquest"]


def test_rule_step5_build_village_pays_tribe_board_cost():
    state = two({0: {0: 2}, 2: {0: 1, 1: 1}, 8: {1: 3}})  # seat 0 is Daba: 2 food 1 wood 3 stone
    state["village"][2] = 1
    state = at(state, 0, kind="goals", step="goals")
    give(state, 0, food=2, wood=1, stone=2)
    assert "build" not in types(state, 0)
    give(state, 0, stone=1)
    assert [m for m in legal(state, 0) if m["type"] == "build"] == [{"type": "build", "hex": 0}]
    state = run(state, 0, {"type": "build", "hex": 0})
    assert state["village"][0] == 0 and state["supply"]["villages"] == 11
    assert sum(state["seats"][0]["res"].values()) == 0


def test_rule_village_destroyed_at_once_without_owner_members():
    state = two({0: {0: 2}, 8: {1: 3}})
    state["village"][0] = 0
    state["supply"]["villages"] = 11
    state = run(state, 0, action_move(state, "move", "standard"))
    state = _move(state, 0, 1, 2)
    assert state["village"][0] is None and state["supply"]["villages"] == 12


def test_rule_village_supply_limits_building():
    state = at(two(), 0, kind="goals", step="goals")
    give(state, 0, food=5, wood=5, stone=5)
    state["supply"]["villages"] = 0
    assert "build" not in types(state, 0)


# ----- winning and elimination ------------------------------------------------------------------
def test_rule_win_the_moment_a_player_reaches_15():
    state = two({0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 3: {0: 1}, 8: {1: 3}})
    state = at(state, 0, kind="goals", step="goals")
    state["seats"][0]["score"] = 11
    hand(state, 0, "conquest", "explorers")
    state = run(state, 0, {"type": "complete", "card": "conquest"})
    assert state["winner"] == 0
    result = GAME.outcome(state)
    assert result.ranks == [1, 2] and result.scores == [15, 0]
    assert legal(state, 0) == [] and GAME.to_act(state) == []


def test_rule_win_at_start_of_turn_from_villages():
    state = two({0: {0: 2}, 8: {1: 3}})
    state["village"][0] = 0
    state["seats"][0]["score"] = 14
    state, events = _end_turn(state, 1)
    assert state["winner"] == 0 and not any(e["type"] == "rolled" for e in events)


def test_rule_eliminated_player_reenters_with_two_members_unoccupied_if_possible():
    state = two({0: {0: 0}, 8: {1: 3}})
    state, _ = _end_turn(state, 1)
    d = decision(state)
    assert d["kind"] == "reenter" and d["seat"] == 0
    assert 8 not in {m["hex"] for m in legal(state, 0)}
    state = run(state, 0, {"type": "reenter", "hex": 4})
    assert state["pop"][4][0] == 2 and decision(state)["kind"] == "action"


def test_rule_reentry_into_occupied_hex_only_when_all_occupied():
    state = two({h: {1: 1} for h in range(9)})
    state, _ = _end_turn(state, 1)
    assert len(legal(state, 0)) == 9


def test_rule_reentry_a_hex_holding_only_invaders_is_unoccupied():
    """Elimination: "unoccupied if possible" counts tribe members; Invaders alone do not occupy
    a hex (rulebook "Occupation: at least one of player's tribe members is on the hex")."""
    state = two({0: {0: 0}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=4, tokens=3)
    state, _ = _end_turn(state, 1)
    assert {m["hex"] for m in legal(state, 0)} == set(range(8))  # 4 included, 8 not
    state = two({h: {1: 1} for h in range(9) if h != 4})
    activate(state, "invaders", 0, hex=4, tokens=3)
    state, _ = _end_turn(state, 1)
    assert legal(state, 0) == [{"type": "reenter", "hex": 4}]


# ----- development abilities ------------------------------------------------------------------
def test_rule_developments_abilities_last_the_rest_of_the_game():
    state = two({0: {0: 4}, 2: {0: 1}, 4: {0: 1}, 8: {1: 3}})
    from shared.games.rise_of_tribes.actions import numbers

    base = {a: numbers(state, 0, a, "standard") for a in ("grow", "move", "gather", "lead")}
    from .helpers import develop

    develop(state, 0, "agriculture", "oxen", "basketry", "stone_tools", "storytelling")
    boosted = {a: numbers(state, 0, a, "standard") for a in ("grow", "move", "gather", "lead")}
    assert boosted["grow"]["members"] == base["grow"]["members"] + 2
    assert boosted["move"]["members"] == base["move"]["members"] + 2
    assert boosted["gather"] == {"hexes": base["gather"]["hexes"] + 1, "per_hex": base["gather"]["per_hex"] + 1}
    assert boosted["lead"]["cards"] == base["lead"]["cards"] + 1
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 0},
                {"type": "gather", "hex": 2})
    assert state["seats"][0]["res"] == {"food": 3, "wood": 3, "stone": 0}


def test_rule_pottery_extra_resource_from_a_hex_shared_with_an_opponent():
    from .helpers import develop, fresh

    state = fresh(3, terrain=["lake", "forest", "mountain"] * 4, tribes=("daba", "kaha", "tunga"))
    place(state, {0: {0: 1, 1: 1}, 1: {0: 1}, 5: {2: 1}})
    state = at(state, 0)
    develop(state, 0, "pottery")
    state = run(state, 0, action_move(state, "gather", "standard"), {"type": "gather", "hex": 0},
                {"type": "gather", "hex": 1})
    assert state["seats"][0]["res"] == {"food": 3, "wood": 2, "stone": 0}


def test_rule_step5_complete_any_number_of_goals_and_build_in_any_order():
    state = two({0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 3: {0: 1}, 4: {0: 1}, 8: {1: 3}})
    state = at(state, 0, kind="goals", step="goals")
    hand(state, 0, "conquest", "explorers", "oxen")
    give(state, 0, food=5, wood=1, stone=3)
    state = run(state, 0, {"type": "build", "hex": 4}, {"type": "complete", "card": "conquest"},
                {"type": "complete", "card": "explorers"})
    assert state["seats"][0]["score"] == 6 and state["village"][4] == 0
    assert {"type": "complete", "card": "oxen"} in legal(state, 0)


def test_rule_grow_with_an_empty_supply_adds_nobody_and_asks_nothing():
    """GROW takes members from the supply: with none left, the action adds nobody."""
    state = two({0: {0: 20}, 8: {1: 3}})
    assert state["seats"][0]["supply"] == 0
    state = run(state, 0, action_move(state, "grow", "strong"))
    assert decision(state)["kind"] == "action" and state["pop"][0][0] == 20


def test_rule_grow_with_one_member_left_in_the_supply_adds_exactly_one():
    state = two({0: {0: 19}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "grow", "standard"))
    assert decision(state)["kind"] == "grow" and legal(state, 0) == [{"type": "grow", "hex": 0}]
    state = run(state, 0, {"type": "grow", "hex": 0})
    assert state["pop"][0][0] == 20 and decision(state)["kind"] == "action"


def _datas(events, kind):
    """The data of every event of ``kind`` among ``events``."""
    return [e["data"] for e in events if e["type"] == kind]


def test_rule_grow_with_two_members_left_in_the_supply_adds_exactly_two():
    """GROW takes members from the supply: a strong GROW (4) with 2 left adds 2, asking for each."""
    state = two({0: {0: 18}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "grow", "strong"), {"type": "grow", "hex": 0})
    assert decision(state) == dict(decision(state), kind="grow", left=3, grown=1)
    state = run(state, 0, {"type": "grow", "hex": 0})
    assert state["pop"][0][0] == 20 and decision(state)["kind"] == "action"


def test_rule_gather_with_every_occupied_hex_blocked_gathers_nothing_and_the_turn_goes_on():
    """Invaders forbid gathering in their hex: a GATHER with no other hex takes nothing."""
    state = two({0: {0: 2}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=0, tokens=1)
    state, events = play(state, 0, action_move(state, "gather", "strong"))
    assert decision(state)["kind"] == "action" and _datas(events, "resources") == []
    assert state["seats"][0]["res"] == {"food": 0, "wood": 0, "stone": 0}


def test_rule_gather_from_an_exhausted_supply_takes_and_records_nothing():
    """Gathering is limited to what is left in the supply: with no food left, no resources move."""
    state = two({0: {0: 2}, 8: {1: 3}})
    state["supply"]["food"] = 0
    state = run(state, 0, action_move(state, "gather", "weak"))
    state, events = play(state, 0, {"type": "gather", "hex": 0})
    assert _datas(events, "resources") == [] and state["seats"][0]["res"]["food"] == 0


def test_rule_harvest_completed_by_gathering_exactly_five():
    """Harvest: "gather 5 or more resources": 4 food then 1 wood (the supply's last) is enough."""
    state = two({0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 8: {1: 3}})
    hand(state, 0, "harvest")
    state["supply"]["wood"] = 1
    state = run(state, 0, action_move(state, "gather", "strong"), {"type": "gather", "hex": 0},
                {"type": "gather", "hex": 1}, {"type": "gather", "hex": 2})
    assert state["turn"]["gathered"] == 5
    state = run(state, 0, action_move(state, "grow", "weak"), {"type": "grow", "hex": 0}, {"type": "done"})
    assert {"type": "complete", "card": "harvest"} in legal(state, 0)


def test_rule_village_the_last_village_of_the_supply_can_be_built():
    state = at(two(), 0, kind="goals", step="goals")
    give(state, 0, food=2, wood=1, stone=3)
    state["supply"]["villages"] = 1
    assert [m for m in legal(state, 0) if m["type"] == "build"] == [{"type": "build", "hex": 0}]


TURN_FIELDS = {"seat", "number", "step", "rolled", "actions", "moved", "gathered", "used", "fight", "fought", "placed"}


def test_rule_step2_a_new_turn_rolls_with_no_loose_die_left():
    """A new turn: the turn record is fresh and the dice pushed out last turn are rolled again."""
    state = at(two(), 1, kind="goals", step="goals")
    state["loose"] = ["moon"]
    state = run(state, 1, {"type": "end_turn"}, rng=Dice("sun", "blank"))
    assert set(state["turn"]) == TURN_FIELDS and state["loose"] == []
    assert state["turn"]["seat"] == 0 and state["turn"]["rolled"] == ["sun", "blank"]


def test_rule_move_members_arriving_in_one_hex_from_two_groups_have_both_moved():
    """A member moves once a turn: after 1 from hex 0 and 1 from hex 4 entered hex 1, of its 3
    members only the one already there may still move."""
    state = two({0: {0: 1}, 1: {0: 1}, 4: {0: 1}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "move", "strong"))
    state = _move(state, 0, 1, 1)
    state = _move(state, 4, 1, 1)
    state = run(state, 0, {"type": "move_from", "hex": 1}, {"type": "move_to", "hex": 2})
    assert legal(state, 0) == [{"type": "move_count", "count": 1}]


def test_rule_step5_villages_built_are_counted_on_the_player_board():
    state = at(two({0: {0: 2}, 1: {0: 1}, 8: {1: 3}}), 0, kind="goals", step="goals")
    give(state, 0, food=4, wood=2, stone=6)
    state = run(state, 0, {"type": "build", "hex": 0}, {"type": "build", "hex": 1})
    assert state["seats"][0]["built"] == 2


def test_rule_only_the_player_a_decision_waits_for_has_moves():
    state = two()
    assert legal(state, 0) and legal(state, 1) == []


def test_rule_a_decision_answered_is_recorded_as_resolved():
    state = two({0: {0: 2}, 8: {1: 3}})
    state = run(state, 0, action_move(state, "grow", "weak"), {"type": "grow", "hex": 0})
    state, events = play(state, 0, {"type": "grow", "hex": 0})
    assert [e["data"] for e in events if e["type"] == "resolved"] == [{}]


def test_rule_no_decision_between_the_steps_of_a_turn():
    from shared.games.rise_of_tribes.moves import top

    state = two()
    state["turn"]["step"], state["pending"] = "conflict", []
    assert top(state) is None


def test_rule_win_outcome_names_the_winner_and_the_turns_played():
    state = two({0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 3: {0: 1}, 8: {1: 3}})
    state = at(state, 0, kind="goals", step="goals")
    state["seats"][0]["score"] = 11
    hand(state, 0, "conquest")
    state = run(state, 0, {"type": "complete", "card": "conquest"})
    assert GAME.outcome(state).details == {"winner": 0, "turns": 5}
