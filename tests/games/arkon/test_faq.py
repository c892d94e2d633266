"""Every FAQ answer of the rulebook, as a test."""
from .helpers import GAME, act, moves, of_type, pass_window, place_bid, table, with_full_deck


def up_for_bid(state, seat, clan, bids):
    """``seat`` puts ``clan`` up; ``bids`` maps each seat (in bid order) to its cards."""
    state, events = act(state, seat, {"type": "put_up", "card": clan})
    for s, cards in bids:
        state, evs = place_bid(state, s, cards)
        events += evs
    return state, events


# ----- General -------------------------------------------------------------------------------
def test_faq_general_bidder_gets_the_clans_two_and_later_one_passive():
    state = table([["orc", "elf"], ["desolate", "peace"]], phase="bidding", deck=["human"] * 4)
    state, events = up_for_bid(state, 0, "orc", [(0, []), (1, [])])
    assert of_type(events, "bid_won")[0]["data"]["totals"] == {"0": 2, "1": 0}
    state, _ = pass_window(state)
    state, events = up_for_bid(state, 0, "elf", [(0, []), (1, ["desolate"])])
    assert of_type(events, "bid_won")[0]["data"]["totals"] == {"0": 2 + 1, "1": 3}
    assert of_type(events, "bid_won")[0]["data"]["winner"] == 0


def test_faq_general_deck_runs_out_shuffle_the_discard_into_a_new_deck():
    state = table([[], []], deck=[], discard=["elf", "orc", "human"], phase="action2")
    state, events = act(state, 0, {"type": "end_phase"})
    assert of_type(events, "reshuffled") and len(state["deck"]) == 1
    assert state["discard"] == [] and [len(h) for h in state["hands"]] == [1, 1]


def test_faq_general_target_declared_before_anyone_may_counter():
    state = table([["thievery"], ["thievery"], ["peace"]], deck=["elf"] * 3)
    state, _ = act(state, 0, {"type": "play", "card": "thievery", "target": 2})
    view = GAME.view(state, 1)
    assert view["action"]["target"] == 2 and view["window"]["order"] == [1, 2]


def test_faq_general_only_one_clan_up_for_bid_at_a_time():
    state = table([["orc", "elf", "peace"], ["desolate"]], phase="bidding", deck=["human"] * 4)
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    assert {m["type"] for m in moves(state, 0)} == {"bid"}


# ----- Shifting Allegiances --------------------------------------------------------------------
def test_faq_shifting_allegiances_cards_are_exchanged_at_the_same_time():
    for seed in range(6):  # whatever the random picks, nobody hands back what it just received
        state = table([["shifting_allegiances", "elf"], ["peace"]], clans=[["orc"], ["human"]],
                      deck=["dwarf"] * 3)
        state, _ = act(state, 0, {"type": "play", "card": "shifting_allegiances", "target": 1}, seed)
        state, _ = act(state, 1, {"type": "pass"}, seed)
        assert state["hands"] == [["peace"], ["elf"]]


def test_faq_shifting_allegiances_simultaneous_exchange_never_shows_a_hand_above_the_limit():
    """"Both are exchanged at the same time" with the General Rules' hand limit of 8: one event
    moves both gifts, so no prefix of the log has a hand of 9 or more (nearly full hands here)."""
    for seed in range(6):
        state = table([["shifting_allegiances"] + ["elf"] * 7, ["peace"] * 8],
                      clans=[["orc", "dwarf"], ["human", "human"]], deck=["dwarf"] * 3)
        state, played = act(state, 0, {"type": "play", "card": "shifting_allegiances", "target": 1}, seed)
        state, events = act(state, 1, {"type": "pass"}, seed)
        (exchange,) = of_type(events, "cards_exchanged")
        assert not of_type(events, "cards_moved")
        assert GAME.redact(exchange, None)["data"] == {"seats": [0, 1], "counts": [2, 2], "how": "random"}
        folded = table([["shifting_allegiances"] + ["elf"] * 7, ["peace"] * 8],
                       clans=[["orc", "dwarf"], ["human", "human"]], deck=["dwarf"] * 3)
        for ev in played + events:
            folded = GAME.evolve(folded, ev)
            assert max(len(h) for h in folded["hands"]) <= 8, ev["type"]
        assert sorted(folded["hands"][0]) == ["elf"] * 5 + ["peace"] * 2
        assert sorted(folded["hands"][1]) == ["elf"] * 2 + ["peace"] * 6


