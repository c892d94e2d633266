"""Additional rule for 2 players: the anti-legendary Cleric."""
from .helpers import SKIP, explore, moves, play, steps, turn_seat


def test_rule_two_players_anti_legendary_cleric_allows_only_nameless():
    state = explore(2, {0: ["cleric", "sage", "warrior", "thief"], 1: ["magician", "sage", "warrior", "thief"]})
    state = steps(state, play("cleric", "legendary"))
    assert turn_seat(state) == 1
    legal = moves(state)
    assert legal and all(m["ability"] == "nameless" for m in legal)


def test_rule_two_players_anti_legendary_cleric_lifts_once_the_cleric_is_sideways():
    state = explore(2, {0: ["cleric", "sage", "warrior", "thief"], 1: ["magician", "sage", "warrior", "thief"]})
    state = steps(state, play("cleric", "legendary"), play("magician", "nameless"), SKIP, SKIP)
    state = steps(state, {"type": "activate", "use": "member"}, SKIP, SKIP)
    assert turn_seat(state) == 1
    assert play("sage", "legendary") in moves(state)


def test_rule_anti_legendary_cleric_is_for_two_players_only():
    hands = {s: ["cleric", "sage", "warrior", "thief"] for s in range(3)}
    state = explore(3, hands)
    state = steps(state, play("cleric", "legendary"))
    assert play("sage", "legendary") in moves(state)
