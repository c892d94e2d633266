"""The engine's conformance properties for every player count and every faction pairing."""
from itertools import combinations, permutations

import pytest

from shared.engine.conformance import check_playouts
from shared.games.fate_of_akalon import GAME
from shared.games.fate_of_akalon.content import DECKS, FACTIONS

PAIRS = [list(p) for p in permutations(FACTIONS, 2)]
TRIOS = [list(c) for c in combinations(FACTIONS, 3)]
TEAMS = [["elf", "dwarf", "orc", "undead"], ["elf", "orc", "dwarf", "undead"], ["elf", "dwarf", "undead", "orc"]]


@pytest.mark.parametrize("factions", PAIRS, ids="-".join)
def test_conformance_two_players_every_pairing(factions):
    check_playouts(GAME, 2, {"factions": factions}, seeds=range(3))


@pytest.mark.parametrize("factions", TRIOS, ids="-".join)
def test_conformance_three_players_every_trio(factions):
    check_playouts(GAME, 3, {"factions": factions}, seeds=range(3))


@pytest.mark.parametrize("factions", TEAMS, ids="-".join)
def test_conformance_four_players_every_team_split(factions):
    check_playouts(GAME, 4, {"factions": factions}, seeds=range(3))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_random_factions(players):
    check_playouts(GAME, players, {}, seeds=range(10, 16))


def _owned_everywhere(state):
    """Every card sits in exactly one area of its owner (or on the battlefield under its owner)."""
    for s, z in enumerate(state["zones"]):
        mine = set(DECKS[state["factions"][s]])
        held = z["deck"] + z["hand"] + z["discard"] + z["cemetery"] + z["out"] + z["revealed"]
        held += [e["card"] for e in state["field"] if e["seat"] == s]
        assert sorted(held) == sorted(mine)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_cards_never_go_to_another_players_area(players):
    for result in check_playouts(GAME, players, {}, seeds=range(20, 24)):
        state = {}
        for ev in result.events:
            GAME.apply(state, ev)
            if ev["type"] != "setup":
                _owned_everywhere(state)


def test_view_hides_hands_and_deck_order():
    result = check_playouts(GAME, 3, {}, seeds=[7], must_finish=True)[0]
    state = {}
    for ev in result.events[: len(result.events) // 2]:
        GAME.apply(state, ev)
    for seat in (0, 1, 2, None):
        v = GAME.view(state, seat)
        for s, z in enumerate(v["zones"]):
            assert z["deck"] == {"count": len(state["zones"][s]["deck"])}
            if s != seat:
                assert z["hand"] == {"count": len(state["zones"][s]["hand"])}
            else:
                assert z["hand"] == state["zones"][s]["hand"]
