"""Each icon of the ability vocabulary, resolved left to right and skippable one by one."""
import pytest

from shared.engine import IllegalMove
from shared.games.fellowships_of_fate.abilities import compile_steps
from shared.rng import FastRng

from .helpers import ACTIVATE, C, GAME, SKIP, explore, gain, give, moves, play, step, steps, turn_seat

OTHER = ["sage", "magician", "cleric", "thief"]


def _turn(hand, field=None, relic_deck=None, **tokens):
    """Two players, seat 0 to play from ``hand`` with ``tokens``."""
    kw = {}
    if field:
        kw["field"] = field
    if relic_deck is not None:
        kw["relic_deck"] = relic_deck
    state = explore(2, {0: hand, 1: OTHER}, **kw)
    return give(state, 0, **tokens)


def _upright(member, field=None, relic_deck=None, **tokens):
    """Seat 0 at the start of a turn with ``member`` upright (declared legendary last turn)."""
    hand = [member] + [m for m in ["warrior", "werewolf", "tactician", "archaeologist"] if m != member][:3]
    state = _turn(hand, field, relic_deck, **tokens)
    other = "sage" if member != "sage" else "thief"  # a different name, so no interruption
    state = steps(state, play(member, "legendary"), play(other, "nameless"), SKIP, SKIP)
    assert turn_seat(state) == 0 and moves(state)[0]["type"] == "activate"
    return state


def _tokens(state, seat=0):
    return state["seats"][seat]["tokens"]


def test_icons_compile_to_steps_left_to_right():
    assert compile_steps(["wild", {"cost": {"mana": 1}}, "strength", {"kind": ["wild", "wild"]}, "overcome"], "x") == [
        {"op": "wild"}, {"op": "cost", "tokens": {"mana": 1}}, {"op": "gain", "token": "strength"},
        {"op": "wild", "group": "x#3"}, {"op": "wild", "group": "x#3"}, {"op": "overcome"},
    ]


def test_icon_gain_token_and_skip_one_by_one():
    state = _turn(["warrior", "werewolf", "tactician", "archaeologist"])
    state = steps(state, play("tactician", "nameless"))  # strength, wisdom
    assert moves(state) == [gain("strength"), SKIP]
    state = steps(state, SKIP)
    assert moves(state) == [gain("wisdom"), SKIP]
    state = steps(state, gain("wisdom"))
    assert _tokens(state) == {"strength": 0, "mana": 0, "wisdom": 1}
    assert turn_seat(state) == 1


def test_icon_wild_gains_any_one_token():
    state = _turn(["warrior", "werewolf", "tactician", "archaeologist"])
    state = steps(state, play("werewolf", "nameless"))
    assert moves(state) == [gain("strength"), gain("mana"), gain("wisdom"), SKIP]
    state = steps(state, gain("mana"))
    assert _tokens(state)["mana"] == 1


def test_icon_token_of_a_kind_box_must_be_one_type():
    state = _upright("sage")  # legendary: one box of three wilds
    state = steps(state, ACTIVATE)
    assert moves(state) == [gain("strength"), gain("mana"), gain("wisdom"), SKIP]
    state = steps(state, gain("mana"))
    assert moves(state) == [gain("mana"), SKIP]
    state = steps(state, SKIP)  # each wild of the box may still be skipped
    assert moves(state) == [gain("mana"), SKIP]
    state = steps(state, gain("mana"))
    assert _tokens(state)["mana"] == 2


def test_icon_token_of_a_kind_first_choice_after_skips():
    state = _upright("sage")
    state = steps(state, ACTIVATE, SKIP, gain("wisdom"))
    assert moves(state) == [gain("wisdom"), SKIP]


def test_icon_cost_paid_then_next_icon():
    """Card abilities, Cost: "You must return all tokens shown in the box ... to the supply"."""
    state = _turn(["warrior", "werewolf", "tactician", "archaeologist"], wisdom=2)
    state = steps(state, play("archaeologist", "nameless"))  # cost 1 wisdom, excavate
    assert moves(state) == [{"type": "pay"}]
    top = state["relic_deck"][0]
    state = steps(state, {"type": "pay"})
    assert _tokens(state)["wisdom"] == 1
    state = steps(state, {"type": "excavate"})
    assert top in [r["id"] for r in state["seats"][0]["relics"]] + state["seats"][0]["journal"]


def test_icon_cost_that_can_be_paid_must_be_paid():
    """Card abilities, Cost: "You must return all tokens shown": a payable Cost cannot be skipped
    (the general "choose not to activate an icon" does not reach it)."""
    state = _turn(["warrior", "werewolf", "tactician", "archaeologist"], wisdom=2)
    state = steps(state, play("archaeologist", "nameless"))
    assert SKIP not in moves(state)
    with pytest.raises(IllegalMove):
        GAME.decide(state, 0, SKIP, FastRng(0))
    state, events = step(state, {"type": "pay"})
    assert [e["type"] for e in events] == ["pay"] and turn_seat(state) == 0


