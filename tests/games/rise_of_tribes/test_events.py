"""Events (rulebook pages 7-8) and every card of data/events.json."""
import pytest

from shared.games.rise_of_tribes.board import population_limit

from shared.engine.errors import IllegalMove

from .helpers import GAME, Dice, activate, at, decision, give, legal, place, play, run, types
from .scenarios import action_move, two


def draw_on_doubles(state, event_id, seat=0, face="sun"):
    """The previous player ends the turn; ``seat`` rolls doubles and draws ``event_id``."""
    state["events"]["deck"].remove(event_id)
    state["events"]["deck"].insert(0, event_id)
    prev = (seat - 1) % state["n"]
    state = at(state, prev, kind="goals", step="goals")
    return play(state, prev, {"type": "end_turn"}, Dice(face, face))


def slot(state, event_id):
    return next(s for s in state["events"]["slots"] if s and s["id"] == event_id)


# ----- Plentiful Food / Stone / Wood ----------------------------------------------------------
@pytest.mark.parametrize("event,resource,hexes", [
    ("plentiful_food", "food", (0, 1)), ("plentiful_stone", "stone", (4, 5)), ("plentiful_wood", "wood", (2, 3)),
])
def test_event_plentiful_gives_two_extra_per_tile_from_the_card(event, resource, hexes):
    state, _ = draw_on_doubles(two({hexes[0]: {0: 1}, hexes[1]: {0: 1}, 8: {1: 3}}), event)
    assert slot(state, event)["stock"] == {resource: 6} and state["supply"][resource] == 18
    state = run(state, 0, action_move(state, "gather", "standard"), {"type": "gather", "hex": hexes[0]},
                {"type": "gather", "hex": hexes[1]})
    assert state["seats"][0]["res"][resource] == 4 + 4  # 2 per hex + 2 per hex from the card
    assert slot(state, event)["stock"] == {resource: 2}
    assert state["turn"]["gathered"] == 4


def test_event_plentiful_wood_leaves_when_empty():
    state = two({2: {0: 1}, 3: {0: 1}, 7: {0: 1}, 8: {1: 3}})
    activate(state, "plentiful_wood", 0, stock={"wood": 4})
    state = run(state, 0, action_move(state, "gather", "strong"), {"type": "gather", "hex": 2},
                {"type": "gather", "hex": 3}, {"type": "gather", "hex": 7})
    assert state["seats"][0]["res"]["wood"] == 6 + 4
    assert state["events"]["slots"][0] is None and state["events"]["discard"] == ["plentiful_wood"]


def test_event_plentiful_food_ignores_other_terrain():
    state = two({2: {0: 1}, 8: {1: 3}})
    activate(state, "plentiful_food", 0, stock={"food": 6})
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 2})
    assert state["seats"][0]["res"] == {"food": 0, "wood": 2, "stone": 0}


# ----- Mild Winter -------------------------------------------------------------------------------
def test_event_mild_winter_grow_two_more_and_a_token_per_grow():
    state, _ = draw_on_doubles(two(), "mild_winter")
    assert slot(state, "mild_winter")["stock"] == {"food": 2}  # one per player
    state = run(state, 0, action_move(state, "grow", "standard"))
    assert decision(state)["left"] == 3 + 2
    assert slot(state, "mild_winter")["stock"] == {"food": 1}


def test_event_mild_winter_token_removed_whether_or_not_the_additional_members_grow():
    """Rulebook p.8: "A token is removed from the card whenever a player takes the GROW action,
    whether or not they grow the additional tribe members"; the card leaves when empty."""
    state = two()
    activate(state, "mild_winter", 1, stock={"food": 1})
    state = run(state, 0, action_move(state, "grow", "standard"), {"type": "grow", "hex": 0}, {"type": "done"})
    assert state["pop"][0][0] == 3
    assert state["events"]["slots"][1] is None and state["events"]["discard"] == ["mild_winter"]


