"""Explore: turn order, playing and activating members, interruption, passing, Cleanup."""
from shared.rng import FastRng

from .helpers import (ACTIVATE, GAME, SKIP, C, explore, give, finish_explore, form, gain, moves, play, step, steps,
                      turn_seat)

HANDS3 = {
    0: ["warrior", "magician", "cleric", "sage"],
    1: ["warrior", "werewolf", "cleric", "thief"],
    2: ["magician", "werewolf", "tactician", "archaeologist"],
}


def _card(state, seat, member):
    return next(c for c in state["seats"][seat]["play"] if c["id"] == member)


def test_rule_turns_go_clockwise_from_the_starting_player():
    state = explore(3, HANDS3, start=1)
    order = []
    for _ in range(3):
        order.append(turn_seat(state))
        state = steps(state, play(state["seats"][turn_seat(state)]["hand"][0], "legendary"))
    assert order == [1, 2, 0] and turn_seat(state) == 1


def test_rule_no_upright_member_play_a_member_declaring_nameless_or_legendary():
    state = explore(3, HANDS3)
    legal = moves(state)
    assert {m["type"] for m in legal} == {"play"}
    for member in HANDS3[0]:
        assert play(member, "nameless") in legal and play(member, "legendary") in legal
    assert len(legal) == 8


def test_rule_nameless_resolves_at_once_then_the_card_turns_sideways():
    state = explore(3, HANDS3)
    state, events = step(state, play("warrior", "nameless"))
    assert state["turn"]["queue"] == [{"op": "gain", "token": "strength"}] * 2
    assert _card(state, 0, "warrior")["upright"] is False
    state = steps(state, gain("strength"), gain("strength"))
    assert state["seats"][0]["tokens"]["strength"] == 2
    assert turn_seat(state) == 1


def test_rule_legendary_ends_the_turn_and_resolves_next_turn_if_still_upright():
    state = explore(3, HANDS3)
    state, _ = step(state, play("magician", "legendary"))
    assert _card(state, 0, "magician")["upright"] is True
    assert state["seats"][0]["tokens"] == {"strength": 0, "mana": 0, "wisdom": 0}
    assert turn_seat(state) == 1
    state = steps(state, play("thief", "nameless"), SKIP, SKIP, play("tactician", "nameless"), SKIP, SKIP)
    assert turn_seat(state) == 0
    assert moves(state) == [ACTIVATE]  # with an upright member, a card may not be played
    state, _ = step(state, ACTIVATE)
    assert _card(state, 0, "magician")["upright"] is False
    assert [s["op"] for s in state["turn"]["queue"]] == ["gain", "gain", "overcome"]


def test_rule_interruption_turns_same_named_upright_members_of_others_sideways():
    state = explore(3, HANDS3)
    state = steps(state, play("warrior", "legendary"))
    state, events = step(state, play("warrior", "nameless"))  # seat 1 plays a Warrior too
    state = steps(state, SKIP, SKIP)
    assert _card(state, 0, "warrior")["upright"] is False
    end = [e for e in events if e["type"] == "turn_end"]
    assert not end  # the interruption happens at the END of seat 1's turn
    assert turn_seat(state) == 2


def test_rule_interruption_only_hits_the_name_played_this_turn():
    state = explore(3, HANDS3)
    state = steps(state, play("warrior", "legendary"), play("werewolf", "nameless"), SKIP)
    assert _card(state, 0, "warrior")["upright"] is True


def test_rule_interruption_spares_holy_shield():
    state = explore(3, HANDS3)
    state = steps(state, play("cleric", "legendary"), play("cleric", "nameless"), SKIP, SKIP)
    assert _card(state, 0, "cleric")["upright"] is True


def test_rule_activating_a_legendary_plays_no_card_so_interrupts_nothing():
    state = explore(3, HANDS3)
    state = steps(state, play("cleric", "legendary"), play("cleric", "legendary"), play("tactician", "nameless"),
                  SKIP, SKIP)
    assert _card(state, 0, "cleric")["upright"] and _card(state, 1, "cleric")["upright"]
    state, events = step(state, ACTIVATE)
    state, events = step(state, SKIP)
    state, events = step(state, SKIP)  # the Overcome that follows is impossible and passes by itself
    end = next(e for e in events if e["type"] == "turn_end")["data"]
    assert end == {"seat": 0, "played": None, "interrupted": []}
    assert _card(state, 1, "cleric")["upright"]


