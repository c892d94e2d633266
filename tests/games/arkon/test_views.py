"""Views show a seat only what it may know; determinize rebuilds a consistent full state."""
from collections import Counter

from shared.canonical import encode
from shared.games.arkon.content import deck_counts
from shared.rng import FastRng, SeededRng

from .helpers import GAME, act, pass_window, place_bid, table


def started(players=3, **options):
    opts = GAME.validate_options(players, options)
    return GAME.fold(GAME.setup(players, opts, SeededRng(b"view", "setup")))


def give(state, seat, card):
    """Swap ``card`` (from the deck or another hand) into ``seat``'s hand, keeping the card set."""
    hand = state["hands"][seat]
    if card in hand:
        return
    for zone in [state["deck"]] + [h for i, h in enumerate(state["hands"]) if i != seat]:
        if card in zone:
            zone[zone.index(card)] = hand[0]
            hand[0] = card
            return
    raise AssertionError(f"no {card} to give")


def test_view_holds_own_hand_sizes_clans_discard_deck_size_and_turn():
    state = table([["orc", "peace"], ["elf"]], deck=["human"] * 7, clans=[["dwarf"], []],
                  discard=["thievery"])
    v = GAME.view(state, 0)
    assert v["hand"] == ["orc", "peace"] and v["hand_sizes"] == [2, 1] and v["deck_size"] == 7
    assert v["clans"] == [["dwarf"], []] and v["discard"] == ["thievery"]
    assert (v["turn"], v["phase"], v["pending"], v["window"]) == (0, "action1", [], None)
    assert "deck" not in v and "hands" not in v


def test_view_never_shows_other_hands_or_the_deck():
    state = table([["negotiations"], ["sabotage"], ["conquest"]], deck=["savin"], promo=True)
    for seat, own in ((0, b"negotiations"), (1, b"sabotage"), (2, b"conquest")):
        # (the options name the promotional cards in the deck: public, as at the table)
        raw = encode({k: v for k, v in GAME.view(state, seat).items() if k != "options"})
        assert own in raw
        assert all(c not in raw for c in (b"negotiations", b"sabotage", b"conquest", b"savin") if c != own)
    assert GAME.view(state, None)["hand"] is None


def test_view_during_bidding_who_has_bid_how_many_cards_and_your_own_bid():
    state = table([["orc", "negotiations"], ["desolate", "conquest"], ["elf"]], phase="bidding")
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, 0, ["negotiations"])
    state, _ = place_bid(state, 1, ["conquest"])
    mine, other = GAME.view(state, 0)["bid"], GAME.view(state, 2)["bid"]
    assert mine["commit"]["committed"] == [0, 1] and mine["commit"]["mine"] == ["negotiations"]
    assert other["commit"]["committed"] == [0, 1] and "mine" not in other["commit"]
    assert mine["counts"] == other["counts"] == {"0": 1, "1": 1}
    assert b"negotiations" not in encode(other) and b"conquest" not in encode(other)
    assert GAME.view(state, 1)["bid"]["commit"]["mine"] == ["conquest"]
    assert b"conquest" not in encode(GAME.view(state, 0)["bid"]) and b"conquest" not in encode(GAME.view(state, None))


def test_determinize_keeps_what_the_seat_knows_and_the_sizes():
    state = started(3)
    v = GAME.view(state, 1)
    twins = [GAME.determinize(v, 1, FastRng(i)) for i in range(5)]
    for twin in twins:
        assert twin["hands"][1] == state["hands"][1]
        assert [len(h) for h in twin["hands"]] == [len(h) for h in state["hands"]]
        assert len(twin["deck"]) == len(state["deck"])
        assert Counter(twin["deck"] + [c for h in twin["hands"] for c in h]) == deck_counts({})
        assert encode(GAME.view(twin, 1)) == encode(v)
    assert len({encode(t["hands"][0]) for t in twins}) > 1  # unknown cards are shuffled


def test_determinize_mid_bid_keeps_own_bid_and_hides_others():
    state = started(3)
    turn = state["turn"]
    state["phase"] = "bidding"
    give(state, turn, "orc")
    state, _ = act(state, turn, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, turn, state["hands"][turn][:2])
    nxt = (turn + 1) % 3
    state, _ = place_bid(state, nxt, [min(state["hands"][nxt])])
    for seat in range(3):
        v = GAME.view(state, seat)
        twin = GAME.determinize(v, seat, FastRng(seat))
        assert encode(GAME.view(twin, seat)) == encode(v)
        assert GAME.legal_moves(twin, seat) == GAME.legal_moves(state, seat)
        for bidder, count in ((turn, 2), (nxt, 1)):
            if seat != bidder:  # a placed bid: as many cards as everyone saw
                assert len(twin["bid"]["commit"]["values"][str(bidder)]) == count
            else:
                assert twin["bid"]["commit"]["values"][str(bidder)] == state["bid"]["commit"]["values"][str(bidder)]


def test_determinize_thievery_knows_the_peeked_hand():
    state = started(2)
    turn = state["turn"]
    other = 1 - turn
    give(state, turn, "thievery")
    state, _ = act(state, turn, {"type": "play", "card": "thievery", "target": other})
    state, _ = act(state, other, {"type": "pass"})
    assert state["pending"][-1]["kind"] == "steal"
    twin = GAME.determinize(GAME.view(state, turn), turn, FastRng(3))
    assert twin["hands"][other] == state["hands"][other]
    assert GAME.legal_moves(twin, turn) == GAME.legal_moves(state, turn)
    assert GAME.view(state, other)["peek"] is None


def test_determinize_keeps_cards_everyone_saw_go_back_into_a_hand():
    state = started(2)
    turn, other = state["turn"], 1 - state["turn"]
    give(state, turn, "orc")
    give(state, turn, "negotiations")
    state["phase"] = "bidding"
    state, _ = act(state, turn, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, turn, ["negotiations"])
    lost = state["hands"][other][:2]
    state, _ = place_bid(state, other, lost)
    assert sorted(state["known"][other]) == sorted(lost)
    v = GAME.view(state, turn)
    for i in range(4):
        twin = GAME.determinize(v, turn, FastRng(i))
        hand = Counter(twin["hands"][other])
        assert all(hand[c] >= n for c, n in Counter(lost).items())
        assert encode(GAME.view(twin, turn)) == encode(v)
    # once a card leaves that hand unseen, nobody knows which of them are left
    state, _ = pass_window(state)
    state, _ = act(state, turn, {"type": "end_phase"})
    state["phase"] = "action2"
    give(state, turn, "thievery")
    state, _ = act(state, turn, {"type": "play", "card": "thievery", "target": other})
    state, _ = pass_window(state)
    assert state["known"][other]  # still known while the thief chooses
    state, _ = act(state, turn, {"type": "take", "card": max(state["hands"][other])})
    assert state["known"][other] == []
