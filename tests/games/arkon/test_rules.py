"""Rulebook clauses: setup, the four phases, bidding, counters and responses, general rules."""
import itertools

import pytest

from shared.canonical import encode
from shared.engine.errors import IllegalMove
from shared.games.arkon.content import MAX_BID_MOVES
from shared.rng import SeededRng

from .helpers import GAME, act, moves, of_type, pass_window, place_bid, table


# ----- Getting Started -----------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_setup_five_cards_each_from_one_shuffled_deck(players):
    events = GAME.setup(players, GAME.validate_options(players, {}), SeededRng(b"s", "setup"))
    state = GAME.fold(events)
    assert [len(h) for h in state["hands"]] == [5] * players
    assert len(state["deck"]) == 52 - 5 * players
    everything = state["deck"] + [c for h in state["hands"] for c in h]
    assert len(everything) == 52 and everything.count("orc") == 4
    assert state["phase"] == "action1" and state["turn"] == state["first"]


def test_rule_first_player_is_random():
    firsts = {GAME.fold(GAME.setup(4, {"promo_cards": [], "roles": False},
                                   SeededRng(bytes([i]), "setup")))["first"] for i in range(40)}
    assert firsts == {0, 1, 2, 3}


def test_rule_setup_shuffle_is_recorded_in_the_event_secret():
    (ev,) = GAME.setup(2, {"promo_cards": [], "roles": False}, SeededRng(b"x", "setup"))
    assert "deck" in ev["secret"] and ev["private"]["0"]["hand"]
    for seat in (0, 1):
        seen = GAME.redact(ev, seat)["data"]
        assert "deck" not in seen and seen["hand"] == ev["private"][str(seat)]["hand"]
    assert "hand" not in GAME.redact(ev, None)["data"]


def test_rule_role_cards_one_each_at_random_and_public():
    """Role Cards: "Each player is to be given one role card at random to start the game"."""
    dealt = []
    for i in range(30):
        opts = GAME.validate_options(3, {"roles": True})
        state = GAME.fold(GAME.setup(3, opts, SeededRng(bytes([i]), "setup")))
        assert len(set(state["roles"])) == 3 and set(state["roles"]) <= {"iverion", "kala", "nara", "vale"}
        assert GAME.view(state, None)["roles"] == state["roles"]
        dealt.append(tuple(state["roles"]))
    assert len(set(dealt)) > 5 and {r[0] for r in dealt} == {"iverion", "kala", "nara", "vale"}
    assert GAME.fold(GAME.setup(3, GAME.validate_options(3, {}), SeededRng(b"r", "setup")))["roles"] is None


# ----- The four phases -------------------------------------------------------------------------
def test_rule_phases_run_in_order_then_turn_passes_clockwise():
    state = table([["orc"], ["elf"], ["dwarf"]], deck=["human"] * 10, turn=2)
    seen = [state["phase"]]
    for _ in range(3):
        state, _ = act(state, 2, {"type": "end_phase"})
        seen.append(state["phase"])
    assert seen == ["action1", "bidding", "action2", "action1"]
    assert state["turn"] == 0  # clockwise: seat 2 -> seat 0


def test_rule_action_cards_one_at_a_time_and_only_on_your_turn():
    state = table([["arcane_insight", "arcane_insight"], ["arcane_insight"]], deck=["elf"] * 9)
    assert moves(state, 1) == []
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    assert moves(state, 0) == []  # the first card's window must close first
    state, _ = pass_window(state)
    assert {"type": "play", "card": "arcane_insight"} in moves(state, 0)


def test_rule_no_action_cards_during_bidding_phase():
    state = table([["arcane_insight", "orc"], ["elf"]], phase="bidding")
    assert moves(state, 0) == [{"type": "put_up", "card": "orc"}, {"type": "end_phase"}]


def test_rule_negotiations_and_clans_are_not_action_cards():
    state = table([["negotiations", "orc", "peace", "sabotage"], ["elf"]])
    assert moves(state, 0) == [{"type": "end_phase"}]


# ----- Bidding ---------------------------------------------------------------------------------
def bidding_table(**kw):
    return table([["orc", "negotiations", "thievery"], ["desolate", "peace"], ["conquest", "elf"]],
                 phase="bidding", deck=["human"] * 10, **kw)