def test_faq_shifting_allegiances_playable_when_you_cannot_give_enough():
    state = table([["shifting_allegiances", "elf"], ["peace"]], clans=[[], ["human", "orc", "dwarf"]],
                  deck=["dwarf"] * 3)
    assert {"type": "play", "card": "shifting_allegiances", "target": 1} in moves(state, 0)
    state, _ = act(state, 0, {"type": "play", "card": "shifting_allegiances", "target": 1})
    state, _ = pass_window(state)
    assert state["hands"] == [[], ["peace", "elf"]] and len(state["clans"][0]) == 3


# ----- Conquest --------------------------------------------------------------------------------
def test_faq_conquest_takes_just_one_of_two_humans():
    state = table([["conquest", "elf"], ["peace"]], clans=[[], ["human", "human"]], deck=["orc"] * 3)
    plays = [m for m in moves(state, 0) if m["type"] == "play"]
    assert plays == [{"type": "play", "card": "conquest", "target": 1, "clan": "human"}]
    state, _ = act(state, 0, plays[0])
    state, _ = pass_window(state)
    assert state["clans"] == [["human"], ["human"]]


def test_faq_conquest_take_control_on_your_action_phase_and_give_a_random_card():
    state = table([["conquest", "elf"], ["peace"]], clans=[[], ["dwarf"]], phase="bidding")
    assert not [m for m in moves(state, 0) if m["type"] == "play"]
    state["phase"] = "action2"
    state, _ = act(state, 0, {"type": "play", "card": "conquest", "target": 1, "clan": "dwarf"})
    state, _ = pass_window(state)
    assert state["clans"] == [["dwarf"], []] and sorted(state["hands"][1]) == ["elf", "peace"]


# ----- Sabotage --------------------------------------------------------------------------------
def sabotage_table(bidder_hand, other_hand, **kw):
    return table([bidder_hand, other_hand], phase="bidding", deck=["human"] * 6, **kw)


def test_faq_sabotage_the_bidder_may_sabotage_a_clan_another_player_won():
    state = sabotage_table(["orc", "sabotage"], ["negotiations", "elf"])
    state, _ = up_for_bid(state, 0, "orc", [(0, []), (1, ["negotiations"])])
    assert GAME.to_act(state) == [0]
    assert {"type": "respond", "card": "sabotage"} in moves(state, 0)
    state, _ = act(state, 0, {"type": "respond", "card": "sabotage"})
    state, events = act(state, 1, {"type": "refuse"})
    assert of_type(events, "sabotage_refused")[0]["data"] == {"seat": 1, "saboteur": 0}
    assert of_type(events, "clan_controlled")[0]["data"] == {"seat": 0, "clan": "orc", "via": "sabotage"}
    assert state["clans"] == [["orc"], []] and "negotiations" in state["discard"]


def test_faq_sabotage_only_one_sabotage_window():
    state = table([["orc", "negotiations"], ["sabotage", "elf"], ["sabotage", "peace"]],
                  phase="bidding", deck=["human"] * 6)
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, []), (2, [])])
    state, _ = act(state, 1, {"type": "respond", "card": "sabotage"})
    assert moves(state, 2) == []  # seat 2's Sabotage comes too late
    assert GAME.to_act(state) == [0]


