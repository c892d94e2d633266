"""What a seat remembers privately of other hands (``remembered``), and that search and greedy
(through ``determinize``) keep it: the cards it gave (Conquest, Shifting Allegiances) and the
hand it looked at (Thievery), as long as they are surely still in that hand."""
from collections import Counter

from shared.canonical import encode
from shared.rng import FastRng, SeededRng

from .helpers import GAME, act, pass_window, place_bid, table, with_full_deck


def conquest_gave_peace():
    """Seat 0 conquers seat 1's elf and gives it its only other card, a Peace."""
    state = with_full_deck(table([["conquest", "peace"], ["orc", "arcane_insight"], ["human"]],
                                 clans=[[], ["elf"], []]))
    state, _ = act(state, 0, {"type": "play", "card": "conquest", "target": 1, "clan": "elf"})
    state, _ = pass_window(state)
    assert state["hands"][0] == [] and "peace" in state["hands"][1]
    return state


def twins(state, seat, n=6):
    v = GAME.view(state, seat)
    out = [GAME.determinize(v, seat, FastRng(i)) for i in range(n)]
    for twin in out:
        assert encode(GAME.view(twin, seat)) == encode(v)
        assert GAME.legal_moves(twin, seat) == GAME.legal_moves(state, seat)
    return out


def test_determinize_keeps_the_card_this_seat_gave_with_conquest():
    state = conquest_gave_peace()
    assert GAME.view(state, 0)["remembered"][1] == ["peace"]
    assert all("peace" in twin["hands"][1] for twin in twins(state, 0))


def test_view_shows_a_seats_memory_only_to_that_seat():
    state = conquest_gave_peace()
    assert GAME.view(state, 1)["remembered"] == [[], [], []]
    assert GAME.view(state, 2)["remembered"] == [[], [], []]
    assert GAME.view(state, None)["remembered"] is None
    # a third seat's determinized worlds do not put the given Peace in seat 1's hand every time
    assert any("peace" not in twin["hands"][1] for twin in twins(state, 2, n=12))


def test_remembered_card_is_forgotten_when_played_face_up():
    state = with_full_deck(table([["conquest", "thievery"], ["orc"]], clans=[[], ["elf"]]))
    state, _ = act(state, 0, {"type": "play", "card": "conquest", "target": 1, "clan": "elf"})
    state, _ = pass_window(state)
    assert state["remembered"][0][1] == ["thievery"]
    state["turn"] = 1  # seat 1 plays the Thievery it was given
    state, _ = act(state, 1, {"type": "play", "card": "thievery", "target": 0})
    assert state["remembered"][0][1] == []


def test_remembered_cards_are_forgotten_when_that_hand_bids_face_down():
    state = conquest_gave_peace()
    state["turn"], state["phase"] = 1, "bidding"
    state, _ = act(state, 1, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, 1, ["arcane_insight"])  # unseen: seat 0 cannot tell what is left
    assert state["remembered"][0][1] == []


def test_thief_remembers_the_rest_of_the_hand_it_looked_at():
    state = with_full_deck(table([["thievery"], ["orc", "negotiations", "peace"]]))
    state, _ = act(state, 0, {"type": "play", "card": "thievery", "target": 1})
    state, _ = pass_window(state)
    state, _ = act(state, 0, {"type": "take", "card": "negotiations"})
    assert Counter(state["remembered"][0][1]) == Counter(["orc", "peace"])
    assert state["remembered"][1][0] == ["negotiations"]  # the victim knows where its card went
    for twin in twins(state, 0):
        assert Counter(twin["hands"][1]) == Counter(["orc", "peace"])
    assert all("negotiations" in twin["hands"][0] for twin in twins(state, 1))


def test_shifting_allegiances_both_seats_remember_what_they_gave():
    state = with_full_deck(table([["shifting_allegiances", "peace"], ["sabotage"]],
                                 clans=[["orc"], ["elf"]]))
    state, _ = act(state, 0, {"type": "play", "card": "shifting_allegiances", "target": 1})
    state, _ = pass_window(state)
    assert state["hands"] == [["sabotage"], ["peace"]]
    assert state["remembered"][0][1] == ["peace"] and state["remembered"][1][0] == ["sabotage"]
    assert all(twin["hands"][1] == ["peace"] for twin in twins(state, 0))
    assert all(twin["hands"][0] == ["sabotage"] for twin in twins(state, 1))


def test_remembered_cards_are_always_in_that_hand_during_random_play():
    """Over random matches (every player count, all options): whatever a seat remembers of a
    hand is part of that hand after every move, and memories do occur."""
    remembered_seen = 0
    for players in (2, 3, 4):
        for seed in range(4):
            opts = GAME.validate_options(players, {"promo_cards": ["reinforcements", "savin"], "roles": True})
            state = GAME.fold(GAME.setup(players, opts, SeededRng(f"mem-{seed}".encode(), "setup")))
            rng = FastRng(seed)
            while GAME.outcome(state) is None:
                acting = GAME.to_act(state)
                seat = acting[rng.randbelow(len(acting))]
                moves = GAME.legal_moves(state, seat)
                GAME.advance(state, seat, moves[rng.randbelow(len(moves))], rng)
                for i, row in enumerate(state["remembered"]):
                    assert row[i] == []
                    for j, cards in enumerate(row):
                        assert not Counter(cards) - Counter(state["hands"][j]), (i, j, cards)
                        remembered_seen += bool(cards)
    assert remembered_seen > 0