def test_icon_cost_in_a_legendary_ability_must_be_paid_too():
    """Card abilities, Cost: the Tactician's Legendary (Cost 1 mana, Overcome, Overcome) pays
    its Cost when the seat holds the mana, even with nothing to Overcome afterwards."""
    state = _upright("tactician", mana=1)
    state = steps(state, ACTIVATE)
    assert moves(state) == [{"type": "pay"}]
    state, events = step(state, {"type": "pay"})
    assert _tokens(state)["mana"] == 0
    assert [e["type"] for e in events][:3] == ["pay", "skip", "skip"]  # nothing affordable to Overcome


def test_icon_cost_that_cannot_be_paid_ends_the_turn_at_once():
    """Card abilities, Cost: "If you are not able to resolve this icon, skip all remaining icons
    and immediately end your turn"."""
    state = _turn(["warrior", "werewolf", "tactician", "archaeologist"])
    deck = list(state["relic_deck"])
    state, events = step(state, play("archaeologist", "nameless"))
    assert [e["type"] for e in events][:3] == ["play_member", "cost_unpaid", "turn_end"]
    assert events[1]["data"] == {"seat": 0}
    assert state["relic_deck"] == deck and turn_seat(state) == 1


def test_icon_overcome_lists_affordable_compass_cards_only():
    field = ["lurking_coyote", "whispering_shrine", "giant_boar", "misty_ravine"]
    state = _upright("warrior", field, strength=1, mana=1)
    state = steps(state, ACTIVATE, gain("strength"), gain("strength"))
    # 3 strength + 1 mana: Lurking Coyote (3 S) and Giant Boar (2 S 1 M); never the sun card
    assert moves(state) == [{"type": "obtain", "card": "lurking_coyote"}, {"type": "obtain", "card": "giant_boar"}, SKIP]
    state, events = step(state, {"type": "obtain", "card": "giant_boar"})
    assert _tokens(state) == {"strength": 1, "mana": 0, "wisdom": 0}
    assert "giant_boar" in state["seats"][0]["journal"]


def test_icon_overcome_with_nothing_affordable_is_skipped():
    state = _upright("warrior")
    state, events = steps(state, ACTIVATE, gain("strength")), None
    state, events = step(state, gain("strength"))
    assert [e["type"] for e in events][:3] == ["gain", "skip", "turn_end"]
    assert events[1]["data"] == {"seat": 0, "op": "overcome", "auto": True}


def test_icon_excavate_takes_the_top_relic():
    relics = ["holy_grail", "bronze_idol"] + [r for r in C.relics if r not in ("holy_grail", "bronze_idol")]
    state = _upright("thief", relic_deck=relics)  # legendary: wild, excavate
    state = steps(state, ACTIVATE, SKIP)
    turn_no = state["turn_no"]
    state, events = step(state, {"type": "excavate"})
    assert state["seats"][0]["relics"] == [{"id": "holy_grail", "turn": turn_no}]
    assert events[0]["data"] == {"seat": 0, "card": "holy_grail", "level": 1, "extra": False}
    assert state["relic_deck"][0] == "bronze_idol"


def test_icon_excavate_with_an_empty_relic_deck_has_no_effect():
    state = _upright("thief", relic_deck=[])
    state = steps(state, ACTIVATE)
    state, events = step(state, gain("strength"))
    assert events[1]["type"] == "skip" and events[1]["data"]["op"] == "excavate"
    assert state["seats"][0]["relics"] == [] and state["seats"][0]["journal"] == []


def test_icon_traveler_nameless_interrupts_all_names_but_holy_shield():
    hands = {0: ["warrior", "cleric", "sage", "thief"], 1: ["magician", "cleric", "sage", "thief"],
             2: ["traveler_of_fate", "cleric", "sage", "thief"]}
    state = explore(3, hands)
    state = steps(state, play("warrior", "legendary"), play("magician", "legendary"))
    state = steps(state, play("traveler_of_fate", "nameless"), {"type": "interrupt_all"})
    assert [c["upright"] for s in state["seats"] for c in s["play"]] == [False, False, False]
    state = explore(3, hands)
    state = steps(state, play("cleric", "legendary"), play("magician", "legendary"))
    state, events = step(state, play("traveler_of_fate", "nameless"))
    assert moves(state) == [{"type": "interrupt_all"}, SKIP]
    state, events = step(state, {"type": "interrupt_all"})
    assert events[0]["data"]["targets"] == [[1, 0]]
    assert state["seats"][0]["play"][0]["upright"] is True


