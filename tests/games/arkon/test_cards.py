"""Every card text (rulebook "Card Texts"), played through decide + fold."""
import json
from collections import Counter
from pathlib import Path

import pytest

from shared.engine import registry
from shared.games.arkon.content import CARDS, deck_list
from shared.rng import SeededRng

from .helpers import GAME, act, moves, of_type, pass_window, place_bid, table

DATA = Path(__file__).resolve().parents[3] / "shared/games/arkon/data/cards.json"


def resolved(state, seat, move):
    state, _ = act(state, seat, move)
    return pass_window(state)


def test_card_data_has_52_cards_16_clans_8_responses_28_actions_each_with_a_source():
    raw = json.loads(DATA.read_text())["cards"]
    assert all(c["source"] in ("rulebook", "public", "house") for c in raw)
    base = Counter()
    for c in raw:
        if not c.get("promo"):
            base[c["kind"]] += c["copies"]
    assert base == {"clan": 16, "response": 8, "action": 28}
    assert len(deck_list({})) == 52 and len(deck_list({"promo_cards": ["reinforcements", "savin"]})) == 54
    assert all(CARDS[c].influence == 2 for c in ("human", "orc", "dwarf", "elf"))


def test_card_influence_values_given_by_the_rulebook():
    given = {"desolate": 3, "shifting_allegiances": 3, "thievery": 2, "tactical_reversal": 2,
             "negotiations": 8}
    assert {c: CARDS[c].influence for c in given} == given
    assert all(0 <= c.influence <= 8 for c in CARDS.values())


def test_card_arcane_insight_draws_two():
    state, events = resolved(table([["arcane_insight"], ["elf"]], deck=["orc", "human", "dwarf"]),
                             0, {"type": "play", "card": "arcane_insight"})
    assert of_type(events, "action_resolving")[0]["data"] == {"seat": 0, "card": "arcane_insight"}
    assert state["hands"][0] == ["orc", "human"] and state["discard"] == ["arcane_insight"]


def test_card_arcane_insight_a_deck_of_exactly_two_is_not_reshuffled():
    """The discard pile becomes a new deck only when the deck runs out (FAQ): two cards left
    are drawn as they are, and the discard pile stays."""
    state, events = resolved(table([["arcane_insight"], ["elf"]], deck=["orc", "human"], discard=["peace"]),
                             0, {"type": "play", "card": "arcane_insight"})
    assert not of_type(events, "reshuffled")
    assert state["hands"][0] == ["orc", "human"] and state["deck"] == []
    assert state["discard"] == ["peace", "arcane_insight"]


def test_card_change_of_fate_discard_up_to_two_then_draw_that_many_plus_one():
    state = table([["change_of_fate", "elf", "orc", "peace"], ["elf"]],
                  deck=["human", "dwarf", "sabotage", "elf"])
    state, _ = resolved(state, 0, {"type": "play", "card": "change_of_fate"})
    picks = [{"type": "discard", "card": c} for c in ("elf", "orc", "peace")]
    assert moves(state, 0) == picks + [{"type": "done"}]
    state, first = act(state, 0, {"type": "discard", "card": "elf"})
    state, second = act(state, 0, {"type": "discard", "card": "peace"})  # the second ends the choice
    assert [e["data"] for e in of_type(first + second, "discarded")] == [
        {"seat": 0, "cards": [c], "why": "change_of_fate"} for c in ("elf", "peace")]  # the log says why
    assert sorted(state["hands"][0]) == ["dwarf", "human", "orc", "sabotage"]
    assert state["discard"] == ["elf", "peace", "change_of_fate"]
    assert state["pending"] == []


def test_card_change_of_fate_discarding_none_draws_one():
    state = table([["change_of_fate", "elf"], ["elf"]], deck=["human", "dwarf"])
    state, _ = resolved(state, 0, {"type": "play", "card": "change_of_fate"})
    state, _ = act(state, 0, {"type": "done"})
    assert sorted(state["hands"][0]) == ["elf", "human"]