def test_rule_bids_are_placed_in_order_from_the_bidder_clockwise():
    state = table([["elf"], ["orc", "thievery"], ["peace"]], phase="bidding", turn=1)
    state, _ = act(state, 1, {"type": "put_up", "card": "orc"})
    order = []
    while state["bid"] and state["bid"]["revealed"] is None:
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state, _ = place_bid(state, seat, [])
    assert order == [1, 2, 0]


def test_rule_only_one_clan_up_at_a_time_but_repeatable():
    state = table([["orc", "elf"], ["peace"]], phase="bidding", deck=["human"] * 5)
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    assert {m["type"] for m in moves(state, 0)} == {"bid"}  # no second clan up
    state, _ = place_bid(state, 0, [])
    state, _ = place_bid(state, 1, [])
    state, _ = pass_window(state)
    assert state["clans"][0] == ["orc"]
    assert {"type": "put_up", "card": "elf"} in moves(state, 0)


def test_rule_bidder_adds_two_and_each_controlled_clan_adds_one():
    state = bidding_table(clans=[["human"], [], ["dwarf", "dwarf", "human"]])
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, 0, ["thievery"])
    state, _ = place_bid(state, 1, ["desolate"])
    state, events = place_bid(state, 2, [])
    assert of_type(events, "bid_won")[0]["data"]["totals"] == {"0": 2 + 1 + 2, "1": 3, "2": 3}


def test_rule_bid_highest_total_wins():
    state = bidding_table()
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, 0, [])
    state, _ = place_bid(state, 1, ["desolate"])
    state, events = place_bid(state, 2, ["conquest"])
    assert of_type(events, "bid_won")[0]["data"]["winner"] == 2


def test_rule_bid_tie_goes_to_earliest_bidder():
    state = table([["orc"], ["desolate"], ["shifting_allegiances"]], phase="bidding", deck=["elf"] * 5)
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, 0, [])
    state, _ = place_bid(state, 1, ["desolate"])
    state, events = place_bid(state, 2, ["shifting_allegiances"])
    data = of_type(events, "bid_won")[0]["data"]
    assert data["totals"] == {"0": 2, "1": 3, "2": 3} and data["winner"] == 1


def test_rule_winner_discards_bid_cards_losers_take_theirs_back():
    state = bidding_table()
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, 0, ["negotiations"])
    state, _ = place_bid(state, 1, ["desolate", "peace"])
    state, _ = place_bid(state, 2, ["conquest"])
    assert state["discard"] == ["negotiations"]
    assert sorted(state["hands"][1]) == ["desolate", "peace"]
    assert sorted(state["hands"][2]) == ["conquest", "elf"]


def test_rule_bids_hidden_until_reveal():
    state = bidding_table()
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, bid_events = place_bid(state, 0, ["negotiations"])
    for seat in (1, 2, None):
        view = GAME.view(state, seat)
        assert b"negotiations" not in encode(view["bid"])
        assert view["bid"]["commit"]["committed"] == [0]
        for ev in bid_events:
            assert b"negotiations" not in encode(GAME.redact(ev, seat))
        if seat is not None:
            assert b"negotiations" not in encode(moves(state, seat))
    assert GAME.view(state, 0)["bid"]["commit"]["mine"] == ["negotiations"]
    state, _ = place_bid(state, 1, [])
    state, events = place_bid(state, 2, [])
    assert of_type(events, "bids_revealed")[0]["data"]["bids"]["0"] == ["negotiations"]
    assert GAME.view(state, 2)["bid"]["revealed"]["0"] == ["negotiations"]


def test_rule_bidding_a_bid_is_one_placement_of_any_number_of_cards_face_down():
    """Bidding: "each player may place any number of cards face down as their bid" — the cards
    are gathered privately, then placed all at once: one placement per bidder in the log."""
    state = bidding_table()
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, events = place_bid(state, 0, ["negotiations", "thievery"])
    state, more = place_bid(state, 1, ["desolate", "peace"])
    state, last = place_bid(state, 2, [])
    events += more + last
    placed = [(e["data"]["seat"], e["data"]["count"], e["private"][str(e["data"]["seat"])]["cards"])
              for e in of_type(events, "bid_placed")]
    assert placed == [(0, 2, ["negotiations", "thievery"]), (1, 2, ["desolate", "peace"]), (2, 0, [])]
    revealed = of_type(events, "bids_revealed")[0]["data"]["bids"]
    assert revealed == {"0": ["negotiations", "thievery"], "1": ["desolate", "peace"], "2": []}


