"""Tribal Powers variant (rulebook page 10): choosing a power and all twelve powers."""
from .helpers import Dice, at, decision, fresh, give, legal, play, power, run, types
from .scenarios import T2, action_move, two
from .test_conflict import to_conflict


def with_power(seat, name, pop=None, tribes=("daba", "kiror"), **kw):
    state = two(pop, tribes=tribes, powers=True, **kw)
    for s in range(2):
        power(state, s, None)
    return power(state, seat, name)


def test_rule_variant_each_leader_chooses_one_of_its_two_powers_in_turn_order():
    state = fresh(3, powers=True, tribes=None)
    start = state["start"]
    order = [(start + k) % 3 for k in range(3)]
    for seat in order:
        d = decision(state)
        assert d["kind"] == "power" and d["seat"] == seat
        from shared.games.rise_of_tribes.content import TRIBES

        options = [m["power"] for m in legal(state, seat)]
        assert options == TRIBES[state["seats"][seat]["tribe"]]["powers"]
        state = run(state, seat, {"type": "choose_power", "power": options[1]})
    assert all(s["power"] for s in state["seats"])
    assert decision(state)["kind"] == "start" and decision(state)["seat"] == start


def test_rule_base_game_has_no_powers():
    state = fresh(2)
    assert decision(state)["kind"] == "start" and all(s["power"] is None for s in state["seats"])


def test_power_farming_grow_adds_one_in_each_village_hex():
    state = with_power(0, "farming", {0: {0: 2}, 2: {0: 1}, 5: {0: 1}, 8: {1: 3}}, tribes=("indartsu", "kiror"))
    state["village"][0] = 0
    state["village"][2] = 0
    state = run(state, 0, action_move(state, "grow", "weak"))
    assert state["pop"][0][0] == 3 and state["pop"][2][0] == 2 and state["pop"][5][0] == 1
    assert decision(state)["left"] == 2  # the normal growth still follows


def test_power_exogamy_pay_two_to_convert_one_in_a_shared_hex_once_per_turn():
    state = with_power(0, "exogamy", {4: {0: 2, 1: 3}, 8: {1: 3}}, tribes=("indartsu", "kiror"))
    give(state, 0, food=1, wood=2)
    assert {"type": "exogamy", "hex": 4, "target": 1} in legal(state, 0)
    state = run(state, 0, {"type": "exogamy", "hex": 4, "target": 1})
    assert state["pop"][4] == [3, 2]
    assert decision(state)["kind"] == "pay"
    state = run(state, 0, {"type": "pay", "resource": "wood"}, {"type": "pay", "resource": "food"})
    assert state["seats"][1]["res"] == {"food": 1, "wood": 1, "stone": 0}
    assert state["seats"][0]["res"] == {"food": 0, "wood": 1, "stone": 0}
    assert "exogamy" not in types(state, 0)


def test_power_shared_bounty_gathers_one_when_a_sharing_opponent_gathers():
    state = with_power(1, "shared_bounty", {0: {0: 2, 1: 1}, 2: {1: 1}, 8: {0: 1}}, tribes=("daba", "mukaan"))
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 8})
    d = decision(state)
    assert d["kind"] == "bounty" and d["seat"] == 1
    assert legal(state, 1) == [{"type": "bounty", "resource": "food"}, {"type": "bounty", "resource": "wood"}]
    state = run(state, 1, {"type": "bounty", "resource": "wood"})
    assert state["seats"][1]["res"]["wood"] == 1 and decision(state)["seat"] == 0


def test_power_shared_bounty_not_without_a_shared_hex():
    state = with_power(1, "shared_bounty", {0: {0: 2}, 2: {1: 1}, 8: {1: 1}}, tribes=("daba", "mukaan"))
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 0})
    assert sum(state["seats"][1]["res"].values()) == 0