def test_faq_sabotage_must_be_paid_with_exactly_three():
    state = sabotage_table(["orc", "negotiations", "tactical_reversal", "thievery", "peace", "desolate"],
                           ["sabotage", "elf"])
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, [])])
    state, _ = act(state, 1, {"type": "respond", "card": "sabotage"})
    # 2 + 2 would overpay: a 2 is payable only because a 1 (Peace) can complete it
    payable = ("desolate", "peace", "tactical_reversal", "thievery")
    assert moves(state, 0) == [{"type": "pay", "card": c} for c in payable] + [{"type": "refuse"}]
    state, events = act(state, 0, {"type": "pay", "card": "thievery"})
    assert of_type(events, "chose")[0]["data"] == {"seat": 0, "card": "thievery", "shown_in_hand": True}
    assert GAME.view(state, 1)["known"][0] == ["thievery"]  # laid out face up: seen, still in hand
    assert moves(state, 0) == [{"type": "pay", "card": "peace"}, {"type": "refuse"}]
    state, events = act(state, 0, {"type": "pay", "card": "peace"})
    assert of_type(events, "sabotage_paid")[0]["data"]["cards"] == ["thievery", "peace"]
    assert state["clans"][0] == ["orc"]
    assert sorted(state["hands"][0]) == ["desolate", "tactical_reversal"]


def test_faq_sabotage_exactly_three_counts_each_card_once_and_a_zero_pays_nothing():
    """"Pay exactly three influence": a card laid out is not offered again, two 1s cannot make
    3, and Reinforcements (0) adds nothing, so it is never offered as a payment."""
    state = sabotage_table(["orc", "negotiations", "peace", "arcane_insight", "change_of_fate", "reinforcements"],
                           ["sabotage", "elf"], promo=["reinforcements"])
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, [])])
    state, _ = act(state, 1, {"type": "respond", "card": "sabotage"})
    ones = [{"type": "pay", "card": c} for c in ("arcane_insight", "change_of_fate", "peace")]
    assert moves(state, 0) == ones + [{"type": "refuse"}]
    state, _ = act(state, 0, {"type": "pay", "card": "peace"})
    assert moves(state, 0) == ones[:2] + [{"type": "refuse"}]  # Peace is laid out already
    short = sabotage_table(["orc", "negotiations", "peace", "arcane_insight"], ["sabotage", "elf"])
    short, _ = up_for_bid(short, 0, "orc", [(0, ["negotiations"]), (1, [])])
    short, _ = act(short, 1, {"type": "respond", "card": "sabotage"})
    assert moves(short, 0) == [{"type": "refuse"}]  # 1 + 1 is not 3


def test_faq_sabotage_cannot_pay_with_two_twos():
    state = sabotage_table(["orc", "negotiations", "tactical_reversal", "thievery"], ["sabotage", "elf"])
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, [])])
    state, _ = act(state, 1, {"type": "respond", "card": "sabotage"})
    assert moves(state, 0) == [{"type": "refuse"}]
    state, _ = act(state, 0, {"type": "refuse"})
    assert state["clans"] == [[], ["orc"]]
    assert "negotiations" in state["discard"]  # the winner still discards the bid cards


def test_faq_sabotage_bid_as_influence_comes_back_and_can_then_be_played():
    state = sabotage_table(["orc", "negotiations"], ["sabotage", "elf"])
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, ["sabotage"])])
    assert "sabotage" in state["hands"][1]
    state, _ = act(state, 1, {"type": "respond", "card": "sabotage"})
    state, _ = act(state, 0, {"type": "refuse"})
    assert state["clans"] == [[], ["orc"]]


def test_faq_sabotage_comes_after_the_winner_has_discarded_the_bid_cards():
    state = sabotage_table(["orc", "negotiations", "elf"], ["sabotage", "peace"])
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, [])])
    assert state["discard"] == ["negotiations"]
    assert state["window"]["kind"] == "sabotage" and state["clans"][0] == []


def test_faq_sabotage_fourth_clan_is_not_won_before_the_window():
    state = sabotage_table(["orc", "negotiations"], ["sabotage", "peace"],
                           clans=[["human", "dwarf", "elf"], []])
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, [])])
    assert GAME.outcome(state) is None and GAME.to_act(state) == [1]
    state, _ = act(state, 1, {"type": "respond", "card": "sabotage"})
    state, _ = act(state, 0, {"type": "refuse"})
    assert GAME.outcome(state) is None and state["clans"][1] == ["orc"]


def test_faq_sabotage_not_played_the_fourth_clan_wins():
    state = sabotage_table(["orc", "negotiations"], ["sabotage", "peace"],
                           clans=[["human", "dwarf", "elf"], []])
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, [])])
    state, _ = act(state, 1, {"type": "pass"})
    assert GAME.outcome(state).ranks == [1, 2]