def test_rule_interrupted_legendary_does_not_resolve():
    state = explore(3, HANDS3)
    state = steps(state, play("magician", "legendary"), play("werewolf", "nameless"), SKIP,
                  play("magician", "nameless"), SKIP, SKIP)
    assert turn_seat(state) == 0
    assert {m["type"] for m in moves(state)} == {"play"}


def test_rule_player_who_cannot_act_passes_and_phase_ends_when_all_pass():
    state = explore(2, {0: ["warrior", "magician", "cleric", "sage"], 1: ["thief", "werewolf", "cleric", "sage"]})
    order = []
    while state["phase"] == "explore":
        order.append(turn_seat(state))
        state = steps(state, play(state["seats"][turn_seat(state)]["hand"][0], "nameless"))
        while state["phase"] == "explore" and state["turn"]["queue"]:
            state = steps(state, SKIP)
    assert order == [0, 1] * 4
    assert state["phase"] == "formation" and state["round"] == 2


def test_rule_pass_skips_only_the_seat_that_cannot_act():
    state = explore(2, {0: ["warrior", "magician", "cleric", "sage"], 1: ["thief", "werewolf", "cleric", "sage"]})
    # seat 0 empties its hand faster: each of its turns is nameless, seat 1 declares legendary each time
    order = []
    while state["phase"] == "explore":
        seat = turn_seat(state)
        order.append(seat)
        s = state["seats"][seat]
        if any(c["upright"] for c in s["play"]):
            state = steps(state, ACTIVATE)
        else:
            state = steps(state, play(s["hand"][0], "nameless" if seat == 0 else "legendary"))
        while state["phase"] == "explore" and state["turn"]["queue"]:
            state = steps(state, SKIP)
    # seat 1 takes 8 turns (4 declarations + 4 activations); seat 0 passes after its 4th
    assert order == [0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1]


def test_rule_cleanup_last_actor_starts_next_round_and_members_return():
    state = explore(3, HANDS3, start=2)
    give_tokens = state["seats"][1]["tokens"]
    state, log = finish_explore(state)
    last = [e for e in log if e["type"] == "turn_end"][-1]["data"]["seat"]
    end = [e for e in log if e["type"] == "round_end"][0]["data"]
    assert end == {"round": 2, "start_seat": last}
    assert state["start_seat"] == last and state["round"] == 2
    for s in state["seats"]:
        assert s["play"] == [] and s["hand"] == [] and len(s["standby"]) == 9
    assert give_tokens == state["seats"][1]["tokens"]
    assert state["phase"] == "formation" and GAME.to_act(state) == [0, 1, 2]
    assert GAME.view(state, 0)["cursor"] == last  # the next Explore begins with the last actor


def test_rule_explore_begins_with_the_formation_closed_and_the_starting_player_to_act():
    """1. Formation: once all have chosen, proceed to Explore; the Formation is over, so no
    seat's view shows one any more, and the turns start from the starting player."""
    state = explore(3, HANDS3, start=1)
    assert state["formation"] is None
    for seat in (None, 0, 1):
        view = GAME.view(state, seat)
        assert view["formation"] is None and view["phase"] == "explore" and view["cursor"] == 1


def test_rule_the_turn_in_progress_shows_the_declared_ability_and_its_source():
    """Taking your turn: every player sees the member played, the ability declared (nameless or
    legendary) and whether the member's own ability or a Level 1 relic is used."""
    state = explore(3, HANDS3)
    assert GAME.view(state, 1)["turn"] == {"seat": 0, "played": None, "ability": None, "use": None, "queue": None,
                                           "kinds": {}}  # nothing declared yet
    state, _ = step(state, play("warrior", "nameless"))
    turn = GAME.view(state, 1)["turn"]
    assert (turn["seat"], turn["played"], turn["ability"], turn["use"]) == (0, "warrior", "nameless", "member")
    state = steps(state, SKIP, SKIP)
    state = steps(state, play("warrior", "legendary"), play("magician", "legendary"), play("magician", "legendary"),
                  ACTIVATE)  # a declared legendary ends its turn at once; seat 1 activates it
    turn = GAME.view(state, 0)["turn"]
    assert (turn["seat"], turn["played"], turn["ability"], turn["use"]) == (1, None, "legendary", "member")


