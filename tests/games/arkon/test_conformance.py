"""The engine's property checks over seeded random playouts, every player count and option set."""
import pytest

from shared.engine.conformance import check_playouts

from .helpers import GAME

OPTION_SETS = [
    {},
    {"promo_cards": ["reinforcements", "savin"]},
    {"roles": True},
    {"promo_cards": ["reinforcements", "savin"], "roles": True},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["base", "promo", "roles", "promo+roles"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_random_playouts(players, options):
    results = check_playouts(GAME, players, options, seeds=range(5))
    assert all(GAME.outcome(r.state) is not None for r in results)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_many_seeds_full_checks(players):
    for options in OPTION_SETS:
        check_playouts(GAME, players, options, seeds=range(100, 120), full_check_every=4)


def test_options_validation():
    assert GAME.validate_options(2, {}) == {"promo_cards": [], "roles": False}
    with pytest.raises(ValueError):
        GAME.validate_options(5, {})
    with pytest.raises(ValueError):
        GAME.validate_options(2, {"silver": True})
    described = GAME.describe()["options"]
    assert described["roles"]["default"] is False and described["promo_cards"]["type"] == "list"
