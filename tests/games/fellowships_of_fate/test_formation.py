"""Formation: every player secretly and simultaneously chooses 4 of their members."""
from .helpers import GAME, act, form, setup_event

HAND = ["warrior", "magician", "cleric", "sage"]


def _start(players=3):
    return GAME.fold([setup_event(players)])


def test_rule_formation_is_simultaneous():
    state = _start(3)
    assert state["phase"] == "formation"
    assert GAME.to_act(state) == [0, 1, 2]


def test_rule_formation_pick_unpick_confirm_four_members():
    state = _start(2)
    legal = GAME.legal_moves(state, 0)
    assert {"type": "confirm"} not in legal
    assert len([m for m in legal if m["type"] == "pick"]) == 9
    for m in HAND:
        state, _ = act(state, 0, {"type": "pick", "member": m})
    legal = GAME.legal_moves(state, 0)
    assert not [m for m in legal if m["type"] == "pick"]  # no fifth member
    assert {"type": "confirm"} in legal
    state, _ = act(state, 0, {"type": "unpick", "member": "cleric"})
    assert {"type": "confirm"} not in GAME.legal_moves(state, 0)
    state, _ = act(state, 0, {"type": "pick", "member": "thief"})
    state, _ = act(state, 0, {"type": "confirm"})
    assert GAME.to_act(state) == [1]
    assert GAME.legal_moves(state, 0) == []


def test_rule_formation_choices_are_hidden_from_others():
    """1. Formation: "Choose 4 member cards ... and keep them hidden from other players"; others
    see only how many members a seat has picked (the pick events are public, the member is not)."""
    state = _start(3)
    state, events = act(state, 0, {"type": "pick", "member": "warrior"})
    for seat in (None, 1, 2):
        assert GAME.redact(events[0], seat)["data"] == {"seat": 0}
        view = GAME.view(state, seat)
        assert view["seats"][0]["draft"] == {"count": 1}
        assert "warrior" not in str(view["seats"][0]["hand"])
    assert GAME.redact(events[0], 0)["data"] == {"seat": 0, "member": "warrior"}
    assert GAME.view(state, 0)["seats"][0]["draft"] == ["warrior"]
    for m in ["magician", "cleric", "sage"]:
        state, _ = act(state, 0, {"type": "pick", "member": m})
    state, events = act(state, 0, {"type": "confirm"})
    view = GAME.view(state, 1)
    assert view["formation"]["committed"] == [0] and "mine" not in view["formation"]
    assert "warrior" not in str(view["formation"]) and "warrior" not in str(GAME.redact(events[0], 1))
    assert GAME.view(state, 0)["formation"]["mine"] == sorted(HAND)


def test_rule_explore_begins_when_all_have_chosen_and_hands_stay_hidden():
    state = _start(2)
    state = form(state, {0: HAND, 1: ["thief", "werewolf", "archaeologist", "traveler_of_fate"]})
    assert state["phase"] == "explore"
    assert sorted(state["seats"][0]["hand"]) == sorted(HAND)
    assert len(state["seats"][0]["standby"]) == 5
    assert GAME.view(state, 1)["seats"][0]["hand"] == {"count": 4}
    assert GAME.view(state, 1)["seats"][0]["standby"] == {"count": 5}
    assert GAME.to_act(state) == [0]