def test_rule_bidding_placed_cards_leave_the_hand_face_down():
    state = bidding_table()
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, events = act(state, 0, {"type": "bid", "cards": ["negotiations"]})
    assert events[0]["type"] == "bid_placed"  # the whole bid in one move
    assert state["hands"][0] == ["thievery"] and state["bid"]["commit"]["values"]["0"] == ["negotiations"]


def test_rule_bidding_everyone_sees_how_many_cards_each_bidder_placed_not_which():
    """Bidding "face down": the number of cards is seen at the table, the cards are not."""
    seen = {}
    for bid in ([], ["thievery"], ["negotiations"], ["negotiations", "thievery"]):
        state = bidding_table()
        state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
        state, events = place_bid(state, 0, bid)
        for seat in (1, 2, None):
            view = GAME.view(state, seat)
            assert view["bid"]["counts"] == {"0": len(bid)}
            assert view["hand_sizes"][0] == 2 - len(bid)
            assert "mine" not in view["bid"]["commit"] and view["bid"].get("draft", []) == []
        (placed,) = [GAME.redact(e, 1) for e in of_type(events, "bid_placed")]
        assert placed["data"] == {"seat": 0, "count": len(bid)}
        assert GAME.view(state, 0)["bid"]["commit"]["mine"] == bid
        seen.setdefault(len(bid), []).append(
            (encode(GAME.view(state, 1)), encode(GAME.view(state, None)), [encode(GAME.redact(e, 1)) for e in events]))
    assert seen[1][0] == seen[1][1]  # which single card was bid: nobody else can tell
    assert len({v[0] for views in seen.values() for v in views}) == 3  # how many: everyone can


def test_rule_bidding_any_number_of_cards_every_part_of_the_hand_is_one_move():
    """"Each player may place any number of cards face down as their bid": every part of the hand,
    the empty bid and the whole hand included, is one legal move, and nothing else is."""
    state = table([["orc", "negotiations", "thievery", "elf"], ["peace"]], phase="bidding")
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    hand = ["elf", "negotiations", "thievery"]
    parts = [[], ["thievery"], ["negotiations"], ["negotiations", "thievery"],
             ["elf"], ["elf", "thievery"], ["elf", "negotiations"], hand]
    assert moves(state, 0) == [{"type": "bid", "cards": part} for part in parts]
    assert moves(state, 1) == []  # not seat 1's turn to bid yet
    with pytest.raises(IllegalMove):
        act(state, 0, {"type": "bid", "cards": ["peace"]})  # not in the hand
    with pytest.raises(IllegalMove):
        act(state, 0, {"type": "bid", "cards": ["elf", "elf"]})  # one Elf only
    state, events = act(state, 0, {"type": "bid", "cards": hand})
    assert state["hands"][0] == [] and state["bid"]["counts"] == {"0": 3}
    assert GAME.redact(events[0], 1) == {"type": "bid_placed", "data": {"seat": 0, "count": 3}}


def test_rule_bid_copies_of_a_card_are_alike_so_the_parts_of_a_full_hand_stay_at_most_256():
    """The hand limit is 8, so a bid is one of at most 2 ** 8 = 256 parts of the hand; copies of
    a card are alike (three Conquests give 4 choices: none to three), never a repeated move."""
    state = table([["orc"] + ["conquest"] * 3 + ["peace"] * 3, ["elf"]], phase="bidding")
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    listed = moves(state, 0)
    assert len(listed) == 4 * 4 and len({encode(m) for m in listed}) == len(listed)
    assert {"type": "bid", "cards": ["conquest", "conquest", "peace"]} in listed
    eight = ["arcane_insight", "change_of_fate", "conquest", "desolate", "negotiations", "peace",
             "sabotage", "thievery"]
    full = table([["orc", *eight], ["elf"]], phase="bidding")
    full, _ = act(full, 0, {"type": "put_up", "card": "orc"})
    assert len(moves(full, 0)) == 2 ** 8 == MAX_BID_MOVES  # 8 different cards: the most there is


