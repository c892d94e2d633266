"""Each game's catalog (``GET /v1/games/<id>/catalog``, drawn by the viewer): built from the game's
own content data, every entry in the common shape, every card a view can show present, and Rise of
Tribes' hex layouts touching exactly where the maps say hexes are adjacent."""
import pytest

from shared.engine import catalog, registry
from shared.games.battlefields_of_olympus.content import load as boo_content
from shared.games.fate_of_akalon.content import CARDS as FOA_CARDS
from shared.games.rise_of_tribes import catalog as rot_catalog
from shared.games.rise_of_tribes.content import BOARD, EVENTS, GOALS, POWERS

SOURCES = {"rulebook", "public", "inferred", "house"}


@pytest.mark.parametrize("game", [g.id for g in registry.all_games()])
def test_every_catalog_names_its_game_and_version_and_has_cards_in_one_shape(game):
    live = registry.get(game)
    cat = catalog.of(live)
    assert cat["game"] == game and cat["engine"] == live.version
    for content_id, entry in cat["cards"].items():
        assert {"name", "text", "values", "kind", "source"} <= set(entry), content_id
        assert entry["name"] and isinstance(entry["values"], dict) and entry["source"] in SOURCES, (content_id, entry)


def test_the_cards_of_every_view_are_in_their_catalogs():
    rot = catalog.of(registry.get("rise-of-tribes"))["cards"]
    assert set(GOALS) | set(EVENTS) | set(POWERS) <= set(rot)
    foa = catalog.of(registry.get("fate-of-akalon"))["cards"]
    assert set(FOA_CARDS) <= set(foa)
    assert foa["orc-goblin"]["values"]["value"] == FOA_CARDS["orc-goblin"].value
    boo = catalog.of(registry.get("battlefields-of-olympus"))["cards"]
    assert set(boo_content().warrior_deck()) | set(boo_content().fate_deck()) <= set(boo)


@pytest.mark.parametrize("players", sorted(BOARD["maps"]))
def test_the_rise_of_tribes_hex_layout_touches_exactly_where_the_map_is_adjacent(players):
    adjacency = BOARD["maps"][players]["adjacency"]
    layout = rot_catalog.layout(adjacency)
    assert len({tuple(p) for p in layout}) == len(adjacency)  # one place per hex
    for a, (qa, ra) in enumerate(layout):
        touching = {b for b, (qb, rb) in enumerate(layout) if (qb - qa, rb - ra) in rot_catalog.DIRECTIONS}
        assert touching == set(adjacency[a]), a


def test_a_layout_that_cannot_exist_is_refused():
    with pytest.raises(ValueError):
        rot_catalog.layout([[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]])  # four hexes all touching each other
