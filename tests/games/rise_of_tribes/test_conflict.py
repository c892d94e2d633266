"""Step 4: conflict (rulebook page 6)."""
from shared.games.rise_of_tribes.conflict import removals

from .helpers import activate, at, decision, develop, fresh, legal, place, play, run
from .scenarios import two


def to_conflict(state, seat=0):
    """Finish the seat's second action (a MOVE of nobody); returns the state after that move."""
    state["turn"]["actions"] = ["lead"]
    state["turn"]["rolled"] = ["blank"]
    state = run(state, seat, {"type": "act", "action": "move", "face": "blank"}, {"type": "done"})
    return state


def three(pop, seat=0):
    state = fresh(3, terrain=["lake", "forest", "mountain"] * 4, tribes=("daba", "kaha", "tunga"))
    place(state, pop)
    return at(state, seat)


def test_rule_conflict_only_above_five_tribe_members():
    state = to_conflict(two({4: {0: 3, 1: 2}, 8: {1: 1}}))
    assert state["pop"][4] == [3, 2] and decision(state)["kind"] == "goals"
    state = to_conflict(two({4: {0: 3, 1: 3}, 8: {1: 1}}))
    assert state["pop"][4] == [0, 0]


def test_rule_villages_do_not_count_towards_the_hex_limit():
    state = two({4: {0: 3, 1: 2}, 8: {1: 1}})
    state["village"][4] = 0
    state = to_conflict(state)
    assert state["pop"][4] == [3, 2]


def test_example_conflict_each_player_removes_one_at_a_time_simultaneously():
    """4 attackers against 2 defenders: two rounds remove 2 of each, 2 attackers remain."""
    state = two({4: {0: 4, 1: 2}, 8: {1: 1}})
    state["turn"]["actions"] = ["lead"]
    state["turn"]["rolled"] = ["blank"]
    state = run(state, 0, {"type": "act", "action": "move", "face": "blank"})
    state, events = play(state, 0, {"type": "done"})
    resolved = [e for e in events if e["type"] == "conflict_resolved"]
    assert resolved[0]["data"]["removed"] == [2, 2]
    assert state["pop"][4] == [2, 0]
    assert state["seats"][1]["supply"] == 20 - 1  # removed members go back to the supply


def test_rule_conflict_three_players_until_at_most_one_remains():
    assert removals([3, 2, 2], 0, 5) == ([2, 2, 2], 0)
    assert removals([3, 3], 0, 5) == ([3, 3], 0)
    state = three({4: {0: 3, 1: 2, 2: 2}, 0: {1: 1}, 1: {2: 1}})
    state = to_conflict(state)
    assert state["pop"][4] == [1, 0, 0]


def test_rule_conflict_single_colour_hex_removes_down_to_the_limit():
    state = two({4: {0: 7}, 8: {1: 1}})
    state = to_conflict(state)
    assert state["pop"][4][0] == 5


def test_rule_conflict_survivor_still_over_the_limit_removes_down_to_it():
    assert removals([8, 1], 0, 5) == ([3, 1], 0)


def test_rule_conflict_in_every_overfull_hex_in_current_players_order():
    state = two({4: {0: 3, 1: 3}, 5: {0: 4, 1: 2}, 8: {1: 1}})
    state = to_conflict(state)
    d = decision(state)
    assert d["kind"] == "conflict_order" and sorted(m["hex"] for m in legal(state, 0)) == [4, 5]
    state, events = play(state, 0, {"type": "conflict", "hex": 5})
    order = [e["data"]["hex"] for e in events if e["type"] == "conflict_resolved"]
    assert order == [5, 4]
    assert state["pop"][5] == [2, 0] and state["pop"][4] == [0, 0]


def test_rule_deserted_village_removed_after_conflict():
    state = two({4: {0: 3, 1: 3}, 0: {0: 1}, 8: {1: 1}})
    state["village"][4] = 1
    state["supply"]["villages"] = 11
    state = to_conflict(state)
    assert state["pop"][4] == [0, 0]
    assert state["village"][4] is None and state["supply"]["villages"] == 12