def test_rule_bid_decision_explored_exhaustively_reaches_every_part_and_never_repeats():
    """Issue 23's check for Arkon: from the start of one seat's bid decision, no sequence of that
    seat's moves brings the decision back to a state it was in, and every part of the hand the
    rulebook allows ("any number of cards") is reachable. Explored over every state the seat's
    own moves reach while its bid is still open."""
    hand = ["elf", "elf", "negotiations", "peace", "peace", "sabotage", "thievery"]
    state = table([["orc", *hand], ["dwarf"]], phase="bidding")
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    seen, reached, frontier = {encode(GAME.view(state, 0))}, set(), [state]
    while frontier:
        s = frontier.pop()
        for move in moves(s, 0):
            after, events = act(s, 0, move)
            if "0" not in after["bid"]["counts"]:  # still deciding: must be a new state
                key = encode(GAME.view(after, 0))
                assert key not in seen, f"the bid decision came back to a state it was in after {move}"
                seen.add(key)
                frontier.append(after)
            else:
                (placed,) = of_type(events, "bid_placed")
                reached.add(tuple(placed["private"]["0"]["cards"]))
    every_part = {tuple(sorted(c)) for r in range(len(hand) + 1) for c in itertools.combinations(hand, r)}
    assert reached == every_part and len(every_part) == 3 * 2 * 3 * 2 * 2  # copies alike


def test_rule_empty_hand_bids_nothing_automatically():
    state = table([["orc", "thievery"], []], phase="bidding", deck=["elf"] * 4)
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, events = act(state, 0, {"type": "bid", "cards": ["thievery"]})
    placed = [e["data"] for e in of_type(events, "bid_placed")]
    assert placed == [{"seat": 0, "count": 1}, {"seat": 1, "count": 0}]
    assert state["clans"][0] == ["orc"]  # nobody holds a card, so no Sabotage window either


# ----- Universal Draw --------------------------------------------------------------------------
def test_rule_universal_draw_one_extra_card_however_many_clans_put_up():
    state = table([["orc", "elf"], ["peace"]], phase="bidding", deck=["human"] * 10)
    for clan in ("orc", "elf"):
        state, _ = act(state, 0, {"type": "put_up", "card": clan})
        state, _ = place_bid(state, 0, [])
        state, _ = place_bid(state, 1, [])
        state, _ = pass_window(state)
    state, _ = act(state, 0, {"type": "end_phase"})
    state, events = act(state, 0, {"type": "end_phase"})
    draws = [(e["data"]["seat"], e["data"]["count"]) for e in of_type(events, "drew")]
    assert draws == [(0, 1), (0, 1), (1, 1)]


def test_rule_universal_draw_starts_with_the_turn_player_clockwise():
    state = table([[], [], [], []], deck=["human"] * 10, turn=2, phase="action2")
    state, events = act(state, 2, {"type": "end_phase"})
    assert [e["data"]["seat"] for e in of_type(events, "drew")] == [2, 3, 0, 1]


# ----- Counters and responses ------------------------------------------------------------------
def action_table(**kw):
    hands = [["desolate", "arcane_insight"], ["desolate", "peace"], ["tactical_reversal", "desolate"],
             ["elf"]]
    return table(hands, deck=["human"] * 10, clans=[[], ["orc"], [], []], **kw)


def test_rule_window_opens_on_the_left_and_passes_clockwise():
    state = action_table(turn=0)
    state, events = act(state, 0, {"type": "play", "card": "desolate", "target": 1, "clan": "orc"})
    assert events[0]["data"] == {"card": "desolate", "target": 1, "clan": "orc", "seat": 0}
    assert GAME.view(state, 2)["action"] == {"card": "desolate", "target": 1, "clan": "orc", "seat": 0,
                                             "status": "window", "reverser": None}
    order = []
    while state["window"]:
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state, events = act(state, seat, {"type": "pass"})
        assert events[0] == {"type": "passed", "data": {"seat": seat}}
    assert order == [1, 2, 3]
    assert state["clans"][1] == [] and state["discard"] == ["orc", "desolate"]


