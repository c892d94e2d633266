"""The component data: counts from the rulebook, sources per entry, the icon vocabulary in use."""
import json

import pytest

from shared.games.fellowships_of_fate import content as content_module
from shared.games.fellowships_of_fate.content import DATA, ICONS

from .helpers import C


def _entries():
    for name, key in [("members.json", "members"), ("adventures.json", "adventures"),
                      ("relics.json", "relics"), ("journals.json", "journals")]:
        for entry in json.loads((DATA / name).read_text())[key]:
            yield name, entry


def test_content_counts_match_the_rulebook():
    assert len(C.member_order) == 9
    assert len(C.adventures) == 32
    assert len(C.level1) == 8 and len(C.level2) == 22
    assert len(C.journal_pages) == 5 and len(C.colours) == 5
    assert C.level1_by_players == {2: 3, 3: 4, 4: 6, 5: 7}
    assert (C.rounds, C.hand_size, C.field_size) == (4, 4, 4)


def test_content_every_entry_has_a_source():
    for name, entry in _entries():
        assert entry.get("source") in ("rulebook", "public", "house"), (name, entry)


def test_content_rulebook_facts():
    warrior = C.members["warrior"]
    assert warrior.nameless == ("strength", "strength")
    assert warrior.legendary == ("strength", "strength", "overcome")
    assert C.members["magician"].nameless == ("mana", "mana")
    assert C.members["werewolf"].legendary == ("wild", "strength", "strength")
    assert C.members["cleric"].holy_shield
    assert C.members["traveler_of_fate"].nameless == ("interrupt_all",)
    assert C.members["traveler_of_fate"].legendary == ("sun",)
    assert C.adventures["lurking_coyote"].cost == {"strength": 3}
    assert C.adventures["lurking_coyote"].icon == "compass"
    dragonslayer = C.relics["the_dragonslayer"]
    assert (dragonslayer.level, dragonslayer.ability, dragonslayer.member) == (1, "legendary", "warrior")
    assert C.adventures["mythical_beast"].member is not None


def test_content_adventure_vp_grows_with_cost():
    compass = [a for a in C.adventures.values() if a.icon == "compass" and a.vp is not None]
    for a in compass:
        for b in compass:
            if sum(a.cost.values()) < sum(b.cost.values()):
                assert a.vp < b.vp, (a.id, b.id)


def test_content_uses_every_icon_of_the_vocabulary():
    used = set()
    rows = [m.nameless + m.legendary for m in C.members.values()]
    rows += [a.ability for a in C.adventures.values()] + [r.icons for r in C.relics.values()]
    for row in rows:
        for icon in row:
            used.add(icon if isinstance(icon, str) else next(iter(icon)))
    assert used == set(ICONS) | {"cost", "kind"}
    assert {a.icon for a in C.adventures.values()} == {"compass", "sun"}


def test_content_rejects_unknown_icons():
    with pytest.raises(ValueError):
        content_module._icons(["fireball"])
    with pytest.raises(ValueError):
        content_module._icons([{"kind": ["strength"]}])
    with pytest.raises(ValueError):
        content_module._icons([{"cost": {"gold": 1}}])


def _icon_count(row) -> int:
    """Icons printed in an ability row (a Token-of-a-kind box counts its wild icons)."""
    return sum(len(icon["kind"]) if isinstance(icon, dict) and "kind" in icon else 1 for icon in row)


def test_content_house_figures_quoted_in_notes():
    """The house-content figures NOTES.md quotes ("House content") hold for the data."""
    sun = [a for a in C.adventures.values() if a.icon == "sun"]
    compass = [a for a in C.adventures.values() if a.icon == "compass" and a.vp is not None]
    assert len(sun) == 7 and len(compass) == 24
    assert {a.vp for a in sun} == {1, 2, 3}
    assert min(_icon_count(a.ability) for a in sun) == 0 and max(_icon_count(a.ability) for a in sun) == 3
    assert {sum(a.cost.values()) for a in compass} == {3, 4, 5, 6, 7}
    assert {a.vp for a in compass} == {2, 3, 4, 5, 6}
    level2 = [C.relics[r].vp for r in C.level2]
    assert (level2.count(1), level2.count(2), level2.count(3)) == (8, 9, 5)
    assert [m for m in C.member_order if not any(C.relics[r].member == m for r in C.level1)] == ["tactician"]
    assert set(C.journal_pages.values()) == {1}
