"""Data files: counts the rulebook states and a source on every entry."""
import pytest

from shared.games.rise_of_tribes import content

from .helpers import GAME

SOURCES = {"rulebook", "public", "house"}


def test_content_every_entry_has_a_source():
    entries = (list(content.GOALS.values()) + list(content.EVENTS.values()) + list(content.TRIBES.values())
               + list(content.POWERS.values()) + list(content.ACTION_TABLE.values())
               + list(content.BOARD["maps"].values()) + content.BOARD["terrains"])
    assert all(e["source"] in SOURCES for e in entries)


def test_content_counts_from_the_rulebook():
    assert len(content.GOALS) == 15 and len(content.EVENTS) == 12
    assert len(content.TRIBES) == 6 and len(content.POWERS) == 12
    assert all(len(t["powers"]) == 2 for t in content.TRIBES.values())
    assert {p for t in content.TRIBES.values() for p in t["powers"]} == set(content.POWERS)
    assert {g["id"] for g in content.GOALS.values() if g.get("min_players") == 3} == {"pottery"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_content_map_sizes_and_symmetric_adjacency(players):
    adj = content.adjacency(players)
    assert len(adj) == 3 * (players + 1)
    assert all(h in adj[n] for h, ns in enumerate(adj) for n in ns)


def test_options_schema_and_player_counts():
    assert GAME.validate_options(3, {}) == {"tribal_powers": False}
    for bad_players, opts in ((1, {}), (5, {}), (3, {"tribal_powers": "maybe"}), (3, {"other": 1})):
        with pytest.raises(ValueError):
            GAME.validate_options(bad_players, opts)