def test_rule_counter_with_a_card_of_the_same_name_negates_the_action():
    state = action_table()
    state, _ = act(state, 0, {"type": "play", "card": "desolate", "target": 1, "clan": "orc"})
    assert {"type": "counter", "card": "desolate"} in moves(state, 1)
    state, events = act(state, 1, {"type": "counter", "card": "desolate"})
    assert of_type(events, "countered")[0]["data"] == {"seat": 1, "card": "desolate", "as": "counter"}
    assert state["clans"][1] == ["orc"]
    assert state["discard"] == ["desolate", "desolate"]


def test_rule_first_counter_or_response_closes_the_window():
    state = action_table()
    state, _ = act(state, 0, {"type": "play", "card": "desolate", "target": 1, "clan": "orc"})
    state, _ = act(state, 1, {"type": "pass"})
    state, _ = act(state, 2, {"type": "counter", "card": "desolate"})
    assert moves(state, 3) == [] and state["window"] is None
    assert GAME.to_act(state) == [0] and state["clans"][1] == ["orc"]


def test_rule_no_counter_without_a_card_of_the_same_name():
    state = action_table()
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    assert moves(state, 1) == [{"type": "pass"}, {"type": "respond", "card": "peace"}]


def test_rule_seats_with_empty_hands_are_skipped_in_a_window():
    state = table([["arcane_insight"], [], ["peace"]], deck=["elf"] * 5)
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    assert GAME.to_act(state) == [2]


def test_rule_targets_are_declared_when_the_card_is_played():
    state = action_table()
    plays = [m for m in moves(state, 0) if m.get("card") == "desolate"]
    assert plays == [{"type": "play", "card": "desolate", "target": 1, "clan": "orc"}]
    state, events = act(state, 0, plays[0])
    assert of_type(events, "action_played")[0]["data"]["target"] == 1
    assert GAME.view(state, 3)["action"]["clan"] == "orc"


# ----- General rules ---------------------------------------------------------------------------
def test_rule_hand_limit_eight_on_every_draw():
    state = table([["elf"] * 8, ["orc"] * 7], deck=["human"] * 10, phase="action2")
    state, events = act(state, 0, {"type": "end_phase"})
    assert [len(h) for h in state["hands"]] == [8, 8]
    (drew,) = of_type(events, "drew")
    assert drew["data"] == {"seat": 1, "count": 1}
    assert GAME.redact(drew, 1)["data"]["cards"] == ["human"] and "cards" not in GAME.redact(drew, 0)["data"]


def test_rule_hand_limit_on_gaining_cards():
    # Conquest gives a random card; a full hand cannot take it (the giver keeps it).
    state = table([["conquest", "elf"], ["orc"] * 8], clans=[[], ["dwarf"]], deck=["human"] * 4)
    state, _ = act(state, 0, {"type": "play", "card": "conquest", "target": 1, "clan": "dwarf"})
    state, _ = pass_window(state)
    assert state["clans"][0] == ["dwarf"] and state["hands"][0] == ["elf"]
    assert len(state["hands"][1]) == 8


def test_rule_lost_bid_cards_return_up_to_the_hand_limit_and_their_owner_chooses_which():
    """"Players who lose the bid return all bid cards to their hand", up to 8 (General Rules):
    Reinforcements can make a losing bid larger than the room left, and the owner (not the
    order of a list) chooses which cards to keep; the others are discarded, face up as the bid
    was revealed. The Sabotage window opens only once the choice is made."""
    for keep in (["human"], ["dwarf"]):
        state = table([["orc", "negotiations"], ["reinforcements"] + ["elf"] * 6 + ["sabotage"]],
                      phase="bidding", deck=["human", "dwarf", "orc"], promo=["reinforcements"])
        state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
        state, _ = place_bid(state, 0, ["negotiations"])
        state, events = place_bid(state, 1, ["reinforcements"])
        data = of_type(events, "bid_won")[0]["data"]
        assert data["returned"] == {} and data["choosing"] == {"1": 1}
        assert GAME.to_act(state) == [1] and state["window"] is None  # no Sabotage yet
        assert moves(state, 1) == [{"type": "keep", "cards": ["human"]}, {"type": "keep", "cards": ["dwarf"]}]
        state, events = act(state, 1, {"type": "keep", "cards": keep})
        (returned,) = of_type(events, "bid_returned")
        other = ({"human", "dwarf"} - set(keep)).pop()
        assert returned["data"] == {"seat": 1, "kept": keep, "discarded": [other]}
        assert len(state["hands"][1]) == 8 and keep[0] in state["hands"][1] and other in state["discard"]
        assert GAME.to_act(state) == [1] and {"type": "respond", "card": "sabotage"} in moves(state, 1)