# ----- Peace, Tactical Reversal ----------------------------------------------------------------
def test_faq_peace_cannot_answer_sabotage_or_tactical_reversal():
    state = table([["orc", "negotiations", "peace"], ["sabotage", "elf"]], phase="bidding",
                  deck=["human"] * 5)
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, [])])
    state, _ = act(state, 1, {"type": "respond", "card": "sabotage"})
    assert {"type": "respond", "card": "peace"} not in moves(state, 0)
    state = table([["arcane_insight"], ["tactical_reversal"], ["peace"]], deck=["elf"] * 4)
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    state, _ = act(state, 1, {"type": "respond", "card": "tactical_reversal"})
    assert moves(state, 2) == []


def test_faq_tactical_reversal_the_target_cannot_respond_afterwards():
    state = table([["thievery"], ["tactical_reversal"], ["peace", "thievery"]], deck=["elf"] * 4)
    state, _ = act(state, 0, {"type": "play", "card": "thievery", "target": 2})
    state, _ = act(state, 1, {"type": "respond", "card": "tactical_reversal"})
    assert moves(state, 2) == [] and GAME.to_act(state) == [0]


# ----- Arcane Insight, Change of Fate, Negotiations, Desolate ---------------------------------
def test_faq_arcane_insight_with_eight_cards_draws_only_one():
    state = table([["arcane_insight"] + ["elf"] * 7, ["orc"]], deck=["human", "dwarf"])
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    state, _ = pass_window(state)
    assert len(state["hands"][0]) == 8 and state["deck"] == ["dwarf"]


def test_faq_change_of_fate_no_declaration_before_counters():
    state = table([["change_of_fate", "elf", "elf"], ["peace"]], deck=["human"] * 4)
    plays = [m for m in moves(state, 0) if m["type"] == "play"]
    assert plays == [{"type": "play", "card": "change_of_fate"}]
    state, _ = act(state, 0, plays[0])
    assert state["pending"] == []  # nothing chosen yet
    state, _ = pass_window(state)
    assert state["pending"][-1]["kind"] == "cycle"


def test_faq_negotiations_can_only_be_played_as_influence():
    state = table([["negotiations", "orc"], ["elf"]])
    assert moves(state, 0) == [{"type": "end_phase"}]
    state["phase"] = "bidding"
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    assert moves(state, 0) == [{"type": "bid", "cards": []}, {"type": "bid", "cards": ["negotiations"]}]


def test_faq_desolate_removes_one_clan_not_all_of_a_type():
    state = table([["desolate"], ["elf"]], clans=[[], ["orc", "orc", "orc"]])
    state, _ = act(state, 0, {"type": "play", "card": "desolate", "target": 1, "clan": "orc"})
    state, _ = pass_window(state)
    assert state["clans"][1] == ["orc", "orc"]


# ----- Reinforcements (promo) ------------------------------------------------------------------
def test_faq_reinforcements_cards_return_to_hand_when_the_bid_is_lost():
    state = table([["orc", "negotiations"], ["reinforcements", "peace"]], phase="bidding",
                  deck=["desolate", "thievery", "elf"], promo=True)
    state, events = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, ["reinforcements"])])
    assert of_type(events, "reinforced")[0]["data"]["drawn"] == ["desolate", "thievery"]
    assert of_type(events, "bid_won")[0]["data"]["totals"] == {"0": 10, "1": 5}
    assert sorted(state["hands"][1]) == ["desolate", "peace", "thievery"]
    assert "reinforcements" in state["discard"]


def test_faq_reinforcements_resolve_from_the_active_player_clockwise():
    state = table([["orc", "reinforcements"], ["negotiations"], ["reinforcements"]], phase="bidding",
                  deck=["desolate", "thievery", "peace", "peace"], promo=True)
    state, events = up_for_bid(state, 0, "orc", [(0, ["reinforcements"]), (1, []), (2, ["reinforcements"])])
    got = [(e["data"]["seat"], e["data"]["drawn"]) for e in of_type(events, "reinforced")]
    assert got == [(0, ["desolate", "thievery"]), (2, ["peace", "peace"])]