def test_power_shared_bounty_pays_nothing_for_a_hex_blocked_by_invaders():
    """Shared Bounty "gather 1 resource from any hex you occupy": nobody may gather from the
    Invaders' hex, so it gives nothing; the lake held with Invaders is not among the choices."""
    from .helpers import activate

    state = with_power(1, "shared_bounty", {0: {1: 2}, 8: {0: 2, 1: 1}}, tribes=("daba", "mukaan"))
    activate(state, "invaders", 0, hex=0, tokens=1)
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 8})
    assert state["seats"][1]["res"] == {"food": 0, "wood": 0, "stone": 1}  # mountain 8 only, no decision
    state = with_power(1, "shared_bounty", {4: {0: 2, 1: 1}, 8: {0: 1}}, tribes=("daba", "mukaan"))
    activate(state, "invaders", 0, hex=4, tokens=1)
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 8})
    assert sum(state["seats"][1]["res"].values()) == 0 and decision(state)["seat"] == 0


def test_power_intimidate_pay_two_to_push_an_opponent_before_conflict():
    state = with_power(0, "intimidate", {4: {0: 3, 1: 3}, 8: {1: 1}}, tribes=("mukaan", "kiror"))
    give(state, 0, stone=2)
    state = to_conflict(state)
    assert decision(state)["kind"] == "intimidate"
    state = run(state, 0, {"type": "intimidate", "hex": 4, "target": 1, "to": 5})
    state = run(state, 0, {"type": "pay", "resource": "stone"}, {"type": "pay", "resource": "stone"})
    assert state["pop"][4] == [3, 2] and state["pop"][5][1] == 1  # pushed out: no conflict
    assert decision(state)["kind"] == "goals" and state["supply"]["stone"] == 24


def test_power_intimidate_once_per_turn_on_any_players_turn():
    """Intimidate: "Once per turn, before conflict" — on an opponent's turn as well."""
    state = with_power(1, "intimidate", {4: {0: 3, 1: 3}, 8: {1: 1}}, tribes=("daba", "mukaan"))
    give(state, 1, food=2)
    state = to_conflict(state, seat=0)
    d = decision(state)
    assert d["kind"] == "intimidate" and d["seat"] == 1 and state["turn"]["seat"] == 0
    assert {"type": "intimidate", "hex": 4, "target": 0, "to": 5} in legal(state, 1)
    state = run(state, 1, {"type": "intimidate", "hex": 4, "target": 0, "to": 5},
                {"type": "pay", "resource": "food"}, {"type": "pay", "resource": "food"})
    assert state["pop"][4] == [2, 3] and state["pop"][5][0] == 1
    assert "intimidate" in state["turn"]["used"] and decision(state)["kind"] == "goals"
    from shared.games.rise_of_tribes.powers import intimidate_moves

    give(state, 1, food=2)
    assert intimidate_moves(state, 1) == []  # once per turn


def test_power_intimidate_may_be_declined_on_an_opponents_turn():
    state = with_power(1, "intimidate", {4: {0: 3, 1: 3}, 8: {1: 1}}, tribes=("daba", "mukaan"))
    give(state, 1, food=2)
    state = to_conflict(state, seat=0)
    state = run(state, 1, {"type": "skip"})
    assert state["pop"][4] == [0, 0] and state["seats"][1]["res"]["food"] == 2


def test_power_trader_two_of_one_for_one_of_another_at_any_time_on_your_turn():
    state = with_power(0, "trader")
    give(state, 0, food=2)
    assert {"type": "trade", "give": "food", "get": "stone"} in legal(state, 0)
    state = run(state, 0, {"type": "trade", "give": "food", "get": "stone"})
    assert state["seats"][0]["res"] == {"food": 0, "wood": 0, "stone": 1}
    state = at(state, 0, kind="goals", step="goals")
    give(state, 0, wood=3)
    assert {"type": "trade", "give": "wood", "get": "food"} in legal(state, 0)


