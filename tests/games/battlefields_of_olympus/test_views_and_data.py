"""Hidden information in views and determinized states; the data files."""
import json
from collections import Counter

import pytest

from shared.engine import get
from shared.games.battlefields_of_olympus import GAME
from shared.games.battlefields_of_olympus.content import DATA, source_labels
from shared.rng import FastRng, SeededRng

from .helpers import C, play, table


def test_registered_under_its_id():
    assert get("battlefields-of-olympus") is GAME
    assert GAME.describe()["options"]["target_points"]["default"] == 16


def test_view_hides_opponent_hand_actions_reserve_and_deck_order():
    state = table(hands=(["archers", "cavalry"], ["spearmen"]), actions=(["flank"], ["elite"]),
                  reserves=(["swordsmen"], ["archers"]))
    view = GAME.view(state, 0)
    assert view["seats"][0]["hand"] == ["archers", "cavalry"] and view["seats"][0]["reserve"] == ["swordsmen"]
    assert view["seats"][1]["hand"] == {"count": 1}
    assert view["seats"][1]["actions"] == {"count": 1} and view["seats"][1]["reserve"] == {"count": 1}
    assert view["wdeck"] == {"count": len(state["wdeck"])} and view["fdeck"] == {"count": len(state["fdeck"])}
    spectator = GAME.view(state, None)
    assert all(isinstance(s["hand"], dict) for s in spectator["seats"])


def test_determinize_keeps_the_view_and_deals_only_unseen_cards():
    state = GAME.fold(GAME.setup(2, {"target_points": 16}, SeededRng(b"d", "setup")))
    state, _ = play(state, 0, {"type": "draw_fate"})
    view = GAME.view(state, 1)
    twin = GAME.determinize(view, 1, FastRng(3))
    assert GAME.view(twin, 1) == view
    assert twin["seats"][1] == state["seats"][1]
    everything = Counter(twin["wdeck"]) + Counter(twin["wdisc"])
    for s in twin["seats"]:
        everything += Counter(s["hand"]) + Counter(s["reserve"])
    assert everything == Counter(C.warrior_deck())


def _entries():
    for name, key in (("warriors.json", "types"), ("actions.json", "actions"), ("lands.json", "lands")):
        yield from json.loads((DATA / name).read_text())[key]
    rules = json.loads((DATA / "rules.json").read_text())
    yield from (v for k, v in rules.items() if k != "about")
    yield json.loads((DATA / "bonus_warrior.json").read_text())


def test_data_every_entry_has_a_source_naming_rulebook_public_inferred_or_house():
    for entry in _entries():
        labels = source_labels(entry.get("source"))
        assert labels, entry
        for label in labels:
            assert label.split(" ")[0] in ("rulebook", "public", "inferred", "house"), entry


def test_data_warriors_the_three_inferred_who_beats_whom_relations_are_labelled_inferred():
    """components.md: reviews state seven relations; 'Spearmen die to most attackers' and
    'Archers are deadly against most forces', read as three of four, give the other three."""
    by_label = {}
    for w in json.loads((DATA / "warriors.json").read_text())["types"]:
        for beaten, label in w["source"]["beats"].items():
            by_label.setdefault(label.split(" ")[0], set()).add((w["id"], beaten))
    assert by_label["inferred"] == {("archers", "spearmen"), ("archers", "swordsmen"), ("swordsmen", "spearmen")}
    assert len(by_label["public"]) == 7 and set(by_label) == {"public", "inferred"}
    assert by_label["public"] | by_label["inferred"] == {(a, b) for a in C.warriors for b in C.warriors if C.beats(a, b)}


def test_data_bonus_warrior_cut_off_sentences_are_not_labelled_rulebook():
    """WARRIOR CARDS: only the first bonus-Warrior sentence survives whole; the others break off
    ('This drawn Warrior card acts as a', 'A player cannot have more than one', 'If a player no
    longer holds 3 Land Trophy cards with the same color, the'), so readings of them are house."""
    source = json.loads((DATA / "bonus_warrior.json").read_text())["source"]
    assert source["condition"].startswith("rulebook")
    for key in ("max_per_player", "lost_without_condition", "use"):
        assert source[key].startswith("house"), key


def test_data_every_action_count_has_a_source():
    """ACTION CARDS: the rulebook gives 30 Actions in all, not the count of each card."""
    for entry in json.loads((DATA / "actions.json").read_text())["actions"]:
        assert entry["source"]["count"].split(" ")[0] in ("rulebook", "public", "inferred", "house"), entry["id"]


def test_data_bonus_warrior_for_three_lands_of_one_colour_at_most_one():
    assert C.bonus["lands_of_one_colour"] == 3 and C.bonus["max_per_player"] == 1


def test_data_fifty_warriors_of_five_types():
    assert sum(w.count for w in C.warriors.values()) == 50
    assert {w.name for w in C.warriors.values()} == {"Archers", "Cavalry", "Heavy Infantry", "Spearmen", "Swordsmen"}


def test_data_thirty_actions_including_every_named_one():
    assert sum(a.count for a in C.actions.values()) == 30
    assert {"ambush", "raid", "rally", "scout", "elite", "flank", "skirmish"} <= set(C.actions)
    assert any("*" in a.cancels for a in C.actions.values()) and any(a.defeats for a in C.actions.values())


def test_data_fourteen_lands_values_one_to_six():
    lands = list(C.lands.values())
    assert len(lands) == 14
    assert min(l.value for l in lands) == 1 and max(l.value for l in lands) == 6
    assert sum(1 for l in lands if l.name == "Woodland" and l.value == 1) >= 2
    assert [l.name for l in lands if l.value == 6] == ["Olympus"]


def test_data_components_colour_symbols_only_on_the_duplicate_land_trophies():
    """COMPONENTS: "Each of the duplicate Land Trophy cards has one of three color symbols (red,
    yellow, or blue)": Olympus, a single copy, carries none."""
    copies = Counter(l.name for l in C.lands.values())
    for land in C.lands.values():
        if copies[land.name] > 1:
            assert land.colour in ("red", "yellow", "blue"), land
        else:
            assert land.colour is None, land
    assert C.lands["olympus"].colour is None and copies["Olympus"] == 1
    assert {l.colour for l in C.lands.values() if l.colour} == {"red", "yellow", "blue"}


def test_data_loader_rejects_a_colour_on_a_single_land_and_an_unsourced_count():
    """content.py checks the data it loads: the clauses above cannot silently regress."""
    import copy

    from shared.games.battlefields_of_olympus.content import _check, _load

    raw_w, raw_a, raw_l = (_load(n)[k] for n, k in (("warriors.json", "types"), ("actions.json", "actions"),
                                                     ("lands.json", "lands")))
    _check(raw_w, raw_a, raw_l, C.warriors, C.beats_table)
    coloured = copy.deepcopy(raw_l)
    next(l for l in coloured if l["id"] == "olympus")["colour"] = "blue"
    unsourced = copy.deepcopy(raw_a)
    del unsourced[0]["source"]["count"]
    mislabelled = copy.deepcopy(raw_w)
    mislabelled[0]["source"]["beats"]["cavalry"] = "reviews"
    for w, a, l in ((raw_w, raw_a, coloured), (raw_w, unsourced, raw_l), (mislabelled, raw_a, raw_l)):
        with pytest.raises(ValueError):
            _check(w, a, l, C.warriors, C.beats_table)