# ----- Savin, The Endless (promo) --------------------------------------------------------------
def test_faq_savin_adds_one_passive_influence_not_two():
    state = table([["orc"], ["negotiations"]], phase="bidding", clans=[["savin"], []], promo=True,
                  deck=["elf"] * 3)
    state, events = up_for_bid(state, 0, "orc", [(0, []), (1, [])])
    assert of_type(events, "bid_won")[0]["data"]["totals"]["0"] == 2 + 1


def test_rule_savin_is_any_one_clan_type_not_two():
    """Savin "is any one clan type": Savin, an Orc and two Elves make three of a kind or three
    types, never four; and Savin alone is one clan toward a win."""
    from shared.games.arkon.scoring import progress
    state = table([["elf"], ["peace"]], phase="bidding", clans=[["savin", "orc", "elf"], []], promo=True,
                  deck=["elf"] * 3)
    state, _ = up_for_bid(state, 0, "elf", [(0, []), (1, [])])
    state, _ = pass_window(state)
    assert sorted(state["clans"][0]) == ["elf", "elf", "orc", "savin"] and GAME.outcome(state) is None
    assert (progress([]), progress(["savin"]), progress(["savin", "orc", "elf", "elf"])) == (0, 1, 3)
    alone = with_full_deck(table([["elf"], ["peace"]], clans=[["savin"], []], promo=True))
    assert GAME.heuristic(alone, 0) > GAME.heuristic(alone, 1)


def test_rule_savin_is_any_one_clan_type_for_winning():
    for clans in (["savin", "orc", "orc"], ["savin", "human", "dwarf"]):
        state = table([["orc" if clans[1] == "orc" else "elf"], ["peace"]], phase="bidding",
                      clans=[clans, []], promo=True, deck=["elf"] * 3)
        state, _ = up_for_bid(state, 0, state["hands"][0][0], [(0, []), (1, [])])
        state, _ = pass_window(state)
        assert GAME.outcome(state).ranks == [1, 2]


# ----- Roles -----------------------------------------------------------------------------------
ROLES3 = ["nara", "vale", "kala"]


def test_faq_nara_savin_is_not_a_matching_clan():
    state = table([["orc"], ["peace"]], phase="bidding", clans=[[], ["savin"]], promo=True,
                  roles=["nara", "vale"], deck=["elf"] * 3)
    state, _ = up_for_bid(state, 0, "orc", [(0, []), (1, [])])
    state, _ = pass_window(state)
    assert state["pending"] == [] and state["clans"] == [["orc"], ["savin"]]
    state = table([["savin"], ["peace"]], phase="bidding", clans=[[], ["orc"]], promo=True,
                  roles=["nara", "vale"], deck=["elf"] * 3)
    state, _ = up_for_bid(state, 0, "savin", [(0, []), (1, [])])
    state, _ = pass_window(state)
    assert state["pending"] == []


def test_faq_nara_does_not_trigger_on_a_clan_gained_by_sabotage():
    state = table([["orc", "sabotage", "peace"], ["negotiations", "elf"]], phase="bidding",
                  clans=[[], ["orc"]], roles=["nara", "vale"], deck=["human"] * 4)
    state, _ = up_for_bid(state, 0, "orc", [(0, []), (1, ["negotiations"])])
    state, _ = act(state, 0, {"type": "respond", "card": "sabotage"})
    state, _ = act(state, 1, {"type": "refuse"})
    assert state["clans"] == [["orc"], ["orc"]] and state["pending"] == []


def test_rule_nara_discards_a_matching_clan_after_winning_a_bid():
    state = table([["orc", "peace"], ["elf"]], phase="bidding", clans=[[], ["orc", "human"]],
                  roles=["nara", "kala"], deck=["human"] * 4)
    state, _ = up_for_bid(state, 0, "orc", [(0, ["peace"]), (1, [])])
    state, _ = pass_window(state)
    assert moves(state, 0) == [{"type": "destroy", "seat": 1}, {"type": "decline"}]
    state, _ = act(state, 0, {"type": "destroy", "seat": 1})
    assert state["clans"] == [["orc"], ["human"]] and state["discard"][-1] == "orc"