def test_power_trader_at_any_time_on_your_turn_within_any_decision():
    """Trader: "You can, at any time on your turn": beside the GROW, MOVE and payment decisions
    too, leaving the decision in place."""
    state = with_power(0, "trader", {0: {0: 3}, 4: {0: 3, 1: 1}, 8: {1: 3}})
    give(state, 0, food=4)
    state = run(state, 0, action_move(state, "grow", "standard"))
    assert {"type": "trade", "give": "food", "get": "wood"} in legal(state, 0)
    state = run(state, 0, {"type": "trade", "give": "food", "get": "wood"})
    assert decision(state)["kind"] == "grow" and decision(state)["left"] == 3
    assert state["seats"][0]["res"] == {"food": 2, "wood": 1, "stone": 0}
    state = run(state, 0, {"type": "grow", "hex": 0}, {"type": "done"},
                {"type": "act", "action": "move", "face": state["turn"]["rolled"][0]},
                {"type": "move_from", "hex": 0}, {"type": "move_to", "hex": 1})
    assert decision(state)["kind"] == "move_count"
    assert {"type": "trade", "give": "food", "get": "stone"} in legal(state, 0)


def test_power_trader_not_on_another_players_turn():
    state = with_power(1, "trader", {0: {0: 2}, 8: {1: 3}})
    give(state, 0, food=1, wood=1, stone=1)
    give(state, 1, food=3, wood=1, stone=1)
    from .test_events import draw_on_doubles

    state, _ = draw_on_doubles(state, "abandoned_village")
    assert decision(state)["seat"] == 0 and "trade" not in types(state, 0)
    state = run(state, 0, {"type": "pass"})
    assert decision(state)["seat"] == 1 and decision(state)["kind"] == "abandoned_village"
    assert "trade" not in types(state, 1)  # seat 0's turn


def test_power_crafty_builders_villages_cost_one_less_of_choice():
    state = with_power(0, "crafty_builders", kind="goals", step="goals")  # Daba: 2 food 1 wood 3 stone
    give(state, 0, food=2, wood=1, stone=2)
    assert [m for m in legal(state, 0) if m["type"] == "build"] == [{"type": "build", "hex": 0, "save": "stone"}]
    state = run(state, 0, {"type": "build", "hex": 0, "save": "stone"})
    assert state["village"][0] == 0 and sum(state["seats"][0]["res"].values()) == 0


def test_power_hidden_village_first_village_on_the_board_safe_and_scoring():
    state = with_power(0, "hidden_village", kind="goals", step="goals", tribes=("tunga", "kiror"))
    give(state, 0, food=2, wood=3, stone=1)
    state = run(state, 0, {"type": "build_hidden"})
    assert state["seats"][0]["board_village"] and state["village"] == [None] * 9
    give(state, 0, food=2, wood=3, stone=1)
    assert "build_hidden" not in types(state, 0)  # only the first village
    state["pop"][0][0] = 0  # no members anywhere: the village is safe
    state = at(state, 1, kind="goals", step="goals")
    state = run(state, 1, {"type": "end_turn"}, rng=Dice("sun", "blank"))
    assert decision(state)["kind"] == "reenter"  # eliminated, yet the village stands
    state = run(state, 0, {"type": "reenter", "hex": 4})
    assert state["seats"][0]["board_village"] and state["seats"][0]["score"] == 1


def test_power_light_in_the_dark_pay_one_to_turn_a_moon_into_a_blank():
    state = with_power(0, "light_in_the_dark", tribes=("tunga", "kiror"))
    give(state, 0, food=1)
    state = at(state, 1, kind="goals", step="goals")
    state = run(state, 1, {"type": "end_turn"}, rng=Dice("moon", "moon"))
    assert decision(state)["kind"] == "light"
    state = run(state, 0, {"type": "light", "resource": "food"})
    assert state["turn"]["rolled"] == ["blank", "moon"]
    assert state["events"]["slots"] == [None, None]  # no longer doubles


def test_power_light_in_the_dark_may_be_declined():
    state = with_power(0, "light_in_the_dark", tribes=("tunga", "kiror"))
    give(state, 0, food=1)
    state = at(state, 1, kind="goals", step="goals")
    state = run(state, 1, {"type": "end_turn"}, rng=Dice("moon", "sun"))
    state = run(state, 0, {"type": "skip"})
    assert state["turn"]["rolled"] == ["moon", "sun"] and state["seats"][0]["res"]["food"] == 1


