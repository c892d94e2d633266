"""The state layout of engine 3 (``state.py``'s docstring), event by event: the keys of the state,
of a battle, of a Warrior on the line and of a reply window's cards, and what each event leaves in
them. The view is the state minus the hidden zones, so every key and value here is something a
player sees (and later rules read); changing any of it is a new engine version (docs/releases.md).
Pinned for mutation testing (docs/mutation-testing/battlefields_of_olympus.md)."""
import pytest

from shared.games.battlefields_of_olympus import GAME

from .test_intermediate_states import _random_match

STATE_KEYS = {"phase", "actor", "turn", "battled", "wdeck", "wdisc", "fdeck", "adisc", "land_pile",
              "ares_pile", "ares_disc", "seats", "target_points", "discarding", "chain", "battle",
              "next_turn", "restock_queue", "result"}
BATTLE_KEYS = {"attacker", "defender", "first", "land", "owner", "ares", "to_play", "current", "played",
               "line", "leader", "passed", "actions", "used", "winner"}
CHAIN_CARD_KEYS = {"card", "seat", "target", "effect", "removed", "status"}
RESOLVING_AFTER = ("fate_drawn", "discard_done", "battle_ended", "battle_cleared")


def _check_chain(state: dict) -> None:
    """A reply window's cards: their keys, and ``cancelled`` exactly for the cards that left play."""
    for card in state["chain"]["cards"]:
        assert set(card) == CHAIN_CARD_KEYS
        assert (card["status"] == "cancelled") == card["removed"]
        assert card["status"] in ("active", "defeated", "cancelled")


def _check_event(state: dict, event: dict, played: list) -> None:
    """What ``event`` (just folded into ``state``) leaves in the state."""
    kind, d = event["type"], event["data"]
    assert set(state) == STATE_KEYS
    if kind == "setup":
        assert (state["phase"], state["actor"], state["turn"], state["battled"]) == ("resolving", None, d["first"], False)
        assert (state["chain"], state["next_turn"], state["restock_queue"], state["result"]) == (None, None, [], None)
    elif kind == "turn_started":
        assert (state["phase"], state["actor"], state["turn"]) == ("action", d["seat"], d["seat"])
        assert (state["battled"], state["next_turn"], state["restock_queue"]) == (False, None, [])
    elif kind in RESOLVING_AFTER:
        assert (state["phase"], state["actor"]) == ("resolving", None)
    if kind == "discard_started":
        assert (state["phase"], state["actor"]) == ("discarding", d["seat"])
    elif kind == "discard_done":
        assert state["discarding"] is None
    elif kind == "battle_started":
        played[:] = [0, 0]
        assert set(state["battle"]) == BATTLE_KEYS and state["battle"]["winner"] is None
        assert state["battle"]["defender"] == 1 - d["attacker"] and state["battle"]["first"] == d["first"]
        assert state["battle"]["to_play"] == d["first"] and state["battle"]["leader"] is None
        assert (state["phase"], state["actor"], state["battled"]) == ("battle", d["first"], True)
    elif kind in ("action_played", "action_responded"):
        _check_chain(state)
    elif kind == "chain_resolved":
        assert state["chain"] is None
        if state["phase"] == "battle":
            assert state["actor"] == state["battle"]["to_play"]
    elif kind == "hand_revealed":
        assert state["seats"][d["seat"]]["known"] == sorted(d["cards"])
    elif kind == "warrior_played":
        played[d["seat"]] += 1
        assert state["battle"]["played"] == played
        assert state["battle"]["line"][-1] == {"seat": d["seat"], "card": d["card"], "from": d["from"],
                                               "result": d["result"]}
        if d["from"] == "bonus":
            assert state["seats"][d["seat"]]["bonus"] is None
    elif kind == "lead_taken":
        assert state["battle"]["line"][-1]["overturned"] is True
    elif kind == "swap_started":
        assert (state["phase"], state["actor"]) == ("swap", d["seat"])
    elif kind == "warrior_swapped":
        assert state["battle"]["line"][-1] == {"seat": d["seat"], "card": d["card"], "from": "swap",
                                               "result": d["result"]}
        assert state["phase"] == "battle" and d["returned"] in state["seats"][d["seat"]]["known"]
    elif kind == "battle_ended":
        assert state["battle"]["winner"] == d["winner"]
    elif kind == "game_ended":
        assert (state["phase"], state["actor"], state["chain"]) == ("over", None, None)
        assert state["result"] == {"reason": d["reason"]}


@pytest.mark.parametrize("seed,action_heavy", [(1, False), (2, False), (3, True), (4, True), (6, True), (7, True)])
def test_rule_state_layout_of_engine_3_after_every_event(seed, action_heavy):
    """Random matches, folded one event at a time: each event leaves the layout ``state.py``
    describes (between the events of one move: phase ``resolving``, nobody to act)."""
    state: dict = {}
    played = [0, 0]
    seen = set()
    for event in _random_match(seed, action_heavy):
        state = GAME.fold([event], state)
        _check_event(state, event, played)
        seen.add(event["type"])
    assert {"setup", "turn_started", "fate_drawn", "battle_started", "warrior_played", "battle_ended",
            "battle_cleared", "game_ended"} <= seen
