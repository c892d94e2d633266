"""The conformance checks themselves, run on the test game."""
import pytest

from shared.engine import registry
from shared.engine.conformance import check_playouts


@pytest.mark.parametrize("players", [2, 3])
def test_duel_passes_conformance(players):
    game = registry.get("duel")
    results = check_playouts(game, players, seeds=range(10), full_check_every=1)
    assert all(r.steps == players * 3 for r in results)