def test_power_wayfarers_only_with_a_move_action_in_addition_to_it():
    """Wayfarers: "In addition to your normal MOVE, you may pay 1 wood to relocate any number of
    tribe members from one outer hex to any other outer hex": offered while a MOVE lasts, once,
    and the MOVE's own moves are still all there afterwards."""
    state = with_power(0, "wayfarers", {0: {0: 4}, 2: {0: 2}, 8: {1: 3}}, tribes=("kaha", "kiror"))
    give(state, 0, wood=1)
    assert "wayfarers" not in types(state, 0)  # not when choosing an action
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 0})
    assert "wayfarers" not in types(state, 0)
    state = run(state, 0, action_move(state, "move", "weak"))
    assert {"type": "wayfarers", "from": 0} in legal(state, 0)
    state = run(state, 0, {"type": "wayfarers", "from": 0})
    assert 4 not in {m["hex"] for m in legal(state, 0)}  # the inner hex is not outer
    state = run(state, 0, {"type": "move_to", "hex": 6}, {"type": "move_count", "count": 4})
    assert state["pop"][6][0] == 4 and state["seats"][0]["res"]["wood"] == 0
    d = decision(state)
    assert d["kind"] == "move_from" and d["left"] == 2  # back to the MOVE, its 2 moves intact
    assert legal(state, 0) == [{"type": "move_from", "hex": 2}, {"type": "done"}]  # the relocated moved once
    state = run(state, 0, {"type": "move_from", "hex": 2}, {"type": "move_to", "hex": 5},
                {"type": "move_count", "count": 2})
    assert state["pop"][5][0] == 2 and decision(state)["kind"] == "goals"  # both actions done


def test_power_wayfarers_once_a_turn_and_after_the_moves_are_spent():
    state = with_power(0, "wayfarers", {0: {0: 3}, 2: {0: 2}, 8: {1: 3}}, tribes=("kaha", "kiror"))
    give(state, 0, wood=2)
    state = run(state, 0, action_move(state, "move", "weak"), {"type": "move_from", "hex": 0},
                {"type": "move_to", "hex": 1}, {"type": "move_count", "count": 2})
    assert legal(state, 0) == [{"type": "wayfarers", "from": 0}, {"type": "wayfarers", "from": 2},
                               {"type": "done"}]  # no moves left, Wayfarers still open
    state = run(state, 0, {"type": "wayfarers", "from": 2}, {"type": "move_to", "hex": 8},
                {"type": "move_count", "count": 1})
    assert decision(state)["kind"] == "action" and state["seats"][0]["res"]["wood"] == 1


def test_power_focussed_effort_one_extra_from_a_hex_with_four_members():
    state = with_power(0, "focussed_effort", {0: {0: 4}, 2: {0: 3}, 8: {1: 3}}, tribes=("kaha", "kiror"))
    state = run(state, 0, action_move(state, "gather", "standard"), {"type": "gather", "hex": 0},
                {"type": "gather", "hex": 2})
    assert state["seats"][0]["res"] == {"food": 3, "wood": 2, "stone": 0}


def test_power_pathfinder_moves_through_contiguous_terrain_as_one_hex():
    state = with_power(0, "pathfinder", {0: {0: 3}, 8: {1: 3}}, tribes=("kiror", "daba"))
    state = run(state, 0, action_move(state, "move", "standard"), {"type": "move_from", "hex": 0})
    assert sorted(m["hex"] for m in legal(state, 0)) == [1, 2, 3, 4]  # lakes 0+1 count as one hex
    assert T2[0] == T2[1] == "lake"


def test_power_evasion_retreat_to_an_adjacent_hex_of_only_your_tribe():
    state = with_power(1, "evasion", {4: {0: 3, 1: 3}, 5: {1: 1}, 7: {1: 2, 0: 1}, 8: {1: 1}})
    state = to_conflict(state)
    d = decision(state)
    assert d["kind"] == "evade" and d["seat"] == 1
    assert legal(state, 1) == [{"type": "evade", "hex": 5}, {"type": "stay"}]  # 7 is shared
    state = run(state, 1, {"type": "evade", "hex": 5})
    assert state["pop"][4] == [3, 0] and state["pop"][5][1] == 4


