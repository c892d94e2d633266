"""Hidden information in views and determinized states; the data files."""
import json
from collections import Counter

from shared.rng import FastRng, SeededRng
from shared.engine import get
from shared.games.battlefields_of_olympus import GAME
from shared.games.battlefields_of_olympus.content import DATA

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


def test_data_every_entry_has_a_source_naming_rulebook_public_or_house():
    for entry in _entries():
        source = entry.get("source")
        values = list(source.values()) if isinstance(source, dict) else [source]
        assert values, entry
        for value in values:
            assert value.split(" ")[0] in ("rulebook", "public", "house"), entry


def test_data_bonus_warrior_for_three_lands_of_one_colour_at_most_one():
    assert C.bonus["lands_of_one_colour"] == 3 and C.bonus["max_per_player"] == 1


def test_data_fifty_warriors_of_five_types():
    assert sum(w.count for w in C.warriors.values()) == 50
    assert {w.name for w in C.warriors.values()} == {"Archers", "Cavalry", "Heavy Infantry", "Spearmen", "Swordsmen"}


def test_data_thirty_actions_including_every_named_one():
    assert sum(a.count for a in C.actions.values()) == 30
    assert {"ambush", "raid", "rally", "scout", "elite", "flank", "skirmish"} <= set(C.actions)
    assert any("*" in a.cancels for a in C.actions.values()) and any(a.defeats for a in C.actions.values())


def test_data_fourteen_lands_three_colours_values_one_to_six():
    lands = list(C.lands.values())
    assert len(lands) == 14 and {l.colour for l in lands} == {"red", "yellow", "blue"}
    assert min(l.value for l in lands) == 1 and max(l.value for l in lands) == 6
    assert sum(1 for l in lands if l.name == "Woodland" and l.value == 1) >= 2
    assert [l.name for l in lands if l.value == 6] == ["Olympus"]
