"""The rulebook's play examples and its whole four-player round example."""
from .helpers import ACTIVATE, C, SKIP, explore, gain, give, moves, play, step, steps, turn_seat

RED, BLUE, YELLOW, GREEN = range(4)
ROUND_HANDS = {
    RED: ["warrior", "cleric", "sage", "thief"],
    BLUE: ["magician", "archaeologist", "sage", "thief"],
    YELLOW: ["werewolf", "warrior", "sage", "thief"],
    GREEN: ["magician", "traveler_of_fate", "sage", "thief"],
}


def _upright(state, seat, member):
    return [c["upright"] for c in state["seats"][seat]["play"] if c["id"] == member]


def _round_example_first_turn():
    state = explore(4, ROUND_HANDS)
    assert turn_seat(state) == RED
    # Red: "Nameless Warrior!" gains 2 strength, the Warrior turns sideways.
    state = steps(state, play("warrior", "nameless"), gain("strength"), gain("strength"))
    # Blue: "Legendary Magician!" nothing happens, the turn ends.
    assert turn_seat(state) == BLUE
    state = steps(state, play("magician", "legendary"))
    # Yellow: "Legendary Werewolf!"
    assert turn_seat(state) == YELLOW
    state = steps(state, play("werewolf", "legendary"))
    assert turn_seat(state) == GREEN
    return state


def test_example_round_first_turn():
    state = _round_example_first_turn()
    assert state["seats"][RED]["tokens"]["strength"] == 2
    assert _upright(state, RED, "warrior") == [False]
    assert _upright(state, BLUE, "magician") == [True]
    assert _upright(state, YELLOW, "werewolf") == [True]
    # Green: "Nameless Magician!" gains 2 mana; Blue's upright Magician is interrupted.
    state = steps(state, play("magician", "nameless"), gain("mana"), gain("mana"))
    assert state["seats"][GREEN]["tokens"]["mana"] == 2
    assert _upright(state, GREEN, "magician") == [False]
    assert _upright(state, BLUE, "magician") == [False]
    assert _upright(state, YELLOW, "werewolf") == [True]


def test_example_round_second_turn():
    state = _round_example_first_turn()
    state = steps(state, play("magician", "nameless"), gain("mana"), gain("mana"))
    # Red has nothing upright: plays "Legendary Cleric!".
    assert turn_seat(state) == RED
    assert all(m["type"] == "play" for m in moves(state))
    state = steps(state, play("cleric", "legendary"))
    # Blue's Magician was interrupted, so Blue plays "Legendary Archaeologist!".
    assert turn_seat(state) == BLUE
    assert all(m["type"] == "play" for m in moves(state))
    state = steps(state, play("archaeologist", "legendary"))
    # Yellow's Werewolf is upright: he cannot play a card and must activate it (wild, 2 strength).
    assert turn_seat(state) == YELLOW
    assert moves(state) == [ACTIVATE]
    state = steps(state, ACTIVATE, gain("wisdom"), gain("strength"), gain("strength"))
    assert state["seats"][YELLOW]["tokens"] == {"strength": 2, "mana": 0, "wisdom": 1}
    assert _upright(state, YELLOW, "werewolf") == [False]
    # Green: "Nameless Traveler of Fate!" interrupts all: Blue's Archaeologist, not Red's Cleric.
    assert turn_seat(state) == GREEN
    state = steps(state, play("traveler_of_fate", "nameless"), {"type": "interrupt_all"})
    assert _upright(state, BLUE, "archaeologist") == [False]
    assert _upright(state, RED, "cleric") == [True]
    # Red's Cleric resolves at the start of his next turn.
    assert turn_seat(state) == RED
    assert moves(state) == [ACTIVATE]


def _warrior_upright(field, relic_deck=None):
    """Two players; seat 0 declared Legendary Warrior last turn, seat 1 played a Sage."""
    hands = {0: ["warrior", "cleric", "sage", "thief"], 1: ["sage", "magician", "cleric", "thief"]}
    kw = {"field": field}
    if relic_deck is not None:
        kw["relic_deck"] = relic_deck
    state = explore(2, hands, **kw)
    state = steps(state, play("warrior", "legendary"), play("sage", "nameless"), SKIP, SKIP)
    assert turn_seat(state) == 0
    return state


def test_example_obtaining_a_card_from_the_field():
    field = ["giant_boar", "misty_ravine", "lurking_coyote", "crystal_cave"]
    state = _warrior_upright(field)
    give(state, 0, strength=1)
    deck_top = state["adventure_deck"][0]
    relic_top = state["relic_deck"][0]
    # Legendary Warrior: gain 2 strength, then Overcome.
    state = steps(state, ACTIVATE, gain("strength"), gain("strength"))
    assert {"type": "obtain", "card": "lurking_coyote"} in moves(state)
    state, events = step(state, {"type": "obtain", "card": "lurking_coyote"})
    me = state["seats"][0]
    assert me["tokens"]["strength"] == 0  # 3 strength returned to the supply
    assert "lurking_coyote" in me["journal"]
    # One of the two rightmost cards: an extra relic from the relic deck.
    assert [e["data"]["card"] for e in events if e["type"] == "excavate"] == [relic_top]
    assert relic_top in [r["id"] for r in me["relics"]] + me["journal"]
    # The gap closes by moving cards to the RIGHT (the printed example says left; the rule wins)
    # and the new card fills the leftmost space.
    assert state["field"] == [deck_top, "giant_boar", "misty_ravine", "crystal_cave"]


def test_example_using_a_level1_relic_the_dragonslayer():
    field = ["lurking_coyote", "misty_ravine", "great_kraken", "crystal_cave"]
    state = _warrior_upright(field)
    state["seats"][0]["relics"].append({"id": "the_dragonslayer", "turn": 0})
    assert moves(state) == [ACTIVATE, {"type": "activate", "use": "the_dragonslayer"}]
    state = steps(state, {"type": "activate", "use": "the_dragonslayer"})
    assert [s["op"] for s in state["turn"]["queue"]] == ["gain"] * 4 + ["overcome"]
    state = steps(state, *[gain("strength")] * 4)
    assert state["seats"][0]["tokens"]["strength"] == 4
    assert state["turn"]["queue"] == [{"op": "overcome"}]
    assert moves(state) == [{"type": "obtain", "card": "lurking_coyote"}, SKIP]
    assert C.relics["the_dragonslayer"].icons == ("strength",) * 4 + ("overcome",)