def test_power_evasion_not_into_a_hex_the_retreat_would_overfill():
    state = with_power(1, "evasion", {4: {0: 3, 1: 3}, 5: {1: 3}, 8: {1: 1}})
    state = to_conflict(state)
    assert state["pop"][4] == [0, 0]  # no legal retreat: conflict resolves at once


def test_power_focussed_effort_counts_only_the_gatherers_own_members():
    """Focussed Effort: "If you GATHER from a hex with 4 or more tribe members" — read as the
    player's own members: 3 of its own and 1 opponent (4 in all) give nothing extra, 4 of its
    own beside an opponent give 1 extra."""
    state = with_power(0, "focussed_effort", {0: {0: 3, 1: 1}, 2: {0: 4, 1: 1}, 8: {1: 3}}, tribes=("kaha", "kiror"))
    state = run(state, 0, action_move(state, "gather", "standard"), {"type": "gather", "hex": 0},
                {"type": "gather", "hex": 2})
    assert state["seats"][0]["res"] == {"food": 2, "wood": 3, "stone": 0}
    assert state["turn"]["gathered"] == 5


def test_power_focussed_effort_is_only_the_holders():
    """The opponent's 4 members in a hex it gathers from give it nothing extra: it has no power."""
    state = at(with_power(0, "focussed_effort", {0: {0: 1}, 8: {1: 4}}, tribes=("kaha", "kiror")), 1)
    state = run(state, 1, action_move(state, "gather", "weak"), {"type": "gather", "hex": 8})
    assert state["seats"][1]["res"]["stone"] == 2


def test_power_light_in_the_dark_can_make_doubles_and_the_event_is_drawn():
    """Light in the Dark is used right after the roll and before the doubles check, so turning
    the moon of a moon-blank roll into a blank makes doubles: the top event is drawn."""
    state = with_power(0, "light_in_the_dark", tribes=("tunga", "kiror"))
    give(state, 0, wood=1)
    top = state["events"]["deck"][0]
    state = at(state, 1, kind="goals", step="goals")
    state = run(state, 1, {"type": "end_turn"}, rng=Dice("moon", "blank"))
    assert decision(state)["kind"] == "light" and state["events"]["slots"] == [None, None]
    state = run(state, 0, {"type": "light", "resource": "wood"})
    assert state["turn"]["rolled"] == ["blank", "blank"]
    assert state["seats"][0]["res"]["wood"] == 0
    assert [s["id"] for s in state["events"]["slots"] if s] == [top]
    assert top not in state["events"]["deck"]


def test_power_light_in_the_dark_declined_on_moon_blank_draws_no_event():
    state = with_power(0, "light_in_the_dark", tribes=("tunga", "kiror"))
    give(state, 0, wood=1)
    state = at(state, 1, kind="goals", step="goals")
    state = run(state, 1, {"type": "end_turn"}, rng=Dice("moon", "blank"))
    state = run(state, 0, {"type": "skip"})
    assert state["turn"]["rolled"] == ["moon", "blank"] and state["events"]["slots"] == [None, None]


def test_power_exogamy_costs_exactly_two_and_needs_two_resources_and_a_member_in_supply():
    """Exogamy: "pay another player 2 resources to convert 1 of their tribe": offered with 2
    resources (not 1) and a member left to place, only against an opponent in a shared hex; the
    payment is 2, no more, and the turn goes on."""
    state = with_power(0, "exogamy", {4: {0: 2, 1: 3}, 8: {1: 3}}, tribes=("indartsu", "kiror"))
    give(state, 0, wood=1)
    assert "exogamy" not in types(state, 0)
    give(state, 0, food=1)
    assert [m for m in legal(state, 0) if m["type"] == "exogamy"] == [{"type": "exogamy", "hex": 4, "target": 1}]
    supply = state["seats"][0]["supply"]
    state["seats"][0]["supply"] = 0
    assert "exogamy" not in types(state, 0)
    state["seats"][0]["supply"] = supply
    state = run(state, 0, {"type": "exogamy", "hex": 4, "target": 1})
    assert decision(state) == dict(decision(state), kind="pay", left=2, to=1)
    state = run(state, 0, {"type": "pay", "resource": "wood"}, {"type": "pay", "resource": "food"})
    assert decision(state)["kind"] == "action" and state["seats"][1]["res"] == {"food": 1, "wood": 1, "stone": 0}
    assert state["seats"][0]["supply"] == supply - 1 and state["pop"][4] == [3, 2]
    assert [e for e in state["turn"]["used"]] == ["exogamy"]