def test_rule_lost_bid_choices_go_in_bid_order_and_a_bid_that_fits_comes_back_whole():
    state = table([["orc", "negotiations"], ["reinforcements"] + ["elf"] * 7, ["thievery", "peace"]],
                  phase="bidding", deck=["human", "dwarf", "orc", "orc"], promo=True)
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, 0, ["negotiations"])
    state, _ = place_bid(state, 1, ["reinforcements"])
    state, events = place_bid(state, 2, ["thievery"])
    data = of_type(events, "bid_won")[0]["data"]
    assert data == {"winner": 0, "clan": "orc", "totals": {"0": 10, "1": 4, "2": 2},
                    "returned": {"2": ["thievery"]}, "choosing": {"1": 1}}
    assert state["hands"][2] == ["peace", "thievery"]
    assert GAME.to_act(state) == [1] and moves(state, 2) == []


def test_rule_lost_bid_that_exactly_fills_the_hand_comes_back_without_a_choice():
    """A hand of 8 bids one card and loses: the card fits exactly, so it comes back at once."""
    state = table([["orc", "negotiations"], ["elf"] * 7 + ["peace"]], phase="bidding", deck=["human"] * 4)
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, 0, ["negotiations"])
    state, events = place_bid(state, 1, ["peace"])
    data = of_type(events, "bid_won")[0]["data"]
    assert data["returned"] == {"1": ["peace"]} and data["choosing"] == {}
    assert len(state["hands"][1]) == 8 and state["pending"] == [] and not of_type(events, "asked")


def test_rule_give_up_only_as_many_cards_as_you_have():
    state = table([["shifting_allegiances"], ["elf", "elf"]], clans=[[], ["orc", "orc", "human"]],
                  deck=["human"] * 3)
    state, _ = act(state, 0, {"type": "play", "card": "shifting_allegiances", "target": 1})
    state, _ = pass_window(state)
    assert state["clans"] == [["orc", "orc", "human"], []]
    assert state["hands"] == [[], ["elf", "elf"]]  # owed 3 cards, had none to give


def test_rule_reshuffle_discard_into_a_new_deck_when_the_deck_runs_out():
    state = table([["arcane_insight"], ["elf"]], deck=["orc"], discard=["human", "dwarf", "elf"])
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    state, events = pass_window(state)
    (shuffle,) = of_type(events, "reshuffled")
    assert sorted(shuffle["secret"]["order"]) == ["dwarf", "elf", "human"]
    assert "order" not in GAME.redact(shuffle, 0)["data"]
    assert state["hands"][0][0] == "orc" and len(state["hands"][0]) == 2
    assert len(state["deck"]) == 2 and state["discard"] == ["arcane_insight"]


def test_rule_draw_stops_when_deck_and_discard_are_empty():
    state = table([["arcane_insight"], ["elf"]], deck=["orc"])
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    state, _ = pass_window(state)
    assert state["hands"][0] == ["orc"] and state["deck"] == []


# ----- Winning ---------------------------------------------------------------------------------
def win_by_bid(clans, clan):
    state = table([[clan], ["peace"]], phase="bidding", clans=[clans, []], deck=["elf"] * 4)
    state, _ = act(state, 0, {"type": "put_up", "card": clan})
    state, _ = place_bid(state, 0, [])
    state, _ = place_bid(state, 1, [])
    return pass_window(state)[0]


def test_rule_win_with_four_different_clans():
    state = win_by_bid(["human", "orc", "dwarf"], "elf")
    result = GAME.outcome(state)
    assert result.ranks == [1, 2] and result.scores == [1.0, 0.0]  # no points: the winner scores 1
    assert result.details == {"clans": [["human", "orc", "dwarf", "elf"], []]}
    assert all(moves(state, s) == [] for s in range(2))


def test_rule_win_with_four_of_one_clan():
    assert GAME.outcome(win_by_bid(["orc", "orc", "orc"], "orc")).ranks == [1, 2]


def test_rule_three_of_one_and_one_other_is_not_a_win():
    state = win_by_bid(["orc", "orc", "orc"], "elf")
    assert GAME.outcome(state) is None and state["clans"][0] == ["orc", "orc", "orc", "elf"]