def test_rule_bow_removes_one_defender_of_choice_first():
    state = three({4: {0: 2, 1: 2, 2: 2}, 0: {1: 1}, 1: {2: 1}})
    develop(state, 0, "bow")
    state = to_conflict(state)
    assert decision(state)["kind"] == "bow"
    assert legal(state, 0) == [{"type": "bow", "target": 1}, {"type": "bow", "target": 2}, {"type": "skip"}]
    state = run(state, 0, {"type": "bow", "target": 2})
    # total now 5, conflict still resolves: [2,2,1] -> [1,1,0] -> [0,0,0]
    assert state["pop"][4] == [0, 0, 0]


def test_rule_bow_reducing_to_five_does_not_stop_conflict():
    state = two({4: {0: 4, 1: 2}, 8: {1: 1}})
    develop(state, 0, "bow")
    state = to_conflict(state)
    state = run(state, 0, {"type": "bow", "target": 1})
    assert state["pop"][4] == [3, 0]


def test_rule_bow_is_optional():
    state = two({4: {0: 4, 1: 2}, 8: {1: 1}})
    develop(state, 0, "bow")
    state = to_conflict(state)
    state = run(state, 0, {"type": "skip"})
    assert state["pop"][4] == [2, 0]


def test_rule_bow_not_usable_by_defending_players():
    state = two({4: {0: 4, 1: 2}, 8: {1: 1}})
    develop(state, 1, "bow")
    state = to_conflict(state)
    assert decision(state)["kind"] == "goals"
    assert state["pop"][4] == [2, 0]


def test_rule_bow_usable_in_multiple_conflicts():
    state = two({4: {0: 3, 1: 3}, 5: {0: 4, 1: 2}, 8: {1: 1}})
    develop(state, 0, "bow")
    state = to_conflict(state)
    state = run(state, 0, {"type": "conflict", "hex": 4}, {"type": "bow", "target": 1})
    assert state["pop"][4] == [1, 0]
    assert decision(state)["kind"] == "bow" and decision(state)["hex"] == 5
    state = run(state, 0, {"type": "bow", "target": 1})
    assert state["pop"][5] == [3, 0]


def test_rule_conflict_happens_after_both_actions_not_during():
    state = two({0: {0: 5}, 8: {1: 1}})
    from .scenarios import action_move

    state = run(state, 0, action_move(state, "grow", "weak"), {"type": "grow", "hex": 0}, {"type": "grow", "hex": 0})
    assert state["pop"][0][0] == 7 and decision(state)["kind"] == "action"
    state = run(state, 0, {"type": "act", "action": "move", "face": "blank"}, {"type": "done"})
    assert state["pop"][0][0] == 5


def _datas(events, kind):
    """The data of every event of ``kind`` among ``events``."""
    return [e["data"] for e in events if e["type"] == kind]


def _finish_actions(state, seat=0):
    """Like ``to_conflict``, but also returns the events of the move that ends the actions."""
    state["turn"]["actions"] = ["lead"]
    state["turn"]["rolled"] = ["blank"]
    state = run(state, seat, {"type": "act", "action": "move", "face": "blank"})
    return play(state, seat, {"type": "done"})


def _evasion(pop):
    state = two(pop, powers=True)
    state["seats"][0]["power"], state["seats"][1]["power"] = None, "evasion"
    return state


def test_power_evasion_staying_fights_the_conflict_out():
    """Evasion is a choice before the removal rounds: a player who stays fights at once."""
    state, events = _finish_actions(_evasion({4: {0: 3, 1: 3}, 5: {1: 1}, 8: {1: 1}}))
    assert _datas(events, "turn_set")[-1] == {"set": {"fight": {"hex": 4, "stage": "fight"}}}
    assert decision(state)["kind"] == "evade"
    state = run(state, 1, {"type": "stay"})
    assert state["pop"][4] == [0, 0] and decision(state)["kind"] == "goals"


