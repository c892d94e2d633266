"""The engine's property checks over many seeded random playouts."""
import pytest

from shared.engine.conformance import check_playouts
from shared.games.battlefields_of_olympus import GAME


@pytest.mark.parametrize("options", [{}, {"target_points": 12}, {"target_points": 20}])
def test_conformance_playouts(options):
    seeds = range(40) if not options else range(8)
    results = check_playouts(GAME, 2, options, seeds=seeds)
    assert all(GAME.outcome(r.state) is not None for r in results)


def _check_determinized_worlds_are_playable(state, rng):
    """Unseen cards are dealt only where they may be: the opponent's Actions are Action cards,
    and every seat can list its moves in a determinized world."""
    from shared.games.battlefields_of_olympus.content import load

    content = load()
    for seat in range(2):
        twin = GAME.determinize(GAME.view(state, seat), seat, rng)
        for other in twin["seats"]:
            assert all(content.fate_kind(c) == "action" for c in other["actions"])
            assert all(c in content.warriors for c in other["hand"] + other["reserve"])
        for s in range(2):
            GAME.legal_moves(twin, s)


def test_conformance_checks_hold_in_action_heavy_playouts():
    """Random playouts biased towards Actions and replies, so reply chains, Elite, Flank, Skirmish
    and Raids are frequent; every step passes the engine's state checks."""
    from shared.engine.conformance import _check_state, _Replay
    from shared.rng import FastRng, SeededRng

    seen = set()
    for seed in range(12):
        events = GAME.setup(2, GAME.validate_options(2, {}), SeededRng(f"heavy-{seed}".encode(), "setup"))
        state = GAME.fold(events)
        rng = FastRng(seed)
        replay = _Replay(GAME)
        steps = 0
        while GAME.outcome(state) is None and steps < 3000:
            _check_state(GAME, state, 2, events, full=steps % 5 == 0, rng=rng, replay=replay)
            if steps % 5 == 0:
                _check_determinized_worlds_are_playable(state, rng)
            seat = GAME.to_act(state)[0]
            moves = GAME.legal_moves(state, seat)
            preferred = [m for m in moves if m["type"] in ("play_action", "respond", "swap", "play_warrior")]
            move = (preferred or moves)[rng.randbelow(len(preferred or moves))]
            new = GAME.decide(state, seat, move, SeededRng(f"heavy-{seed}".encode(), len(events)))
            seen.update(e["type"] for e in new)
            for ev in new:
                state = GAME.evolve(state, ev)
            events += new
            steps += 1
        assert GAME.outcome(state) is not None
        _check_state(GAME, state, 2, events, full=True, rng=rng)
    assert {"action_responded", "lead_taken", "warrior_swapped", "hand_revealed", "bonus_drawn"} <= seen