def test_faq_iverion_discards_two_matching_cards_from_hand_only():
    state = table([["elf", "thievery", "thievery"], ["peace"]], clans=[["elf", "elf"], []],
                  roles=["iverion", "vale"], deck=["orc", "human", "dwarf", "desolate"])
    assert [m for m in moves(state, 0) if m["type"] == "iverion"] == [{"type": "iverion", "card": "thievery"}]


def test_faq_iverion_is_not_an_action_card_and_cannot_be_countered():
    state = table([["thievery", "thievery"], ["peace", "thievery"]], roles=["iverion", "vale"],
                  deck=["orc", "human", "dwarf", "desolate"])
    state, events = act(state, 0, {"type": "iverion", "card": "thievery"})
    assert state["window"] is None and GAME.to_act(state) == [0]
    assert of_type(events, "iverion_looked")[0]["private"]["0"]["cards"] == ["orc", "human", "dwarf"]
    assert "cards" not in GAME.redact(of_type(events, "iverion_looked")[0], 1)["data"]
    assert GAME.view(state, 0)["look"]["cards"] == ["orc", "human", "dwarf"]
    assert "cards" not in GAME.view(state, 1)["look"]
    state, _ = act(state, 0, {"type": "bottom", "card": "human"})
    assert sorted(state["hands"][0]) == ["dwarf", "orc"]
    assert state["deck"] == ["desolate", "human"] and state["discard"] == ["thievery", "thievery"]


def test_rule_iverion_discarded_pair_cannot_come_back_into_its_look():
    """Iverion "discard two cards that share a name and look at the top three cards": the two
    discarded cards pay for the look and are not among the cards looked at, even when the deck
    is too short and the discard pile is shuffled into a new one."""
    # a deck of one card and an empty discard pile: nothing to reshuffle but the pair itself
    state = table([["thievery", "thievery", "elf"], ["peace"]], roles=["iverion", "vale"], deck=["orc"])
    state, events = act(state, 0, {"type": "iverion", "card": "thievery"})
    assert not of_type(events, "reshuffled") and state["hands"][0] == ["elf"]
    assert state["discard"] == ["thievery", "thievery"] and state["deck"] == ["orc"]
    for seed in range(8):  # a short deck with a discard pile: the new deck never holds the pair
        state = table([["thievery", "thievery", "elf"], ["peace"]], roles=["iverion", "vale"],
                      deck=["orc"], discard=["human", "dwarf", "desolate"])
        state, events = act(state, 0, {"type": "iverion", "card": "thievery"}, seed)
        (looked,) = of_type(events, "iverion_looked")
        assert looked["private"]["0"]["cards"][0] == "orc"
        assert "thievery" not in looked["private"]["0"]["cards"]
        assert state["discard"] == ["thievery", "thievery"]
        state, _ = act(state, 0, {"type": "bottom", "card": "orc"}, seed)
        assert "thievery" not in state["hands"][0] and len(state["hands"][0]) == 3


def test_faq_iverion_once_per_turn_at_the_end_of_a_phase():
    state = table([["thievery", "thievery", "peace"], ["elf"]], roles=["iverion", "vale"],
                  deck=["peace", "orc", "human", "dwarf"] * 3)
    state, _ = act(state, 0, {"type": "iverion", "card": "thievery"})
    state, _ = act(state, 0, {"type": "bottom", "card": "human"})
    assert state["hands"][0].count("peace") == 2 and state["phase"] == "bidding"
    state, _ = act(state, 0, {"type": "end_phase"})
    assert not [m for m in moves(state, 0) if m["type"] == "iverion"]  # a pair of Peace, but used