def test_power_evasion_moves_the_whole_tribe_and_says_why():
    state = to_conflict(_evasion({4: {0: 3, 1: 3}, 5: {1: 2}, 8: {1: 1}}))
    assert legal(state, 1) == [{"type": "evade", "hex": 5}, {"type": "stay"}]  # 2 + 3 = the limit: allowed
    state, events = play(state, 1, {"type": "evade", "hex": 5})
    assert _datas(events, "members_moved") == [{"seat": 1, "from": 4, "to": 5, "count": 3, "why": "evasion"}]
    assert state["pop"][4] == [3, 0] and state["pop"][5][1] == 5


def test_power_evasion_not_into_a_hex_held_by_invaders():
    state = _evasion({4: {0: 3, 1: 3}, 5: {1: 1}, 8: {1: 1}})
    activate(state, "invaders", 0, hex=5, tokens=1)
    state = to_conflict(state)
    assert state["pop"][4] == [0, 0]  # no retreat: the conflict resolved at once


def test_rule_bow_only_where_its_owner_is_present():
    """Bow: the current player removes a defender "in a conflict", i.e. where they fight: with
    one member there it is offered, with none it is not."""
    state = develop(two({4: {0: 1, 1: 5}, 8: {1: 1}}), 0, "bow")
    assert decision(to_conflict(state))["kind"] == "bow"
    state = develop(two({0: {0: 1}, 4: {1: 6}, 8: {1: 1}}), 0, "bow")
    state = to_conflict(state)
    assert state["pop"][4][1] == 5 and decision(state)["kind"] == "goals"


def test_event_invaders_last_one_falling_with_the_active_players_last_member_scores():
    """3 members against 3 Invaders: both sides fall in round 3, the active player removed the
    last Invader and scores the card's 2 points, recorded as for the Invaders."""
    state = two({0: {0: 3}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=0, tokens=3)
    state, events = _finish_actions(state)
    assert state["pop"][0][0] == 0 and state["events"]["slots"][0] is None
    assert _datas(events, "score") == [{"seat": 0, "points": 2, "why": "invaders"}]


def test_event_invaders_outlast_a_smaller_tribe_and_stay():
    state = two({0: {0: 2}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=0, tokens=4)
    state = to_conflict(state)
    assert state["pop"][0][0] == 0 and state["events"]["slots"][0]["tokens"] == 2
    assert state["seats"][0]["score"] == 0


def test_event_invaders_count_toward_the_limit_from_one_token_and_one_member():
    """A hex over the limit with one member and five Invaders, or five members and one Invader,
    has a conflict."""
    state = two({0: {0: 1}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=0, tokens=5)
    state = to_conflict(state)
    assert state["pop"][0][0] == 0 and state["events"]["slots"][0]["tokens"] == 4
    state = two({0: {0: 5}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=0, tokens=1)
    state = to_conflict(state)
    assert state["pop"][0][0] == 4 and state["events"]["slots"][0] is None and state["seats"][0]["score"] == 2


def test_rule_conflict_only_where_a_tribe_is():
    """Five Invaders under Drought's limit of 4 with no tribe in the hex: no conflict there."""
    state = two({0: {0: 2}, 8: {1: 3}})
    activate(state, "invaders", 0, hex=4, tokens=5)
    activate(state, "drought", 1)
    state, events = _finish_actions(state)
    assert _datas(events, "conflict_resolved") == [] and state["events"]["slots"][0]["tokens"] == 5


def test_rule_conflict_in_every_overfull_hex_records_each_hex_fought():
    """Each overfull hex has its conflict once a turn; the turn records the hexes fought."""
    state = to_conflict(two({4: {0: 3, 1: 3}, 8: {1: 1}}))
    assert state["turn"]["fought"] == [4]
