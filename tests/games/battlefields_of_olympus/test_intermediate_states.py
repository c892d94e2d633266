"""view, to_act and legal_moves are total: they answer for the state after every single event of
a log, also in the middle of one move's events (replays and audits fold logs event by event)."""
import pytest

from shared.canonical import encode
from shared.games.battlefields_of_olympus import GAME
from shared.rng import FastRng, SeededRng

ACTION_MOVES = ("play_action", "respond", "swap", "play_warrior")


def _random_match(seed: int, action_heavy: bool) -> list:
    """The whole event log of a random match (optionally preferring Actions, replies, swaps)."""
    secret = f"fold-{seed}".encode()
    events = GAME.setup(2, GAME.validate_options(2, {}), SeededRng(secret, "setup"))
    state = GAME.fold(events)
    chooser = FastRng(seed)
    while GAME.outcome(state) is None:
        assert len(events) < 20000, "a random match did not end"
        seat = GAME.to_act(state)[0]
        moves = GAME.legal_moves(state, seat)
        preferred = [m for m in moves if m["type"] in ACTION_MOVES] if action_heavy else []
        pool = preferred or moves
        new = GAME.decide(state, seat, pool[chooser.randbelow(len(pool))], SeededRng(secret, len(events)))
        state = GAME.fold(new, state)
        events += new
    return events


def _check_total(state: dict) -> None:
    acting = GAME.to_act(state)
    assert set(acting) <= {0, 1}
    for seat in (0, 1):
        moves = GAME.legal_moves(state, seat)
        assert bool(moves) == (seat in acting), (state.get("phase"), seat, acting)
        encode(moves)
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        encode(view)
        for i, seen in enumerate(view["seats"]):
            if i != seat:
                assert set(seen["hand"]) == {"count"} and set(seen["actions"]) == {"count"}


@pytest.mark.parametrize("seed,action_heavy", [(1, False), (2, False), (3, True), (4, True)])
def test_view_to_act_and_legal_moves_answer_after_every_single_event(seed, action_heavy):
    events = _random_match(seed, action_heavy)
    state: dict = {}
    assert GAME.to_act(state) == [] and GAME.legal_moves(state, 0) == [] and GAME.view(state, None) == {}
    phases = set()
    for event in events:
        state = GAME.fold([event], state)
        _check_total(state)
        phases.add(state["phase"])
    assert {"resolving", "action", "post", "battle", "restock", "over"} <= phases
    assert GAME.outcome(state) is not None


def test_no_decision_is_awaited_while_a_move_is_resolving():
    """Between the setup and the first turn, after a Fate draw and after a battle's steps 5-6, the
    game carries on by itself: nobody is to act and nobody has a legal move."""
    events = _random_match(5, False)
    state: dict = {}
    seen = 0
    for event in events:
        state = GAME.fold([event], state)
        if event["type"] in ("setup", "fate_drawn", "discard_done", "battle_ended", "battle_cleared"):
            assert GAME.to_act(state) == [] or state["phase"] == "over"
            assert GAME.legal_moves(state, 0) == GAME.legal_moves(state, 1) == []
            seen += 1
    assert seen > 10