def test_faq_kala_adds_one_card_in_each_bidding_round():
    state = table([["orc", "elf", "peace", "thievery", "desolate"], ["conquest", "desolate"]],
                  phase="bidding", roles=["kala", "vale"], deck=["human"] * 4)
    state, _ = up_for_bid(state, 0, "orc", [(0, []), (1, ["conquest"])])
    assert moves(state, 0)[-1] == {"type": "decline"}
    state, events = act(state, 0, {"type": "add", "card": "desolate"})
    assert of_type(events, "bid_won")[0]["data"]["totals"] == {"0": 5, "1": 4}
    state, _ = pass_window(state)
    state, _ = up_for_bid(state, 0, "elf", [(0, []), (1, ["desolate"])])
    assert state["pending"][-1]["kind"] == "kala"  # again, once for this round
    state, events = act(state, 0, {"type": "add", "card": "thievery"})
    assert of_type(events, "bid_won")[0]["data"]["totals"] == {"0": 2 + 1 + 2, "1": 3}
    assert state["pending"] == []


def test_faq_kala_adds_after_reinforcements():
    state = table([["orc", "reinforcements", "peace"], ["negotiations"]], phase="bidding",
                  roles=["kala", "vale"], promo=True, deck=["desolate", "thievery", "elf"])
    state, events = up_for_bid(state, 0, "orc", [(0, ["reinforcements"]), (1, ["negotiations"])])
    assert of_type(events, "reinforced") and state["pending"][-1]["kind"] == "kala"
    assert state["bid"]["revealed"]["0"] == ["desolate", "thievery"]
    state, events = act(state, 0, {"type": "add", "card": "peace"})
    assert of_type(events, "bid_won")[0]["data"]["totals"] == {"0": 2 + 3 + 2 + 1, "1": 8}


def test_rule_kala_only_on_her_own_turn():
    state = table([["orc", "negotiations"], ["peace", "elf"]], phase="bidding",
                  roles=["vale", "kala"], deck=["human"] * 4)
    state, _ = up_for_bid(state, 0, "orc", [(0, []), (1, ["peace"])])
    assert all(d["kind"] != "kala" for d in state["pending"])


def test_rule_vale_may_discard_and_draw_after_a_counter_or_response():
    state = table([["arcane_insight"], ["peace", "elf"]], roles=["kala", "vale"],
                  deck=["orc", "human", "dwarf"])
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    state, _ = act(state, 1, {"type": "respond", "card": "peace"})
    assert moves(state, 1) == [{"type": "discard", "card": "elf"}, {"type": "decline"}]
    state, events = act(state, 1, {"type": "discard", "card": "elf"})
    assert of_type(events, "discarded")[0]["data"] == {"seat": 1, "cards": ["elf"], "why": "vale"}
    assert state["hands"][1] == ["orc"] and state["hands"][0] == []
    assert state["discard"] == ["peace", "elf", "arcane_insight"]


def test_rule_vale_not_after_sabotage():
    state = table([["orc", "negotiations"], ["sabotage", "elf"]], phase="bidding",
                  roles=["kala", "vale"], deck=["human"] * 4)
    state, _ = up_for_bid(state, 0, "orc", [(0, ["negotiations"]), (1, [])])
    state, _ = act(state, 1, {"type": "respond", "card": "sabotage"})
    assert [d["kind"] for d in state["pending"]] == ["sabotage_pay"]


# ----- issue 23: clauses no test pinned (each failed to catch a planted defect) -------------------
def test_rule_nara_only_on_your_turn_not_when_winning_another_players_bid():
    """Nara: "Whenever you gain control of a clan *on your turn* through a bid": seat 0 (Nara)
    winning the Orc seat 1 put up gets no choice; the same win on her own turn does. An Orc is
    in play in front of seat 1 both times."""
    mine = table([["orc", "negotiations"], ["peace"]], phase="bidding", turn=0, clans=[[], ["orc"]],
                 roles=["nara", "vale"], deck=["human"] * 4)
    mine, _ = up_for_bid(mine, 0, "orc", [(0, []), (1, [])])
    mine, _ = pass_window(mine)
    assert mine["clans"][0] == ["orc"] and mine["pending"][-1]["kind"] == "nara"
    assert moves(mine, 0) == [{"type": "destroy", "seat": 1}, {"type": "decline"}]
    theirs = table([["negotiations", "peace"], ["orc", "elf"]], phase="bidding", turn=1, clans=[[], ["orc"]],
                   roles=["nara", "vale"], deck=["human"] * 4)
    theirs, events = up_for_bid(theirs, 1, "orc", [(1, []), (0, ["negotiations"])])
    assert of_type(events, "bid_won")[0]["data"]["winner"] == 0
    theirs, _ = pass_window(theirs)
    assert theirs["clans"] == [["orc"], ["orc"]] and theirs["bid"] is None
    assert theirs["pending"] == [] and GAME.to_act(theirs) == [1]


