"""The viewer's catalog (issue 20): every member, adventure, relic and journal of the data files,
with its printed name, text, values, kind and source; only public content."""
import json

from shared.engine import registry
from shared.games.fellowships_of_fate.catalog import ability_text, catalog
from shared.games.fellowships_of_fate.content import DATA, content

SOURCES = {"rulebook", "public", "house"}
PUBLIC_KEYS = {"game", "engine", "cards", "journals", "tokens", "icons", "rounds", "hand_size", "field_size",
               "extra_relic_slots", "phases"}
HIDDEN_WORDS = {"deck", "order", "seed", "secret", "private", "hand", "standby", "draft", "removed"}


def _data(name, key):
    return json.loads((DATA / name).read_text())[key]


def _keys(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def test_catalog_every_card_of_the_data_files_has_a_name_text_kind_and_source():
    cards = catalog()["cards"]
    expected = ({m["id"]: "member" for m in _data("members.json", "members")}
                | {a["id"]: "adventure" for a in _data("adventures.json", "adventures")}
                | {r["id"]: "relic" for r in _data("relics.json", "relics")}
                | {f"journal_{j['colour']}": "journal" for j in _data("journals.json", "journals")})
    assert {cid: c["kind"] for cid, c in cards.items()} == expected
    for cid, card in cards.items():
        assert card["name"].strip() and card["text"].strip(), cid
        assert card["source"] in SOURCES, cid
        assert isinstance(card["values"], dict), cid
        assert all(isinstance(v, (int, str)) for v in card["values"].values()), cid


def test_catalog_names_and_values_are_the_printed_ones():
    c, cards = content(), catalog()["cards"]
    assert cards["warrior"]["name"] == "Warrior"
    assert cards["lurking_coyote"]["values"] == {"VP": 2, "Cost": "3 Strength"}
    assert cards["the_dragonslayer"]["values"]["Replaces"] == "Legendary Warrior"
    for rid in c.level2:
        assert cards[rid]["values"]["VP"] == c.relics[rid].vp
    assert "Holy Shield" in cards["cleric"]["text"] and "Holy Shield" not in cards["warrior"]["text"]
    assert catalog()["journals"]["red"] == "journal_red"


def test_catalog_texts_read_the_icons_left_to_right():
    assert ability_text(["strength", "strength", "overcome"]).startswith("Gain 2 Strength, then Overcome")
    assert ability_text([{"cost": {"wisdom": 1}}, "excavate"]).startswith("Pay 1 Wisdom")
    assert ability_text([{"kind": ["wild", "wild", "wild"]}]) == "Gain 3 tokens all of one type."
    assert ability_text([]) == "No effect."
    assert catalog()["cards"]["sage"]["text"] == "Nameless: Gain 1 Wisdom, then gain 1 Mana. " \
                                                  "Legendary: Gain 3 tokens all of one type."


def test_catalog_holds_public_content_only():
    cat = catalog()
    assert set(cat) == PUBLIC_KEYS
    assert cat["game"] == "fellowships-of-fate" and cat["engine"] == registry.get("fellowships-of-fate").version
    assert not HIDDEN_WORDS & set(_keys(cat))
    assert json.loads(json.dumps(cat)) == cat


def test_catalog_is_a_fresh_copy_each_time():
    cat = catalog()
    cat["cards"]["warrior"]["name"] = "changed"
    assert catalog()["cards"]["warrior"]["name"] == "Warrior"