# ----- Drought ----------------------------------------------------------------------------------
def test_event_drought_population_limit_four_from_the_conflict_of_the_turn_drawn():
    state = two({4: {0: 5}, 8: {1: 1}})
    state, _ = draw_on_doubles(state, "drought")
    assert population_limit(state) == 4
    state = run(state, 0, {"type": "act", "action": "lead", "face": "sun"},
                {"type": "act", "action": "move", "face": "sun"}, {"type": "done"})
    assert state["pop"][4][0] == 4


def test_event_drought_leaves_on_later_doubles():
    state = two()
    activate(state, "drought", 0)
    state["events"]["deck"].remove("altar")
    state["events"]["deck"].insert(0, "altar")
    state = at(state, 1, kind="goals", step="goals")
    state, _ = play(state, 1, {"type": "end_turn"}, Dice("moon", "moon"))
    assert "drought" in state["events"]["discard"]
    assert population_limit(state) == 5
    assert state["events"]["slots"][0]["id"] == "altar"  # the freed slot takes the new event


# ----- Mammoth ----------------------------------------------------------------------------------
def test_event_mammoth_on_least_populated_hex_active_player_breaks_ties():
    state = two({h: {0: 1} for h in range(9)})
    state["pop"][3] = [0, 0]
    state["pop"][6] = [0, 0]
    state, _ = draw_on_doubles(state, "mammoth")
    d = decision(state)
    assert d["kind"] == "place_token" and d["seat"] == 0
    assert sorted(m["hex"] for m in legal(state, 0)) == [3, 6]  # empty hexes count
    state = run(state, 0, {"type": "place_token", "hex": 6})
    assert slot(state, "mammoth")["hex"] == 6


def test_event_mammoth_single_least_populated_hex_placed_automatically():
    state = two({h: ({0: 1, 1: 1} if h == 0 else {1: 1}) for h in range(9)})
    state["pop"][5] = [0, 0]
    state, _ = draw_on_doubles(state, "mammoth")
    assert slot(state, "mammoth")["hex"] == 5


def test_event_mammoth_hunt_with_four_members_food_and_a_point():
    state = two({6: {0: 3}, 8: {1: 3}})
    activate(state, "mammoth", 0, hex=6, tokens=1)
    state = at(state, 0, kind="goals", step="goals")
    assert "hunt" not in types(state, 0)
    state["pop"][6][0] = 4
    state = run(state, 0, {"type": "hunt", "event": "mammoth"})
    assert state["seats"][0]["score"] == 1 and state["seats"][0]["res"]["food"] == 3
    assert state["events"]["slots"][0] is None


@pytest.mark.parametrize("event_id", ["mammoth", "invaders"])
def test_event_placement_must_take_an_empty_hex_when_one_exists(event_id):
    """Clarification: the least populated hex, empty ones included. With two empty hexes among
    occupied ones, the active player may choose only those two; any other hex is refused."""
    state = two({h: {0: 1} for h in range(9) if h not in (3, 7)} | {8: {0: 1, 1: 1}})
    state, _ = draw_on_doubles(state, event_id)
    d = decision(state)
    assert d["kind"] == "place_token" and d["seat"] == 0
    assert legal(state, 0) == [{"type": "place_token", "hex": 3}, {"type": "place_token", "hex": 7}]
    for occupied in (0, 4, 8):
        with pytest.raises(IllegalMove):
            GAME.decide(state, 0, {"type": "place_token", "hex": occupied}, None)
    state = run(state, 0, {"type": "place_token", "hex": 7})
    assert slot(state, event_id)["hex"] == 7


# ----- Invaders ---------------------------------------------------------------------------------
def test_event_invaders_placed_on_least_populated_hex():
    state = two({h: ({0: 1, 1: 1} if h == 0 else {1: 1}) for h in range(9)})
    state["pop"][2] = [0, 0]
    state, _ = draw_on_doubles(state, "invaders")
    assert slot(state, "invaders")["hex"] == 2 and slot(state, "invaders")["tokens"] == 3


