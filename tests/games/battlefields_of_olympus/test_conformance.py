"""The engine's property checks over many seeded random playouts."""
import pytest

from shared.engine.conformance import check_playouts
from shared.games.battlefields_of_olympus import GAME


@pytest.mark.parametrize("options", [{}, {"target_points": 12}, {"target_points": 20}])
def test_conformance_playouts(options):
    seeds = range(20) if not options else range(5)
    results = check_playouts(GAME, 2, options, seeds=seeds)
    assert all(GAME.outcome(r.state) is not None for r in results)
