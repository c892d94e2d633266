"""The conformance checks themselves, run on the test game."""
import pytest

from shared.engine import registry
from shared.engine.conformance import check_playouts


@pytest.mark.parametrize("players", [2, 3])
def test_duel_passes_conformance(players):
    game = registry.get("duel")
    results = check_playouts(game, players, seeds=range(10), full_check_every=1)
    assert all(r.steps == players * 3 for r in results)


class _TouchingDuel(type(registry.get("duel"))):
    """A Duel whose ``decide`` writes into the state it is given (a bug: the live state then holds
    something its log does not)."""

    def decide(self, state, seat, move, rng):
        events = super().decide(state, seat, move, rng)
        state["touched"] = state.get("touched", 0) + 1
        return events


@pytest.mark.parametrize("every", [1, 3])
def test_a_live_state_that_drifts_from_its_log_fails_the_replay_check(every):
    """The replay is folded forward from one sampled step to the next; a drift that starts after
    the first checks is still found."""
    with pytest.raises(AssertionError, match="replay differs from live state"):
        check_playouts(_TouchingDuel(), 2, seeds=range(2), full_check_every=every)