def test_rule_win_by_taking_a_clan_with_an_action():
    state = table([["conquest"], ["elf"]], clans=[["human", "orc", "dwarf"], ["elf"]], deck=["orc"] * 3)
    state, _ = act(state, 0, {"type": "play", "card": "conquest", "target": 1, "clan": "elf"})
    state, _ = pass_window(state)
    assert GAME.outcome(state).ranks == [1, 2]


def test_rule_sabotage_window_opens_left_of_the_winner_and_skips_the_winner():
    state = table([["orc", "elf"], ["negotiations", "peace"], ["sabotage", "elf"], ["sabotage"]],
                  phase="bidding", deck=["human"] * 6)
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    for seat, cards in ((0, []), (1, ["negotiations"]), (2, []), (3, [])):
        state, _ = place_bid(state, seat, cards)
    assert state["bid"]["winner"] == 1 and state["window"]["order"] == [2, 3, 0]
    state, _ = pass_window(state)
    assert state["clans"][1] == ["orc"]


def test_rule_tactical_reversal_and_peace_only_against_action_cards_of_opponents():
    state = table([["arcane_insight", "tactical_reversal", "peace"], ["elf"]], deck=["orc"] * 4)
    assert not [m for m in moves(state, 0) if m.get("card") in ("tactical_reversal", "peace")]


# ----- One move's automatic steps --------------------------------------------------------------
def state_after(state, events, event_type):
    """The state between the events of one move, right after its first ``event_type`` event
    (what a replay of the log at that version shows)."""
    i = [e["type"] for e in events].index(event_type)
    return GAME.fold(events[:i + 1], state)


def in_motion_moves():
    """A move whose automatic steps run on: (name, state before it, seat, move, the events after
    which the rules still go on by themselves)."""
    arcane = table([["arcane_insight"], ["elf"]], deck=["human"] * 4)
    arcane, _ = act(arcane, 0, {"type": "play", "card": "arcane_insight"})
    bid = table([["orc"], ["elf"]], phase="bidding", deck=["human"] * 4)
    bid, _ = act(bid, 0, {"type": "put_up", "card": "orc"})
    bid, _ = place_bid(bid, 0, [])
    win = table([["orc", "negotiations"], []], phase="bidding", deck=["human"] * 4,
                clans=[["human", "dwarf", "elf"], []])
    win, _ = act(win, 0, {"type": "put_up", "card": "orc"})
    return [
        ("action_card_resolving_after_its_window", arcane, 1, {"type": "pass"},
         ["passed", "action_resolving", "drew"]),
        ("phase_4_draws", table([[], []], deck=["human"] * 4, phase="action2"), 0,
         {"type": "end_phase"}, ["phase", "drew"]),
        ("iverion_look_before_the_choice", table([["thievery", "thievery"], ["peace"]],
                                                   roles=["iverion", "vale"], deck=["orc", "human", "dwarf"]),
         0, {"type": "iverion", "card": "thievery"}, ["iverion_looked"]),
        ("bid_revealed_and_settled", bid, 1, {"type": "bid", "cards": ["elf"]},
         ["bid_placed", "bids_revealed"]),
        ("fourth_clan_controlled_before_the_win", win, 0, {"type": "bid", "cards": ["negotiations"]},
         ["bid_placed", "bids_revealed", "clan_controlled"]),
    ]


@pytest.mark.parametrize("name, state, seat, move, in_motion_after", in_motion_moves(),
                         ids=[m[0] for m in in_motion_moves()])
def test_rule_nobody_decides_between_the_automatic_steps_of_one_move(name, state, seat, move,
                                                                   in_motion_after):
    """The rules carry a move on by themselves (resolve the action card whose window closed,
    reveal and settle a bid, run Phase 4's draws, show Iverion's look, end the game on a winning
    set): nobody is to act, and nobody has a legal move, in the states between those events; once
    the move is over, a player (or the outcome) is next."""
    after, events = act(state, seat, move)
    for event_type in in_motion_after:
        between = state_after(state, events, event_type)
        assert GAME.to_act(between) == [], event_type
        assert all(GAME.legal_moves(between, s) == [] for s in range(between["players"])), event_type
    assert GAME.to_act(after) or GAME.outcome(after) is not None