def test_card_conquest_takes_target_clan_and_gives_a_random_card():
    state = table([["conquest", "peace", "peace"], ["elf"]], clans=[[], ["orc", "human"]], deck=["elf"] * 3)
    state, events = resolved(state, 0, {"type": "play", "card": "conquest", "target": 1, "clan": "human"})
    assert state["clans"] == [["human"], ["orc"]]
    assert sorted(state["hands"][1]) == ["elf", "peace"] and state["hands"][0] == ["peace"]
    (given,) = of_type(events, "cards_moved")
    assert given["data"] == {"from": 0, "to": 1, "count": 1, "how": "random"}
    assert given["private"]["0"]["gave"] == ["peace"]


def test_card_conquest_targets_only_opponents_clans():
    state = table([["conquest"], ["elf"]], clans=[["orc"], ["human"]])
    assert [m for m in moves(state, 0) if m["type"] == "play"] == [
        {"type": "play", "card": "conquest", "target": 1, "clan": "human"}]


def test_card_desolate_puts_target_clan_into_the_discard_pile():
    state = table([["desolate"], ["elf"]], clans=[["orc"], ["human", "human"]])
    targets = [m for m in moves(state, 0) if m["type"] == "play"]
    assert {(m["target"], m["clan"]) for m in targets} == {(0, "orc"), (1, "human")}
    state, _ = resolved(state, 0, {"type": "play", "card": "desolate", "target": 1, "clan": "human"})
    assert state["clans"] == [["orc"], ["human"]] and state["discard"] == ["human", "desolate"]


def test_card_negotiations_adds_eight_to_a_bid():
    state = table([["orc", "negotiations"], ["conquest", "conquest"]], phase="bidding", deck=["elf"] * 4)
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, _ = place_bid(state, 0, ["negotiations"])
    state, events = place_bid(state, 1, ["conquest", "conquest"])
    assert of_type(events, "bid_won")[0]["data"]["totals"] == {"0": 10, "1": 8}


def test_card_shifting_allegiances_exchanges_clans_and_random_cards():
    state = table([["shifting_allegiances", "elf", "elf", "elf"], ["peace", "peace", "peace"]],
                  clans=[["orc"], ["human", "dwarf"]], deck=["elf"] * 3)
    state, events = resolved(state, 0, {"type": "play", "card": "shifting_allegiances", "target": 1})
    assert state["clans"] == [["human", "dwarf"], ["orc"]]
    # seat 0 took 2 clans and gives 2 cards; seat 1 took 1 clan and gives 1 card
    (exchanged,) = of_type(events, "cards_exchanged")
    assert exchanged["data"] == {"seats": [0, 1], "counts": [2, 1], "how": "random"}
    mine, theirs = GAME.redact(exchanged, 0)["data"], GAME.redact(exchanged, 1)["data"]
    assert (mine["gave"], mine["got"]) == (theirs["got"], theirs["gave"]) == (["elf", "elf"], ["peace"])
    assert sorted(state["hands"][0]) == ["elf", "peace"]
    assert sorted(state["hands"][1]) == ["elf", "elf", "peace", "peace"]


def test_card_thievery_look_at_hand_and_take_one_card():
    state = table([["thievery"], ["negotiations", "elf"], ["orc"]], deck=["elf"] * 3)
    state, events = resolved(state, 0, {"type": "play", "card": "thievery", "target": 1})
    assert of_type(events, "hand_seen")[0]["private"]["0"]["hand"] == ["negotiations", "elf"]
    assert "hand" not in GAME.redact(of_type(events, "hand_seen")[0], 2)["data"]
    assert moves(state, 0) == [{"type": "take", "card": "elf"}, {"type": "take", "card": "negotiations"}]
    state, events = act(state, 0, {"type": "take", "card": "negotiations"})
    assert state["hands"] == [["negotiations"], ["elf"], ["orc"]]
    taken = of_type(events, "cards_moved")[0]
    assert taken["data"] == {"from": 1, "to": 0, "count": 1, "how": "chosen"}
    assert "got" not in GAME.redact(taken, 2)["data"]
    assert GAME.redact(taken, 0)["data"]["got"] == ["negotiations"]


