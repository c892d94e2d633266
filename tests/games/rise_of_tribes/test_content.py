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


def test_source_labels_name_where_each_effect_comes_from():
    """Issue 12: a label names the origin of the effect, not only of the name. Altar, Sabertooth
    Tiger and Abandoned Village are names from the Deluxe list with effects of ours; the
    Mammoth's placement is the rulebook's clarification, its hunt is ours; the dice symbols are
    the rulebook's, their counts ours, and the starting faces come from reviews."""
    events = content.EVENTS
    for card in ("altar", "sabertooth_tiger", "abandoned_village"):
        assert events[card]["name_source"] == "public" and events[card]["source"] == "house"
        assert all(op["source"] == "house" for op in content.event_effects(events[card]))
    mammoth = {op["op"]: op["source"] for op in content.event_effects(events["mammoth"])}
    assert events["mammoth"]["name_source"] == "rulebook" and mammoth == {"place": "rulebook", "hunt": "house"}
    assert events["mammoth"]["source"] == "house"
    faces = content.DICE["faces"]
    assert faces["source"] == "house" and faces["symbols_source"] == "rulebook"
    assert content.DICE["start_on_each_action"]["source"] == "public"


def test_content_check_rejects_a_card_labelled_more_certain_than_its_effects():
    card = content.EVENTS["altar"]
    card["source"] = "public"
    try:
        with pytest.raises(ValueError, match="altar"):
            content.check_sources()
    finally:
        card["source"] = "house"
    del card["effects"][0]["source"]
    try:
        with pytest.raises(ValueError, match="altar"):
            content.check_sources()
    finally:
        card["effects"][0]["source"] = "house"
    content.check_sources()