def test_rule_nara_may_discard_her_own_other_copy_of_the_clan():
    """Nara: "you may choose *a matching clan card in play*": her own Orc already in play is one
    (not the one just gained): she may discard it and keeps the new one."""
    state = table([["orc", "peace"], ["elf"]], phase="bidding", clans=[["orc", "human"], []],
                  roles=["nara", "kala"], deck=["human"] * 4)
    state, _ = up_for_bid(state, 0, "orc", [(0, []), (1, [])])
    state, _ = pass_window(state)
    assert moves(state, 0) == [{"type": "destroy", "seat": 0}, {"type": "decline"}]
    state, events = act(state, 0, {"type": "destroy", "seat": 0})
    assert of_type(events, "clan_destroyed")[0]["data"] == {"owner": 0, "clan": "orc", "by": "nara"}
    assert sorted(state["clans"][0]) == ["human", "orc"] and state["discard"][-1] == "orc"


def test_rule_iverion_only_as_an_action_never_in_the_bidding_phase():
    """Iverion: "*As an action* you may discard two cards that share a name": in both action
    phases, never in the Bidding Phase ("Player may not play cards as actions")."""
    state = table([["thievery", "thievery", "orc"], ["peace"]], roles=["iverion", "vale"],
                  deck=["elf", "human", "dwarf"] * 4)
    assert {"type": "iverion", "card": "thievery"} in moves(state, 0)  # action phase 1
    state, _ = act(state, 0, {"type": "end_phase"})
    assert state["phase"] == "bidding"
    assert not [m for m in moves(state, 0) if m["type"] == "iverion"]
    state, _ = act(state, 0, {"type": "end_phase"})
    assert state["phase"] == "action2" and {"type": "iverion", "card": "thievery"} in moves(state, 0)


def test_rule_iverion_with_one_card_left_still_looks_at_it():
    """Iverion "look at the top three cards of the deck. Put one card on the bottom ... and the
    rest into your hand": a deck of one card is looked at (his private look), and that card is
    the one put on the bottom; nothing comes into the hand."""
    state = table([["thievery", "thievery", "elf"], ["peace"]], roles=["iverion", "vale"], deck=["orc"])
    state, events = act(state, 0, {"type": "iverion", "card": "thievery"})
    (looked,) = of_type(events, "iverion_looked")
    assert looked["data"] == {"seat": 0, "count": 1} and looked["private"]["0"]["cards"] == ["orc"]
    assert GAME.redact(looked, 0)["data"]["cards"] == ["orc"]  # his own log shows it
    assert GAME.redact(looked, 1) == {"type": "iverion_looked", "data": {"seat": 0, "count": 1}}
    (bottomed,) = of_type(events, "bottomed")
    assert bottomed["data"] == {"seat": 0, "to_hand": 0}
    assert state["deck"] == ["orc"] and state["hands"][0] == ["elf"] and state["phase"] == "bidding"


def test_rule_iverion_with_no_card_left_pays_and_ends_the_phase_without_a_look():
    """Nothing left to look at (deck and discard pile empty): the pair is still discarded (the
    log says why) and, as the ability takes place at the end of a phase (FAQ), the phase ends."""
    state = table([["thievery", "thievery", "elf"], ["peace"]], roles=["iverion", "vale"])
    state, events = act(state, 0, {"type": "iverion", "card": "thievery"})
    assert of_type(events, "discarded")[0]["data"] == {"seat": 0, "cards": ["thievery"] * 2, "why": "iverion"}
    assert of_type(events, "iverion_looked")[0]["data"] == {"seat": 0, "count": 0}
    assert not of_type(events, "bottomed") and state["look"] is None
    assert state["phase"] == "bidding" and state["hands"][0] == ["elf"] and GAME.to_act(state) == [0]