def test_power_light_in_the_dark_is_offered_only_with_a_moon_and_a_resource_to_pay():
    for dice, food, offered in ((("moon", "sun"), 1, True), (("moon", "sun"), 0, False), (("sun", "blank"), 1, False)):
        state = with_power(0, "light_in_the_dark", tribes=("tunga", "kiror"))
        give(state, 0, food=food)
        state = at(state, 1, kind="goals", step="goals")
        state = run(state, 1, {"type": "end_turn"}, rng=Dice(*dice))
        assert (decision(state)["kind"] == "light") == offered, (dice, food)
    state = with_power(1, "light_in_the_dark", tribes=("tunga", "kiror"))  # another seat's power
    give(state, 0, food=1)
    state = at(state, 1, kind="goals", step="goals")
    state = run(state, 1, {"type": "end_turn"}, rng=Dice("moon", "sun"))
    assert decision(state)["kind"] != "light"


def _datas(events, kind):
    """The data of every event of ``kind`` among ``events``."""
    return [e["data"] for e in events if e["type"] == kind]


def test_power_farming_adds_only_what_the_supply_holds():
    """Farming adds 1 member in each village hex, from the supply: with 1 left, only the first."""
    state = with_power(0, "farming", {0: {0: 10}, 2: {0: 9}, 8: {1: 3}}, tribes=("indartsu", "kiror"))
    state["village"][0] = state["village"][2] = 0
    assert state["seats"][0]["supply"] == 1
    state = run(state, 0, action_move(state, "grow", "weak"))
    assert state["pop"][0][0] == 11 and state["pop"][2][0] == 9 and state["seats"][0]["supply"] == 0
    assert decision(state)["kind"] == "action"


def test_power_exogamy_once_per_turn_with_its_events_and_an_exact_payment_of_two():
    """Exogamy, once per turn: offered with one member left in the supply; the payment offers
    only resources held, asks twice, leaves the rest; not offered again with 2 resources left."""
    state = with_power(0, "exogamy", {4: {0: 2, 1: 3}, 8: {1: 3}}, tribes=("indartsu", "kiror"))
    give(state, 0, food=2, wood=2)
    supply = state["seats"][0]["supply"]
    state["seats"][0]["supply"] = 1
    assert [m for m in legal(state, 0) if m["type"] == "exogamy"] == [{"type": "exogamy", "hex": 4, "target": 1}]
    state["seats"][0]["supply"] = supply
    state, events = play(state, 0, {"type": "exogamy", "hex": 4, "target": 1})
    assert _datas(events, "members_removed") == [{"seat": 1, "hex": 4, "count": 1, "why": "exogamy"}]
    assert _datas(events, "members_added") == [{"seat": 0, "hex": 4, "count": 1, "why": "exogamy"}]
    assert _datas(events, "used") == [{"flag": "exogamy"}]
    assert legal(state, 0) == [{"type": "pay", "resource": "food"}, {"type": "pay", "resource": "wood"}]
    state = run(state, 0, {"type": "pay", "resource": "wood"})
    assert decision(state) == dict(decision(state), kind="pay", left=1, to=1)
    state = run(state, 0, {"type": "pay", "resource": "wood"})
    assert decision(state)["kind"] == "action" and state["seats"][0]["res"] == {"food": 2, "wood": 0, "stone": 0}
    assert "exogamy" not in types(state, 0)


def test_power_exogamy_in_step_5():
    """Exogamy is also offered among the Goals & Villages options of step 5."""
    state = with_power(0, "exogamy", {4: {0: 2, 1: 3}, 8: {1: 3}}, tribes=("indartsu", "kiror"), kind="goals",
                       step="goals")
    give(state, 0, food=2)
    state = run(state, 0, {"type": "exogamy", "hex": 4, "target": 1})
    assert state["pop"][4] == [3, 2] and decision(state) == dict(decision(state), kind="pay", left=2, to=1)
    state = run(state, 0, {"type": "pay", "resource": "food"}, {"type": "pay", "resource": "food"})
    assert decision(state)["kind"] == "goals" and state["seats"][1]["res"]["food"] == 2