def _eager_explore(state: dict, seed: int) -> tuple[dict, dict]:
    """Play the Explore phase with real effects (every icon carried out where it can be, the
    choice among ways random but seeded); returns the state just before Cleanup (folded up to
    the ``round_end`` event) and the state after it."""
    rng = FastRng(seed)
    while True:
        legal = moves(state)
        doing = [m for m in legal if m["type"] != "skip"] or legal
        move = doing[rng.randbelow(len(doing))]
        events = GAME.decide(state, turn_seat(state), move, rng)
        ends = [i for i, e in enumerate(events) if e["type"] == "round_end"]
        if ends:
            return GAME.fold(events[:ends[0]], state), GAME.fold(events, state)
        state = GAME.fold(events, state)


def test_rule_cleanup_keeps_field_tokens_relics_and_journals_that_the_round_changed():
    """3. Cleanup returns the members to standby and nothing else: the tokens, Level 1 relics,
    journals and the field the Explore phase changed (by real moves) stay as they were."""
    for seed in range(3):
        start = explore(3, HANDS3)
        for seat in range(3):  # tokens from earlier rounds, so that cards can be obtained
            give(start, seat, **{t: 4 for t in C.tokens})
        before, after = _eager_explore(start, seed)
        changed = [s for s in range(3) if before["seats"][s]["tokens"] != start["seats"][s]["tokens"]]
        assert changed, "the round changed no tokens: nothing for Cleanup to keep"
        assert before["field"] != start["field"] or any(b["journal"] for b in before["seats"])
        assert after["field"] == before["field"]
        for b, a in zip(before["seats"], after["seats"]):
            assert a["tokens"] == b["tokens"] and a["relics"] == b["relics"] and a["journal"] == b["journal"]
            assert b["play"] and a["play"] == [] and a["hand"] == [] and a["standby"] == a["members"]


def test_rule_next_round_starts_with_the_new_starting_player():
    state = explore(3, HANDS3)
    state, _ = finish_explore(state)
    start = state["start_seat"]
    state = form(state, {0: ["thief", "werewolf", "tactician", "sage"], 1: ["magician", "sage", "tactician", "archaeologist"],
                         2: ["warrior", "cleric", "thief", "sage"]})
    assert state["phase"] == "explore" and turn_seat(state) == start


def test_rule_mythical_beast_in_hand_is_a_fifth_member_this_round():
    state = explore(3, HANDS3)
    state["seats"][0]["hand"].append("mythical_beast")
    state["seats"][0]["members"].append("mythical_beast")
    legal = moves(state)
    assert play("mythical_beast", "nameless") in legal
    state = steps(state, play("mythical_beast", "nameless"), gain("wisdom"))
    assert moves(state) == [gain("wisdom"), SKIP]  # its Token-of-a-kind box
    assert gain("strength") not in moves(state)


def test_rule_turn_ended_by_an_unpaid_cost_still_checks_interruption():
    hands = {0: ["archaeologist", "magician", "cleric", "sage"], 1: ["archaeologist", "werewolf", "cleric", "thief"],
             2: ["magician", "werewolf", "tactician", "sage"]}
    state = explore(3, hands)
    state = steps(state, play("archaeologist", "legendary"))
    state, events = step(state, play("archaeologist", "nameless"))  # no wisdom for its Cost
    assert [e["type"] for e in events][1:3] == ["cost_unpaid", "turn_end"]
    assert events[2]["data"]["interrupted"] == [[0, 0]]
    assert _card(state, 0, "archaeologist")["upright"] is False


def test_rule_passes_are_logged_and_the_phase_ends_after_all_pass():
    state = explore(2, {0: ["warrior", "magician", "cleric", "sage"], 1: ["thief", "werewolf", "cleric", "sage"]})
    log = []
    while state["phase"] == "explore":
        seat = turn_seat(state)
        s = state["seats"][seat]
        if any(c["upright"] for c in s["play"]):
            state, events = step(state, ACTIVATE)
        else:
            state, events = step(state, play(s["hand"][0], "nameless" if seat == 0 else "legendary"))
        log += events
        while state["phase"] == "explore" and state["turn"]["queue"]:
            state, events = step(state, SKIP)
            log += events
    kinds = [(e["type"], e["data"].get("seat")) for e in log if e["type"] in ("pass", "turn_begin", "round_end")]
    # after seat 0's fourth turn it passes each time its turn comes round; at the end both pass
    assert kinds[-12:] == [("turn_begin", 1)] + [("pass", 0), ("turn_begin", 1)] * 4 + [
        ("pass", 0), ("pass", 1), ("round_end", None)]
    assert ("pass", 0) not in kinds[:-12]