def test_icon_traveler_legendary_obtains_a_sun_card_and_resolves_it():
    field = ["lurking_coyote", "misty_ravine", "whispering_shrine", "crystal_cave"]
    state = _upright("traveler_of_fate", field, strength=5, mana=5, wisdom=5)
    state = steps(state, ACTIVATE)
    assert moves(state) == [{"type": "obtain", "card": "whispering_shrine"}, SKIP]  # compass cards are not offered
    state, events = step(state, {"type": "obtain", "card": "whispering_shrine"})
    assert events[0]["data"]["paid"] == {}  # a sun card is obtained without paying
    assert "whispering_shrine" in state["seats"][0]["journal"]
    assert state["turn"]["queue"] == [{"op": "gain", "token": "wisdom"}] * 2  # its ability, at once
    state = steps(state, gain("wisdom"), gain("wisdom"))
    assert _tokens(state)["wisdom"] == 7 and turn_seat(state) == 1


def test_rule_level1_relic_replaces_the_same_named_nameless_ability():
    state = _turn(["cleric", "werewolf", "tactician", "archaeologist"])
    state["seats"][0]["relics"].append({"id": "holy_grail", "turn": 0})
    legal = moves(state)
    assert play("cleric", "nameless", "holy_grail") in legal and play("cleric", "nameless") in legal
    assert not [m for m in legal if m.get("use") == "holy_grail" and m["member"] != "cleric"]
    state = steps(state, play("cleric", "nameless", "holy_grail"), gain("wisdom"), gain("wisdom"), gain("wisdom"))
    assert _tokens(state)["wisdom"] == 3


def test_rule_level1_relic_is_usable_only_from_the_next_turn():
    state = _turn(["cleric", "werewolf", "tactician", "archaeologist"])
    state["seats"][0]["relics"].append({"id": "holy_grail", "turn": state["turn_no"]})
    assert play("cleric", "nameless", "holy_grail") not in moves(state)
    state["seats"][0]["relics"][0]["turn"] = state["turn_no"] - 1
    assert play("cleric", "nameless", "holy_grail") in moves(state)


def test_rule_level1_relic_only_replaces_the_ability_of_the_same_name():
    state = _upright("cleric")
    state["seats"][0]["relics"].append({"id": "holy_grail", "turn": 0})  # Nameless Cleric
    state["seats"][0]["relics"].append({"id": "the_dragonslayer", "turn": 0})  # Legendary Warrior
    assert moves(state) == [ACTIVATE]  # Legendary Cleric has no relic of its name


def test_rule_relic_legendary_traveler_hourglass_obtains_a_sun_card():
    field = ["lurking_coyote", "misty_ravine", "crystal_cave", "dawn_gate"]
    state = _upright("traveler_of_fate", field)
    state["seats"][0]["relics"].append({"id": "hourglass_of_fate", "turn": 0})
    top = state["relic_deck"][0]
    state = steps(state, {"type": "activate", "use": "hourglass_of_fate"}, gain("mana"))
    state, events = step(state, {"type": "obtain", "card": "dawn_gate"})
    assert [e["type"] for e in events] == ["obtain", "excavate", "refill"]  # slot 3: an extra relic
    assert events[1]["data"]["card"] == top
    assert [s["op"] for s in state["turn"]["queue"]] == ["wild", "wild"]  # Dawn Gate's ability


def test_icon_interrupt_all_with_nothing_upright_is_skipped():
    hands = {0: ["traveler_of_fate", "cleric", "sage", "thief"], 1: ["magician", "cleric", "sage", "thief"]}
    state = explore(2, hands)
    state, events = step(state, play("traveler_of_fate", "nameless"))
    assert events[1]["data"] == {"seat": 0, "op": "interrupt_all", "auto": True}
    assert turn_seat(state) == 1


def test_icon_interrupt_all_may_be_skipped():
    hands = {0: ["warrior", "cleric", "sage", "thief"], 1: ["traveler_of_fate", "cleric", "sage", "thief"]}
    state = explore(2, hands)
    state = steps(state, play("warrior", "legendary"), play("traveler_of_fate", "nameless"), SKIP)
    assert state["seats"][0]["play"][0]["upright"] is True


def test_icon_sun_with_no_sun_card_on_the_field_is_skipped():
    state = _upright("traveler_of_fate", ["lurking_coyote", "misty_ravine", "crystal_cave", "giant_boar"])
    state, events = step(state, ACTIVATE)
    assert events[1]["data"] == {"seat": 0, "op": "sun", "auto": True}
    assert turn_seat(state) == 1