def test_power_intimidate_pushes_an_opponent_only_and_costs_exactly_two():
    state = with_power(0, "intimidate", {4: {0: 3, 1: 3}, 8: {1: 1}}, tribes=("mukaan", "kiror"))
    give(state, 0, stone=3)
    state = to_conflict(state)
    assert {m["target"] for m in legal(state, 0) if m["type"] == "intimidate"} == {1}
    state, events = play(state, 0, {"type": "intimidate", "hex": 4, "target": 1, "to": 5})
    assert _datas(events, "members_moved") == [{"seat": 1, "from": 4, "to": 5, "count": 1, "why": "intimidate"}]
    assert decision(state) == dict(decision(state), kind="pay", left=2, to=None)
    state = run(state, 0, {"type": "pay", "resource": "stone"}, {"type": "pay", "resource": "stone"})
    assert decision(state)["kind"] == "goals" and state["seats"][0]["res"]["stone"] == 1


def test_power_shared_bounty_is_taken_by_a_later_seat_at_three_players():
    """Shared Bounty works for any player sharing a hex with the gatherer, here the second of
    three in turn order after a gatherer whose next-but-one opponent has no such power."""
    from .test_conflict import three

    state = three({0: {0: 2, 1: 1}, 1: {2: 1}})
    state["seats"][1]["tribe"] = "mukaan"
    power(state, 1, "shared_bounty")
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 0})
    assert state["seats"][1]["res"] == {"food": 1, "wood": 0, "stone": 0}


def test_power_shared_bounty_only_from_what_the_supply_holds():
    """With no food left in the supply, the lake is no choice: the last wood is taken at once."""
    state = with_power(1, "shared_bounty", {0: {0: 2, 1: 1}, 2: {1: 1}, 8: {0: 1}}, tribes=("daba", "mukaan"))
    state["supply"]["food"], state["supply"]["wood"] = 0, 1
    state = run(state, 0, action_move(state, "gather", "weak"), {"type": "gather", "hex": 8})
    assert state["seats"][1]["res"] == {"food": 0, "wood": 1, "stone": 0} and decision(state)["seat"] == 0


def test_power_light_in_the_dark_pays_with_a_resource_held():
    state = with_power(0, "light_in_the_dark", tribes=("tunga", "kiror"))
    give(state, 0, wood=1)
    state = at(state, 1, kind="goals", step="goals")
    state = run(state, 1, {"type": "end_turn"}, rng=Dice("moon", "sun"))
    assert legal(state, 0) == [{"type": "light", "resource": "wood"}, {"type": "skip"}]


def test_power_trader_gets_only_another_resource_the_supply_holds():
    state = with_power(0, "trader")
    give(state, 0, food=2)
    state["supply"]["stone"], state["supply"]["wood"] = 0, 1
    assert [m for m in legal(state, 0) if m["type"] == "trade"] == [{"type": "trade", "give": "food", "get": "wood"}]


def test_power_crafty_builders_may_save_a_resource_the_cost_has_once():
    state = with_power(0, "crafty_builders", kind="goals", step="goals")  # Daba: 2 food 1 wood 3 stone
    give(state, 0, food=2, stone=3)
    assert [m for m in legal(state, 0) if m["type"] == "build"] == [{"type": "build", "hex": 0, "save": "wood"}]


def test_power_hidden_village_is_recorded_off_the_map():
    state = with_power(0, "hidden_village", kind="goals", step="goals", tribes=("tunga", "kiror"))
    give(state, 0, food=2, wood=3, stone=1)
    state, events = play(state, 0, {"type": "build_hidden"})
    assert _datas(events, "village_built") == [{"seat": 0, "hex": -1}]


def test_power_trader_on_the_players_first_turn():
    state = with_power(0, "trader")
    state["turn"]["number"] = 1
    give(state, 0, food=2)
    assert {"type": "trade", "give": "food", "get": "stone"} in legal(state, 0)
