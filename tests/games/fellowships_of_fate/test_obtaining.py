"""After obtaining a card: extra relic, refilling the field, VP cards, Level 1 relics, Mythical Beast."""
from shared.games.fellowships_of_fate.obtaining import is_extra_relic_slot, refilled

from .helpers import ACTIVATE, C, GAME, SKIP, explore, give, moves, play, step, steps, turn_seat


def _warrior_ready(field, relic_deck=None, deck=None, **tokens):
    """Two players; seat 0 activates its upright Warrior and reaches the Overcome icon."""
    kw = {"field": field}
    if relic_deck is not None:
        kw["relic_deck"] = relic_deck
    if deck is not None:
        kw["deck"] = deck
    state = explore(2, {0: ["warrior", "cleric", "sage", "thief"], 1: ["sage", "magician", "cleric", "thief"]}, **kw)
    state = steps(state, play("warrior", "legendary"), play("sage", "nameless"), SKIP, SKIP)
    give(state, 0, **tokens)
    return steps(state, ACTIVATE, SKIP, SKIP)


FIELD = ["lurking_coyote", "misty_ravine", "crystal_cave", "giant_boar"]


def test_rule_extra_relic_only_from_the_two_rightmost_cards():
    assert [is_extra_relic_slot(i) for i in range(4)] == [False, False, True, True]
    state = _warrior_ready(FIELD, strength=3)
    state, events = step(state, {"type": "obtain", "card": "lurking_coyote"})  # leftmost
    assert not [e for e in events if e["type"] == "excavate"]
    state = _warrior_ready(list(reversed(FIELD)), strength=3)
    top = state["relic_deck"][0]
    state, events = step(state, {"type": "obtain", "card": "lurking_coyote"})  # rightmost
    extra = [e["data"] for e in events if e["type"] == "excavate"]
    assert extra == [{"seat": 0, "card": top, "level": 1, "extra": True}]


def test_rule_extra_relic_nothing_when_relic_deck_is_empty():
    state = _warrior_ready(list(reversed(FIELD)), relic_deck=[], strength=3)
    state, events = step(state, {"type": "obtain", "card": "lurking_coyote"})
    assert not [e for e in events if e["type"] == "excavate"]
    assert state["seats"][0]["relics"] == []


def test_rule_refill_shifts_cards_right_and_turns_a_new_card_into_the_leftmost_space():
    state = _warrior_ready(["misty_ravine", "lurking_coyote", "crystal_cave", "giant_boar"], strength=3)
    new = state["adventure_deck"][0]
    state, events = step(state, {"type": "obtain", "card": "lurking_coyote"})
    assert state["field"] == [new, "misty_ravine", "crystal_cave", "giant_boar"]
    assert [e["data"] for e in events if e["type"] == "refill"] == [{"field": state["field"], "drawn": new}]
    assert new not in state["adventure_deck"]


def test_rule_refill_adds_nothing_when_the_adventure_deck_is_empty():
    state = _warrior_ready(["misty_ravine", "lurking_coyote", "crystal_cave", "giant_boar"], deck=[], strength=3)
    state, _ = step(state, {"type": "obtain", "card": "lurking_coyote"})
    assert state["field"] == [None, "misty_ravine", "crystal_cave", "giant_boar"]
    assert refilled([None, "a", None, "b"], []) == ([None, None, "a", "b"], None)


def test_rule_vp_card_is_shown_to_all_players_then_placed_under_the_journal():
    """VP on obtained card: "show that card to all players and place that card face down under
    your journal card". Everyone saw it, so every view keeps it (NOTES: journals)."""
    state = _warrior_ready(FIELD, strength=3)
    state, events = step(state, {"type": "obtain", "card": "lurking_coyote"})
    obtain = next(e for e in events if e["type"] == "obtain")
    for seat in (None, 0, 1):
        assert GAME.redact(obtain, seat)["data"]["card"] == "lurking_coyote"  # shown to all players
        assert GAME.view(state, seat)["seats"][0]["journal"] == ["lurking_coyote"]
    assert state["seats"][0]["play"][0]["id"] == "warrior"  # not in the play area


def test_rule_level2_relic_goes_under_the_journal_level1_face_up_in_play_area():
    deck = ["bronze_idol", "holy_grail"] + list(C.level2[1:])
    state = _warrior_ready(list(reversed(FIELD)), relic_deck=deck, strength=3)
    state, _ = step(state, {"type": "obtain", "card": "lurking_coyote"})
    me = state["seats"][0]
    assert me["journal"] == ["lurking_coyote", "bronze_idol"] and me["relics"] == []
    state = _warrior_ready(list(reversed(FIELD)), relic_deck=deck[1:], strength=3)
    state, _ = step(state, {"type": "obtain", "card": "lurking_coyote"})
    me = state["seats"][0]
    assert me["journal"] == ["lurking_coyote"] and [r["id"] for r in me["relics"]] == ["holy_grail"]
    assert GAME.view(state, 1)["seats"][0]["relics"] == me["relics"]  # face up: public


def test_rule_mythical_beast_joins_the_hand_as_a_fifth_member():
    state = _warrior_ready(["mythical_beast", "misty_ravine", "crystal_cave", "giant_boar"], strength=2, wisdom=2)
    state, _ = step(state, {"type": "obtain", "card": "mythical_beast"})
    me = state["seats"][0]
    assert me["hand"][-1] == "mythical_beast" and len(me["hand"]) == 4  # 3 left + the Beast
    assert "mythical_beast" in me["members"] and me["journal"] == []
    assert C.adventures["mythical_beast"].vp is None
    # it is played like any member this round
    state = steps(state, play("thief", "nameless"), SKIP, SKIP)
    assert turn_seat(state) == 0
    assert play("mythical_beast", "legendary") in moves(state)


def test_rule_mythical_beast_stays_a_member_in_later_rounds():
    state = _warrior_ready(["mythical_beast", "misty_ravine", "crystal_cave", "giant_boar"], strength=2, wisdom=2)
    state, _ = step(state, {"type": "obtain", "card": "mythical_beast"})
    from .helpers import finish_explore
    state, _ = finish_explore(state)
    assert state["round"] == 2 and "mythical_beast" in state["seats"][0]["standby"]
    formations = [m["members"] for m in GAME.legal_moves(state, 0)]
    assert len(formations) == 210  # C(10, 4): the Beast is a tenth member to choose from
    assert ["warrior", "magician", "cleric", "mythical_beast"] in formations
    assert GAME.view(state, 1)["seats"][0]["members"][-1] == "mythical_beast"
