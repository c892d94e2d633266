"""The rulebook's Sample Play, step by step (seat 0 Player One, 1 Brian, 2 Sarah)."""
from shared.canonical import encode

from .helpers import GAME, act, moves, of_type, pass_window, place_bid, play_all, table

P1, BRIAN, SARAH = 0, 1, 2


def opening():
    return table(
        [
            ["arcane_insight", "thievery", "orc", "desolate", "shifting_allegiances"],
            ["peace", "thievery", "tactical_reversal", "elf", "dwarf"],
            ["negotiations", "peace", "thievery", "human", "conquest"],
        ],
        deck=["thievery", "human", "change_of_fate", "elf", "dwarf", "arcane_insight", "orc", "elf"],
    )


def after_step_1():
    state, _ = act(opening(), P1, {"type": "play", "card": "arcane_insight"})
    state, _ = pass_window(state)
    state, _ = act(state, P1, {"type": "play", "card": "thievery", "target": BRIAN})
    state, _ = act(state, BRIAN, {"type": "respond", "card": "peace"})
    return state


def after_step_2():
    state, _ = act(after_step_1(), P1, {"type": "end_phase"})
    state, _ = act(state, P1, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, P1, ["desolate", "shifting_allegiances"])
    state, _ = place_bid(state, BRIAN, ["thievery", "tactical_reversal"])
    state, events = place_bid(state, SARAH, ["negotiations"])
    return state, events


def after_step_4():
    state, _ = after_step_2()
    state, _ = pass_window(state)  # nobody plays Sabotage
    state, _ = act(state, P1, {"type": "end_phase"})
    state, _ = act(state, P1, {"type": "play", "card": "thievery", "target": SARAH})
    return state


def test_example_sample_play_step_1_arcane_insight_then_thievery_countered_by_peace():
    state, _ = act(opening(), P1, {"type": "play", "card": "arcane_insight"})
    assert GAME.to_act(state) == [BRIAN]  # the window opens on the left
    state, _ = pass_window(state)
    assert len(state["hands"][P1]) == 6  # "now he has 6"
    state, _ = act(state, P1, {"type": "play", "card": "thievery", "target": BRIAN})
    assert {"type": "respond", "card": "peace"} in moves(state, BRIAN)
    state, events = act(state, BRIAN, {"type": "respond", "card": "peace"})
    assert of_type(events, "countered")
    assert not of_type(events, "hand_seen")  # the effect is negated
    assert state["action"] is None and state["window"] is None
    assert state["discard"][-2:] == ["peace", "thievery"]
    assert len(state["hands"][BRIAN]) == 4 and "thievery" in state["hands"][BRIAN]
    assert GAME.to_act(state) == [P1]


def test_example_sample_play_step_2_tied_bid_goes_to_player_one():
    state, events = after_step_2()
    (won,) = of_type(events, "bid_won")
    assert won["data"]["totals"] == {"0": 8, "1": 4, "2": 8}
    assert won["data"]["winner"] == P1  # "Ties go to the first player in the turn order"
    assert sorted(state["discard"][-2:]) == ["desolate", "shifting_allegiances"]
    assert "negotiations" in state["hands"][SARAH]
    assert {"thievery", "tactical_reversal"} <= set(state["hands"][BRIAN])
    # control waits for the Sabotage window, which opens on the winner's left
    assert state["clans"][P1] == [] and GAME.to_act(state) == [BRIAN]
    state, _ = pass_window(state)
    assert state["clans"][P1] == ["orc"]


def test_example_sample_play_step_2_everyone_sees_how_many_cards_each_placed():
    """"He places 2 cards face down ... Brian plays 2 cards face down and Sarah plays 1 card face
    down": the counts are public, the cards are not."""
    state, _ = act(after_step_1(), P1, {"type": "end_phase"})
    state, _ = act(state, P1, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, P1, ["desolate", "shifting_allegiances"])
    assert GAME.view(state, BRIAN)["bid"]["counts"] == {"0": 2}
    state, _ = place_bid(state, BRIAN, ["thievery", "tactical_reversal"])
    view = GAME.view(state, SARAH)
    assert view["bid"]["counts"] == {"0": 2, "1": 2}
    assert b"desolate" not in encode(view["bid"]) and b"tactical_reversal" not in encode(view["bid"])
    state, events = place_bid(state, SARAH, ["negotiations"])
    placed = [GAME.redact(e, P1)["data"] for e in of_type(events, "bid_placed")]
    assert placed == [{"seat": SARAH, "count": 1}]
    assert GAME.view(state, None)["bid"]["counts"] == {"0": 2, "1": 2, "2": 1}


