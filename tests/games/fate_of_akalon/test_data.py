"""The deck data: four decks of 28, values 0-8, rulebook cards kept, effects from the vocabulary."""
import json

from shared.games.fate_of_akalon.content import CARDS, DATA, DECKS, FACTIONS, card
from shared.games.fate_of_akalon.content import CONTINUOUS_ACTIONS as CONTINUOUS, INSTANT_ACTIONS as ACTIONS


def test_data_four_decks_of_28_cards():
    assert sorted(FACTIONS) == ["dwarf", "elf", "orc", "undead"]
    for f in FACTIONS:
        assert len(DECKS[f]) == 28
        assert len(set(DECKS[f])) == 28


def test_data_every_card_has_the_anatomy_and_a_source():
    raw = json.loads(DATA.read_text())
    for c in raw["cards"]:
        for field in ("name", "value", "text", "attribute", "frequency", "faction", "source", "effects"):
            assert field in c, (c["key"], field)
        assert 0 <= c["value"] <= 8 and c["frequency"] >= 1 and c["text"]
        assert c["source"] in ("rulebook", "public", "house")
    for f in raw["factions"]:
        assert f["source"] == "rulebook"


def test_data_values_span_zero_to_eight_in_every_deck():
    for f in FACTIONS:
        values = {card(c).value for c in DECKS[f]}
        assert min(values) == 0 and max(values) == 8


def test_data_effects_come_from_the_vocabulary():
    for d in CARDS.values():
        for fx in d.effects:
            assert fx["do"] in ACTIONS or fx["do"] in CONTINUOUS, (d.key, fx)
            if fx["do"] in CONTINUOUS:
                assert fx["on"] == "continuous"
            assert fx.get("if") in (None, "attacking", "defending", "holding")


def _get(faction, name):
    return next(d for d in CARDS.values() if d.faction == faction and d.name == name)


def test_data_rulebook_cards_keep_rulebook_values_and_effects():
    assert _get("elf", "Hunter").value == 3
    assert _get("elf", "Archer").value == 2
    assert _get("elf", "Wizard").value == 7
    assert _get("orc", "Goblin").value == 1
    assert _get("orc", "Battering Ram").value == 6
    does = lambda f, n: [(fx["on"], fx["do"]) for fx in _get(f, n).effects]  # noqa: E731
    assert ("play", "play_another") in does("elf", "Archer")
    assert ("cemetery", "draw") in does("elf", "Sylvan")
    assert ("play", "reveal_play") in does("elf", "Master Summoner")
    assert _get("orc", "Goblin").effects[0]["name"] == "Hobgoblin"
    assert ("continuous", "modify") in does("orc", "Hobgoblin")
    assert ("defeated", "next_attacker") in does("orc", "Kobold")
    assert ("continuous", "ignore_text") in does("dwarf", "Tactician")
    assert ("play", "next_attacker") in does("dwarf", "Hammer")
    assert ("continuous", "limit_plays") in does("undead", "Ghoul")
    assert ("play", "discard_random") in does("undead", "Vampire")
    ram = _get("orc", "Battering Ram").effects[0]
    assert ram["if"] == "defending" and ram["amount"] == -2
    for name in ("Hunter", "Archer", "Wizard", "Sylvan", "Master Summoner"):
        assert _get("elf", name).source == "rulebook"


def test_data_notes_deck_list_matches_the_data():
    notes = (DATA.parent.parent / "NOTES.md").read_text()
    raw = json.loads(DATA.read_text())
    for c in raw["cards"]:
        row = f"| {c['faction']} | {c['name']} | {c['value']} | {c['frequency']} | {c['attribute']} | {c['text']} |"
        assert row in notes, row


def test_house_cards_no_two_cards_identical():
    """Issue 12: no two cards share the same text and value (Orc Grunt was a second Berserker,
    Elf Sentinel and Undead Ghast shared a card), and within a faction no two cards share a
    text or an effect list."""
    seen: dict = {}
    for d in CARDS.values():
        key = (d.text, d.value)
        assert key not in seen, (d.key, seen.get(key))
        seen[key] = d.key
    for f in FACTIONS:
        mine = [d for d in CARDS.values() if d.faction == f]
        assert len({d.text for d in mine}) == len(mine), f
        assert len({json.dumps(d.effects, sort_keys=True) for d in mine}) == len(mine), f


def test_data_every_text_mentions_what_its_effects_do():
    """The printed text and the effect list agree on the keywords (a reworded text cannot
    silently keep an old effect)."""
    words = {"attacking": "**Attacking**", "defending": "**Defending**", "holding": "If you have a card in hand"}
    moments = {"after_all": "**After all cards are played**", "defeated": "**Defeated**",
               "victorious": "**Victorious**", "cemetery": "**Cemetery**"}
    for d in CARDS.values():
        for fx in d.effects:
            if fx.get("if"):
                assert words[fx["if"]] in d.text, (d.key, fx)
            if fx["on"] in moments:
                assert moments[fx["on"]] in d.text, (d.key, fx)
            if fx["do"] == "play_another" and fx.get("attribute"):
                assert f"play a {fx['attribute']} card" in d.text, (d.key, fx)