def test_card_thievery_on_an_empty_hand_does_nothing():
    state = table([["thievery", "elf"], []], deck=["elf"] * 3)
    state, _ = resolved(state, 0, {"type": "play", "card": "thievery", "target": 1})
    assert state["pending"] == [] and state["hands"] == [["elf"], []]


def test_card_peace_counters_any_action_card():
    state = table([["arcane_insight"], ["peace"]], deck=["elf"] * 3)
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    state, _ = act(state, 1, {"type": "respond", "card": "peace"})
    assert state["hands"] == [[], []] and state["discard"] == ["peace", "arcane_insight"]


def test_card_tactical_reversal_takes_the_action_card_after_it_resolves():
    state = table([["arcane_insight"], ["tactical_reversal"]], deck=["elf", "orc", "human"])
    state, _ = act(state, 0, {"type": "play", "card": "arcane_insight"})
    state, _ = act(state, 1, {"type": "respond", "card": "tactical_reversal"})
    assert state["hands"] == [["elf", "orc"], ["arcane_insight"]]
    assert state["discard"] == ["tactical_reversal"]


def test_card_tactical_reversal_when_the_hand_is_full_the_card_is_discarded():
    # Conquest's random card fills the reverser's hand back to 8, so it cannot gain Conquest.
    state = table([["conquest", "peace"], ["tactical_reversal"] + ["elf"] * 7], clans=[[], ["orc"]],
                  deck=["elf"] * 3)
    state, _ = act(state, 0, {"type": "play", "card": "conquest", "target": 1, "clan": "orc"})
    state, events = act(state, 1, {"type": "respond", "card": "tactical_reversal"})
    assert of_type(events, "action_finished")[0]["data"] == {"card": "conquest", "to": None}
    assert len(state["hands"][1]) == 8 and state["discard"] == ["tactical_reversal", "conquest"]


def test_card_clan_adds_one_influence_while_controlled():
    state = table([["orc"], ["negotiations"]], phase="bidding", clans=[["elf", "human"], ["dwarf"]],
                  deck=["elf"] * 3)
    state, _ = act(state, 0, {"type": "put_up", "card": "orc"})
    state, events = place_bid(state, 1, [])
    assert of_type(events, "bid_won")[0]["data"]["totals"] == {"0": 4, "1": 1}


# ----- promotional cards, each its own option (engine 4) ---------------------------------------
def test_card_savin_is_a_designer_tier_card_of_its_own_option_apart_from_reinforcements():
    """"[Designer Tier Only] Savin, The Endless": Savin comes without Reinforcements and the
    other way round; both, or neither (the standard 52)."""
    for promos, extra in (([], []), (["savin"], ["savin"]), (["reinforcements"], ["reinforcements"]),
                          (["savin", "reinforcements"], ["reinforcements", "savin"])):
        options = GAME.validate_options(2, {"promo_cards": promos})
        assert options["promo_cards"] == sorted(promos)
        state = GAME.fold(GAME.setup(2, options, SeededRng(b"p", "setup")))
        every = Counter(state["deck"] + [c for h in state["hands"] for c in h])
        assert sum(every.values()) == 52 + len(extra)
        assert [c for c in ("reinforcements", "savin") if every[c]] == extra


def test_card_promo_cards_refuses_the_old_bundle_and_unknown_or_repeated_cards():
    """Engine 4 takes a list; the boolean bundle of engines 1-3 is refused (those versions still
    take it), as are other cards and a card named twice: each a client error."""
    for bad in (True, False, ["negotiations"], ["savin", "savin"], "savin"):
        with pytest.raises(ValueError, match="promo_cards"):
            GAME.validate_options(2, {"promo_cards": bad})
    old = registry.get("arkon", "3")
    assert old.validate_options(2, {"promo_cards": True})["promo_cards"] is True
    assert len(deck_list({"promo_cards": ["savin"]})) == 53
