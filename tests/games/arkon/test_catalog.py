"""The viewer's catalog (issue 20): every card of the data file with its printed name, influence,
text, kind and source, the roles, clan types and phase names; only public content."""
import json

from shared.engine import registry
from shared.games.arkon.catalog import catalog
from shared.games.arkon.content import CARDS, DATA, ROLES

SOURCES = {"rulebook", "public", "house"}
PUBLIC_KEYS = {"game", "engine", "cards", "roles", "clan_types", "phases", "hand_limit", "win_clans"}
HIDDEN_WORDS = {"deck", "order", "seed", "secret", "private", "hand", "bid", "effect", "commit"}


def _keys(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def test_catalog_every_card_of_the_data_file_has_a_name_text_kind_and_source():
    raw = json.loads((DATA / "cards.json").read_text())["cards"]
    cards = catalog()["cards"]
    assert set(cards) == {c["id"] for c in raw} == set(CARDS)
    for c in raw:
        card = cards[c["id"]]
        assert card["name"] == c["name"] and card["name"].strip()
        assert card["text"] == c["text"] and card["text"].strip()
        assert card["kind"] == c["kind"] in {"clan", "action", "response"}
        assert card["source"] in SOURCES
        assert card["values"]["Influence"] == c["influence"]


def test_catalog_clans_show_their_passive_influence_and_promos_are_marked():
    cards = catalog()["cards"]
    assert cards["human"]["values"] == {"Influence": 2, "Passive influence": 1}
    assert cards["negotiations"]["values"] == {"Influence": 8} and cards["negotiations"]["copies"] == 2
    assert cards["savin"].get("promo") and not cards["human"].get("promo")


def test_catalog_roles_clan_types_and_phases():
    cat = catalog()
    assert set(cat["roles"]) == set(ROLES)
    assert all(r["name"] and r["text"] and r["source"] in SOURCES for r in cat["roles"].values())
    assert cat["clan_types"] == {"human": "Human", "orc": "Orc", "dwarf": "Dwarf", "elf": "Elf"}
    assert cat["phases"]["bidding"] == "Bidding Phase"


def test_catalog_holds_public_content_only():
    cat = catalog()
    assert set(cat) == PUBLIC_KEYS
    assert cat["game"] == "arkon" and cat["engine"] == registry.get("arkon").version
    assert not HIDDEN_WORDS & set(_keys(cat))
    assert json.loads(json.dumps(cat)) == cat