def test_example_sample_play_step_3_player_one_may_stop_bidding():
    state, _ = after_step_2()
    state, _ = pass_window(state)
    assert sorted(state["hands"][P1]) == ["human", "thievery"]
    assert {"type": "put_up", "card": "human"} in moves(state, P1)
    state, _ = act(state, P1, {"type": "end_phase"})
    assert state["phase"] == "action2"


def test_example_sample_play_step_4_tactical_reversal_and_sarah_cannot_respond():
    state = after_step_4()
    assert GAME.to_act(state) == [BRIAN]
    state, _ = act(state, BRIAN, {"type": "respond", "card": "tactical_reversal"})
    assert moves(state, SARAH) == []  # holds Peace and Thievery, but the window is closed
    assert {"peace", "thievery"} <= set(state["hands"][SARAH])
    assert GAME.to_act(state) == [P1]  # Thievery resolves: Player One picks from Sarah's hand
    assert GAME.view(state, P1)["peek"]["hand"] == state["hands"][SARAH]
    state, events = act(state, P1, {"type": "take", "card": "negotiations"})
    assert "negotiations" in state["hands"][P1]
    assert of_type(events, "action_finished")[0]["data"]["to"] == BRIAN
    assert state["hands"][BRIAN].count("thievery") == 2  # his own and Player One's


def test_example_sample_play_step_5_extra_draw_for_putting_up_a_clan():
    state = after_step_4()
    state, _ = play_all(state, (BRIAN, {"type": "respond", "card": "tactical_reversal"}),
                        (P1, {"type": "take", "card": "negotiations"}))
    sizes = [len(h) for h in state["hands"]]
    state, events = act(state, P1, {"type": "end_phase"})
    draws = [(e["data"]["seat"], e["data"]["count"]) for e in of_type(events, "drew")]
    assert draws == [(P1, 1), (P1, 1), (BRIAN, 1), (SARAH, 1)]
    assert [len(h) for h in state["hands"]] == [sizes[0] + 2, sizes[1] + 1, sizes[2] + 1]
    assert state["turn"] == BRIAN and state["phase"] == "action1"


def test_example_sample_play_step_5_if_he_did_not_win_the_clan_he_still_draws_the_extra_card():
    """Step 5: "Note, that if he did not win the Clan ... he would still draw only 1 extra card":
    the same turn with Player One bidding only Desolate (2 + 3 = 5 against Sarah's 8), so Sarah
    wins the Orc; in Phase 4 he still draws the extra card for having put a clan up."""
    state, _ = act(after_step_1(), P1, {"type": "end_phase"})
    state, _ = act(state, P1, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, P1, ["desolate"])
    state, _ = place_bid(state, BRIAN, ["thievery", "tactical_reversal"])
    state, events = place_bid(state, SARAH, ["negotiations"])
    won = of_type(events, "bid_won")[0]["data"]
    assert won["winner"] == SARAH and won["totals"] == {"0": 5, "1": 4, "2": 8}
    state, _ = pass_window(state)
    assert state["clans"] == [[], [], ["orc"]] and state["put_up"]
    state, _ = act(state, P1, {"type": "end_phase"})
    sizes = [len(h) for h in state["hands"]]
    state, events = act(state, P1, {"type": "end_phase"})
    draws = [(e["data"]["seat"], e["data"]["count"]) for e in of_type(events, "drew")]
    assert draws == [(P1, 1), (P1, 1), (BRIAN, 1), (SARAH, 1)]
    assert [len(h) for h in state["hands"]] == [sizes[0] + 2, sizes[1] + 1, sizes[2] + 1]