def test_event_invaders_block_gather_and_village_building_in_their_hex():
    state = two({0: {0: 2}, 1: {0: 1}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=0, tokens=3)
    state = run(state, 0, action_move(state, "gather", "standard"))
    assert {m.get("hex") for m in legal(state, 0)} == {1, None}
    state = at(state, 0, kind="goals", step="goals")
    give(state, 0, food=5, wood=5, stone=5)
    assert {m["hex"] for m in legal(state, 0) if m["type"] == "build"} == {1}


def test_event_invaders_fight_in_conflict_and_last_one_scores_two():
    state = two({0: {0: 4}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=0, tokens=3)
    state["turn"]["actions"] = ["lead"]
    state["turn"]["rolled"] = ["blank"]
    state = run(state, 0, {"type": "act", "action": "move", "face": "blank"}, {"type": "done"})
    assert state["pop"][0][0] == 1
    assert state["events"]["slots"][0] is None
    assert state["seats"][0]["score"] == 2


def test_event_invaders_only_the_active_player_who_removes_the_last_one_scores():
    """Invaders: "The active player who removes the last Invader in a conflict scores 2 points".
    The current player (1 member) falls in the first round; seat 1 removes the last Invader in
    the third: nobody scores (seat 1 is not the active player)."""
    state = two({0: {0: 1, 1: 4}, 5: {0: 1}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=0, tokens=3)
    state["turn"]["actions"] = ["lead"]
    state["turn"]["rolled"] = ["blank"]
    state = run(state, 0, {"type": "act", "action": "move", "face": "blank"}, {"type": "done"})
    assert state["pop"][0] == [0, 1] and state["events"]["slots"][0] is None
    assert [s["score"] for s in state["seats"]] == [0, 0]


def test_event_invaders_active_player_present_in_the_last_round_scores_with_another_side():
    state = two({0: {0: 3, 1: 3}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=0, tokens=2)
    state["turn"]["actions"] = ["lead"]
    state["turn"]["rolled"] = ["blank"]
    state = run(state, 0, {"type": "act", "action": "move", "face": "blank"}, {"type": "done"})
    assert state["pop"][0] == [0, 0]  # rounds: [2,2]+1, [1,1]+0, [0,0]
    assert state["seats"][0]["score"] == 2


def test_event_invaders_grow_by_one_on_later_doubles_max_five():
    """(and, both slots being full on that roll, no event is drawn into the slot Drought frees)"""
    state = two()
    activate(state, "invaders", 0, hex=4, tokens=4)
    activate(state, "drought", 1)
    state = at(state, 1, kind="goals", step="goals")
    state, _ = play(state, 1, {"type": "end_turn"}, Dice("blank", "blank"))
    assert slot(state, "invaders")["tokens"] == 5
    assert state["events"]["slots"][1] is None
    state = at(state, 1, kind="goals", step="goals")
    state["events"]["slots"][1] = {"id": "altar", "stock": {}, "hex": None, "tokens": 0, "paid": 0}
    state["events"]["deck"].remove("altar")
    state, _ = play(state, 1, {"type": "end_turn"}, Dice("blank", "blank"))
    assert slot(state, "invaders")["tokens"] == 5


# ----- Sabertooth Tiger -------------------------------------------------------------------------
def test_event_tiger_on_a_mountain_removes_one_member_of_each_player_there():
    state = two({4: {0: 2, 1: 2}, 0: {0: 1}, 8: {1: 1}})
    state, _ = draw_on_doubles(state, "sabertooth_tiger")
    assert sorted(m["hex"] for m in legal(state, 0)) == [4, 5, 8]
    state = run(state, 0, {"type": "place_token", "hex": 4})
    assert state["pop"][4] == [1, 1]


def test_event_tiger_hunted_by_sacrificing_a_member_for_a_point():
    state = two({4: {0: 2}, 8: {1: 1}})
    activate(state, "sabertooth_tiger", 0, hex=4, tokens=1)
    state = at(state, 0, kind="goals", step="goals")
    state = run(state, 0, {"type": "hunt", "event": "sabertooth_tiger"})
    assert state["pop"][4][0] == 1 and state["seats"][0]["score"] == 1
    assert state["events"]["discard"] == ["sabertooth_tiger"]


def test_event_tiger_moves_to_another_mountain_on_later_doubles():
    state = two({5: {1: 2}, 0: {0: 1}, 8: {1: 1}})
    activate(state, "sabertooth_tiger", 0, hex=4, tokens=1)
    activate(state, "plentiful_food", 1, stock={"food": 6})
    state = at(state, 1, kind="goals", step="goals")
    state, _ = play(state, 1, {"type": "end_turn"}, Dice("sun", "sun"))
    assert sorted(m["hex"] for m in legal(state, 0)) == [5, 8]
    state = run(state, 0, {"type": "place_token", "hex": 5})
    assert slot(state, "sabertooth_tiger")["hex"] == 5 and state["pop"][5][1] == 1


# ----- Discovery --------------------------------------------------------------------------------
def test_event_discovery_move_into_opponent_only_hex_takes_any_resource():
    state, _ = draw_on_doubles(two({0: {0: 3}, 1: {1: 1}, 8: {1: 3}}), "discovery")
    assert slot(state, "discovery")["stock"] == {"food": 2, "wood": 2, "stone": 2}
    state = run(state, 0, action_move(state, "move", "standard"), {"type": "move_from", "hex": 0},
                {"type": "move_to", "hex": 1}, {"type": "move_count", "count": 2})
    assert decision(state)["kind"] == "discover"
    state = run(state, 0, {"type": "discover", "resource": "stone"})  # any type, not the hex's
    assert state["seats"][0]["res"]["stone"] == 1 and slot(state, "discovery")["stock"]["stone"] == 1


def test_event_discovery_not_when_entering_a_hex_you_share_or_an_empty_one():
    state = two({0: {0: 3}, 1: {1: 1, 0: 1}, 8: {1: 3}})
    activate(state, "discovery", 0, stock={"food": 2, "wood": 2, "stone": 2})
    state = run(state, 0, action_move(state, "move", "standard"), {"type": "move_from", "hex": 0},
                {"type": "move_to", "hex": 1}, {"type": "move_count", "count": 1})
    assert decision(state)["kind"] == "move_from"  # no Discovery: the MOVE goes on


def test_event_discovery_leaves_when_empty():
    state = two({0: {0: 3}, 1: {1: 1}, 8: {1: 3}})
    activate(state, "discovery", 0, stock={"food": 1, "wood": 0, "stone": 0})
    state = run(state, 0, action_move(state, "move", "standard"), {"type": "move_from", "hex": 0},
                {"type": "move_to", "hex": 1}, {"type": "move_count", "count": 1},
                {"type": "discover", "resource": "food"})
    assert state["events"]["slots"][0] is None


# ----- Shared Knowledge -------------------------------------------------------------------------
def test_event_shared_knowledge_pay_one_to_draw_once_per_turn_and_complete_same_turn():
    state = two({0: {0: 1}, 1: {0: 1}, 2: {0: 1}, 3: {0: 1, 1: 1}, 8: {1: 3}})
    activate(state, "shared_knowledge", 0)
    state = at(state, 0, kind="goals", step="goals")
    give(state, 0, wood=2)
    deck = state["seats"][0]["deck"]
    deck.remove("explorers")
    deck.insert(0, "explorers")
    assert {m["type"] for m in legal(state, 0)} >= {"knowledge"}
    state = run(state, 0, {"type": "knowledge", "resource": "wood"})
    assert state["seats"][0]["progress"] == ["explorers"] and state["seats"][0]["res"]["wood"] == 1
    assert "knowledge" not in types(state, 0)  # only once a turn
    place(state, {5: {0: 1}})
    state = run(state, 0, {"type": "complete", "card": "explorers"})  # completable the turn drawn
    assert state["seats"][0]["score"] == 2


def test_event_shared_knowledge_needs_a_shared_hex_and_leaves_after_three_paid():
    state = two({0: {0: 1}, 8: {1: 3}})
    activate(state, "shared_knowledge", 0, paid=2)
    state = at(state, 0, kind="goals", step="goals")
    give(state, 0, food=1)
    assert "knowledge" not in types(state, 0)
    place(state, {8: {0: 1}})
    state = run(state, 0, {"type": "knowledge", "resource": "food"})
    assert state["events"]["slots"][0] is None


# ----- Altar ------------------------------------------------------------------------------------
def test_event_altar_sacrifice_and_one_of_each_for_a_point_once_per_turn():
    state = two({0: {0: 2}, 8: {1: 3}})
    activate(state, "altar", 0)
    state = at(state, 0, kind="goals", step="goals")
    give(state, 0, food=2, wood=2, stone=2)
    state = run(state, 0, {"type": "altar", "hex": 0})
    assert state["pop"][0][0] == 1 and state["seats"][0]["score"] == 1
    assert state["seats"][0]["res"] == {"food": 1, "wood": 1, "stone": 1}
    assert "altar" not in types(state, 0)


def test_event_altar_leaves_on_later_doubles():
    state = two()
    activate(state, "altar", 1)
    state["events"]["deck"] = ["drought"] + [e for e in state["events"]["deck"] if e != "drought"]
    state = at(state, 1, kind="goals", step="goals")
    state, _ = play(state, 1, {"type": "end_turn"}, Dice("moon", "moon"))
    assert "altar" in state["events"]["discard"]


# ----- Abandoned Village ------------------------------------------------------------------------
def test_event_abandoned_village_each_player_in_turn_order_may_build_for_one_of_each():
    state = two({0: {0: 2}, 8: {1: 3}, 4: {0: 1, 1: 1}})
    give(state, 0, food=1, wood=1, stone=1)
    give(state, 1, food=1, wood=1, stone=1)
    state, _ = draw_on_doubles(state, "abandoned_village")
    assert decision(state)["seat"] == 0
    assert legal(state, 0) == [{"type": "claim_village", "hex": 0}, {"type": "pass"}]  # controlled only
    state = run(state, 0, {"type": "claim_village", "hex": 0})
    assert decision(state)["seat"] == 1
    state = run(state, 1, {"type": "pass"})
    assert state["village"][0] == 0 and state["village"][8] is None
    assert state["events"]["discard"] == ["abandoned_village"]
    assert decision(state)["seat"] == 0 and decision(state)["kind"] == "action"


def test_event_abandoned_village_skips_players_who_cannot_build():
    state = two({0: {0: 2}, 8: {1: 3}})
    give(state, 1, food=1, wood=1, stone=1)
    state, _ = draw_on_doubles(state, "abandoned_village")
    assert decision(state)["seat"] == 1



def _datas(events, kind):
    """The data of every event of ``kind`` among ``events``."""
    return [e["data"] for e in events if e["type"] == kind]


def test_event_abandoned_village_not_in_the_invaders_hex_and_up_to_the_last_village():
    state = two({0: {0: 2}, 1: {0: 1}, 8: {1: 3}})
    give(state, 0, food=1, wood=1, stone=1)
    activate(state, "invaders", 1, hex=0, tokens=1)
    state["supply"]["villages"] = 1
    state, _ = draw_on_doubles(state, "abandoned_village")
    assert legal(state, 0) == [{"type": "claim_village", "hex": 1}, {"type": "pass"}]
    state = two({0: {0: 2}, 8: {1: 3}})
    give(state, 0, food=1, wood=1, stone=1)
    state["supply"]["villages"] = 0
    state, _ = draw_on_doubles(state, "abandoned_village")
    assert state["events"]["discard"] == ["abandoned_village"] and decision(state)["kind"] == "action"


def test_event_discovery_takes_one_resource_the_card_still_holds():
    state = two({0: {0: 3}, 1: {1: 1}, 8: {1: 3}})
    activate(state, "discovery", 0, stock={"food": 0, "wood": 2, "stone": 1})
    state = run(state, 0, action_move(state, "move", "standard"), {"type": "move_from", "hex": 0},
                {"type": "move_to", "hex": 1}, {"type": "move_count", "count": 1})
    assert legal(state, 0) == [{"type": "discover", "resource": "wood"}, {"type": "discover", "resource": "stone"}]
    state = run(state, 0, {"type": "discover", "resource": "wood"})
    assert decision(state)["kind"] == "move_from" and slot(state, "discovery")["stock"] == {
        "food": 0, "wood": 1, "stone": 1}


def test_event_plentiful_bonus_of_the_second_slot_when_the_first_is_another_terrain():
    state = two({2: {0: 1}, 8: {1: 3}})
    activate(state, "plentiful_food", 0, stock={"food": 6})
    activate(state, "plentiful_wood", 1, stock={"wood": 6})
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 2})
    assert state["seats"][0]["res"]["wood"] == 4 and slot(state, "plentiful_food")["stock"] == {"food": 6}


def test_event_altar_records_the_sacrifice_and_the_point_and_the_member_returns_to_the_supply():
    state = two({0: {0: 2}, 8: {1: 3}})
    activate(state, "altar", 0)
    state = at(state, 0, kind="goals", step="goals")
    give(state, 0, food=1, wood=1, stone=1)
    supply = state["seats"][0]["supply"]
    state, events = play(state, 0, {"type": "altar", "hex": 0})
    assert _datas(events, "members_removed") == [{"seat": 0, "hex": 0, "count": 1, "why": "altar"}]
    assert _datas(events, "score") == [{"seat": 0, "points": 1, "why": "altar"}]
    assert state["seats"][0]["supply"] == supply + 1


def test_event_shared_knowledge_paid_with_a_resource_held():
    state = two({0: {0: 1}, 8: {1: 3, 0: 1}})
    activate(state, "shared_knowledge", 0)
    state = at(state, 0, kind="goals", step="goals")
    give(state, 0, stone=1)
    assert [m for m in legal(state, 0) if m["type"] == "knowledge"] == [{"type": "knowledge", "resource": "stone"}]


def test_event_tiger_hunted_with_a_single_member():
    state = two({4: {0: 1}, 0: {0: 1}, 8: {1: 1}})
    activate(state, "sabertooth_tiger", 0, hex=4, tokens=1)
    state = at(state, 0, kind="goals", step="goals")
    assert {"type": "hunt", "event": "sabertooth_tiger"} in legal(state, 0)


def test_event_tiger_with_no_other_mountain_stays_and_strikes_again():
    """On later doubles the Tiger moves to another mountain; on a map with one mountain it is
    placed on the same one again, and each player there loses a member again."""
    state = two({4: {0: 2}, 0: {0: 1}, 8: {1: 1}})
    state["terrain"] = [t if h == 4 or t != "mountain" else "lake" for h, t in enumerate(state["terrain"])]
    activate(state, "sabertooth_tiger", 0, hex=4, tokens=1)
    activate(state, "plentiful_food", 1, stock={"food": 6})
    state = at(state, 1, kind="goals", step="goals")
    state, _ = play(state, 1, {"type": "end_turn"}, Dice("sun", "sun"))
    assert slot(state, "sabertooth_tiger")["hex"] == 4 and state["pop"][4][0] == 1
