"""House cards (and the rulebook cards' authored texts): every text can matter.

For every effect of every card (each sentence of its text, e.g. both halves of the Orc
Warlord) a scenario reaches, by legal moves only, a battle where that effect changes the
result. A scenario starts from a real ``setup`` event with chosen deck orders (the skirmish
card, then the five cards drawn, then the rest of the deck), then plays scripted moves through
``decide``. It is played twice: as printed, and with that one effect struck from the card; the
named part of the result must differ:

* ``winners`` — the winners of every battle fought;
* ``attacker`` — who attacks the battle after;
* ``hands`` — the number of cards in each hand;
* ``cemetery`` — each cemetery's value;
* ``out`` — the out-of-play areas.

Script lines are ``"<seat> <move> [<card name or seat>]"``; a line starting with ``?`` is played
only when it is legal (the move the struck text would have allowed or forbidden).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from shared.games.fate_of_akalon import GAME, content
from shared.games.fate_of_akalon.content import CARDS, by_name, total_value
from shared.rng import FastRng

from .helpers import fresh


@dataclass
class Scenario:
    faction: str
    name: str
    effects: dict[int, str]  # effect index -> the part of the result it changes
    factions: list[str]
    tops: list[list[str]]  # per seat: skirmish card, five cards drawn, more deck cards
    script: list[str]

    @property
    def key(self) -> str:
        return by_name(self.faction, self.name)


def S(faction, name, effects, factions, tops, *script):
    return Scenario(faction, name, effects, factions, tops, list(script))


W, A, H, C, O = "winners", "attacker", "hands", "cemetery", "out"
OE, OD, DE, EO, UE, ED = (["orc", "elf"], ["orc", "dwarf"], ["dwarf", "elf"], ["elf", "orc"], ["undead", "elf"],
                          ["elf", "dwarf"])

SCENARIOS = [
    # ----- Orc ------------------------------------------------------------------------------
    S("orc", "Goblin", {0: W, 1: W}, OE,
      [["Kobold", "Goblin", "Hobgoblin", "Grunt", "Grunt", "Raider"],
       ["Ranger", "Lord", "Scout", "Scout", "Sentinel", "Sentinel"]],
      "0 choose 0", "0 play Goblin", "? 0 play Hobgoblin", "1 play Lord", "? 0 stack Goblin"),
    S("orc", "Hobgoblin", {0: W}, OE,
      [["Kobold", "Hobgoblin", "Grunt", "Grunt", "Raider", "Raider"],
       ["Ranger", "Sentinel", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 0", "0 play Hobgoblin", "1 play Sentinel"),
    S("orc", "Kobold", {0: A}, OE,
      [["Goblin", "Kobold", "Grunt", "Grunt", "Raider", "Raider"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Ranger", "0 play Kobold", "? 0 use"),
    S("orc", "Battering Ram", {0: W}, OE,
      [["Kobold", "Battering Ram", "Grunt", "Grunt", "Raider", "Raider"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Ranger", "0 play Battering Ram"),
    S("orc", "Grunt", {0: W}, OE,
      [["Kobold", "Grunt", "Raider", "Raider", "Kobold", "Kobold"],
       ["Ranger", "Sentinel", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 0", "0 play Grunt", "1 play Sentinel"),
    S("orc", "Berserker", {0: W}, OE,
      [["Kobold", "Berserker", "Raider", "Raider", "Kobold", "Kobold"],
       ["Ranger", "Sentinel", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 0", "0 play Berserker", "1 play Sentinel"),
    S("orc", "Berserker", {1: W}, OE,
      [["Kobold", "Berserker", "Raider", "Raider", "Kobold", "Kobold"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Ranger", "0 play Berserker"),
    S("orc", "War Drummer", {0: W}, OE,
      [["Kobold", "Shaman", "War Drummer", "Grunt", "Grunt", "Raider"],
       ["Ranger", "Hunter", "Scout", "Scout", "Sentinel", "Sentinel"]],
      "0 choose 0", "0 play Shaman", "0 play War Drummer", "1 play Hunter", "? 0 stack Shaman",
      "? 0 resolve Shaman"),
    S("orc", "War Drummer", {1: H}, OE,
      [["Kobold", "War Drummer", "Grunt", "Grunt", "Raider", "Raider"],
       ["Ranger", "Scout", "Hunter", "Hunter", "Sentinel", "Sentinel"]],
      "0 choose 0", "0 play War Drummer", "1 play Scout"),
    S("orc", "Raider", {0: H}, OE,
      [["Kobold", "Raider", "Grunt", "Grunt", "Kobold", "Kobold"],
       ["Hunter", "Ranger", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Raider", "1 play Ranger"),
    S("orc", "Warlord", {0: W, 1: W}, OE,
      [["Goblin", "Warlord", "Kobold", "Grunt", "Grunt", "Raider"],
       ["Ranger", "Archer", "Elder", "Scout", "Scout", "Hunter"]],
      "0 choose 1", "1 play Archer", "1 play Elder", "0 play Warlord", "? 0 play Kobold",
      "? 0 stack Warlord", "? 0 pass"),
    S("orc", "Warlord", {2: W}, OE,
      [["Kobold", "Warlord", "Grunt", "Grunt", "Raider", "Ogre"],
       ["Ranger", "Archer", "Lord", "Scout", "Scout", "Hunter"]],
      "0 choose 0", "0 play Warlord", "0 pass", "1 play Archer", "? 1 play Lord", "? 1 stack Lord"),
    S("orc", "Ogre", {0: W}, OE,
      [["Kobold", "Ogre", "Grunt", "Grunt", "Raider", "Raider"],
       ["Ranger", "Lord", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 0", "0 play Ogre", "1 play Lord"),
    S("orc", "Shaman", {0: W, 1: H}, OE,
      [["Kobold", "Shaman", "Hobgoblin", "Grunt", "Grunt", "Raider"],
       ["Ranger", "Sentinel", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 0", "0 play Shaman", "? 0 play Hobgoblin", "1 play Sentinel", "? 0 stack Shaman"),
    # ----- Dwarf ----------------------------------------------------------------------------
    S("dwarf", "Tactician", {0: W}, ["dwarf", "orc"],
      [["Stone Wall", "Tactician", "Guard", "Guard", "Miner", "Miner"],
       ["Grunt", "Goblin", "Raider", "Raider", "Grunt", "Grunt"]],
      "0 choose 1", "1 play Goblin", "1 pass", "0 play Tactician"),
    S("dwarf", "Hammer", {0: A}, DE,
      [["Stone Wall", "Hammer", "Guard", "Guard", "Miner", "Miner"],
       ["Ranger", "Scout", "Scout", "Hunter", "Hunter", "Ranger"]],
      "0 choose 0", "0 play Hammer", "1 play Scout"),
    S("dwarf", "Shieldbearer", {0: W}, DE,
      [["Stone Wall", "Shieldbearer", "Guard", "Guard", "Miner", "Miner"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Ranger", "0 play Shieldbearer"),
    S("dwarf", "Stone Wall", {0: W}, DE,
      [["Miner", "Stone Wall", "Guard", "Guard", "Miner", "Miner"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Ranger", "0 play Stone Wall"),
    S("dwarf", "Guard", {0: W}, DE,
      [["Stone Wall", "Guard", "Miner", "Miner", "Miner", "Brewer"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Ranger", "0 play Guard"),
    S("dwarf", "Miner", {0: H}, DE,
      [["Stone Wall", "Miner", "Guard", "Guard", "Miner", "Miner"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Ranger", "0 play Miner"),
    S("dwarf", "Ironbreaker", {0: W}, DE,
      [["Stone Wall", "Ironbreaker", "Guard", "Guard", "Miner", "Miner"],
       ["Ranger", "Archer", "Ranger", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Archer", "1 play Ranger", "0 play Ironbreaker"),
    S("dwarf", "Runesmith", {0: W, 1: W}, DE,
      [["Stone Wall", "Runesmith", "Guard", "Miner", "Miner", "Miner"],
       ["Ranger", "Archer", "Archer", "Lord", "Scout", "Scout"]],
      "0 choose 1", "1 play Archer", "1 play Archer", "1 play Lord", "0 play Runesmith", "? 0 play Guard"),
    S("dwarf", "Crossbowman", {0: W}, DE,
      [["Stone Wall", "Crossbowman", "Guard", "Guard", "Miner", "Miner"],
       ["Ranger", "Hunter", "Scout", "Scout", "Ranger", "Ranger"]],
      "0 choose 1", "1 play Hunter", "0 play Crossbowman"),
    S("dwarf", "Brewer", {0: W}, DE,
      [["Stone Wall", "Brewer", "Guard", "Miner", "Miner", "Miner"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Ranger", "0 play Brewer", "? 0 play Guard", "? 0 stack Guard"),
    S("dwarf", "King", {0: W, 1: W}, DE,
      [["Stone Wall", "King", "Shieldbearer", "Miner", "Miner", "Miner"],
       ["Ranger", "Archer", "Archer", "Archer", "Lord", "Scout"]],
      "0 choose 1", "1 play Archer", "1 play Archer", "1 play Archer", "1 play Lord", "0 play King",
      "? 0 play Shieldbearer"),
    S("dwarf", "Gatekeeper", {0: W}, DE,
      [["Stone Wall", "Gatekeeper", "Guard", "Guard", "Miner", "Miner"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 1", "1 play Ranger", "0 play Gatekeeper"),
    S("dwarf", "Gatekeeper", {1: W}, DE,
      [["Stone Wall", "Gatekeeper", "Guard", "Guard", "Miner", "Miner"],
       ["Ranger", "Ranger", "Scout", "Scout", "Hunter", "Hunter"]],
      "0 choose 0", "0 play Gatekeeper", "1 play Ranger"),
    # ----- Elf ------------------------------------------------------------------------------
    S("elf", "Hunter", {0: H}, EO,
      [["Trickster", "Hunter", "Ranger", "Ranger", "Scout", "Scout"],
       ["Grunt", "Kobold", "Grunt", "Grunt", "Raider", "Raider"]],
      "0 choose 0", "0 play Hunter", "1 play Kobold", "1 pass"),
    S("elf", "Archer", {0: W}, EO,
      [["Trickster", "Archer", "Lord", "Ranger", "Scout", "Scout"],
       ["Grunt", "Grunt", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 0", "0 play Archer", "? 0 play Lord", "1 play Grunt", "? 0 stack Archer"),
    S("elf", "Wizard", {0: W}, EO,
      [["Trickster", "Wizard", "Ranger", "Ranger", "Scout", "Scout"],
       ["Grunt", "Warlord", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 0", "0 play Wizard", "1 play Warlord", "1 pass"),
    S("elf", "Sylvan", {0: H}, EO,
      [["Sylvan", "Archer", "Archer", "Archer", "Sentinel", "Scout"],
       ["Grunt", "Grunt", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 0", "0 play Archer", "0 play Archer", "0 play Archer", "0 play Sentinel", "1 play Grunt",
      "0 stack Sentinel", "0 play Scout", "1 play Grunt"),
    S("elf", "Master Summoner", {0: W}, EO,
      [["Trickster", "Master Summoner", "Ranger", "Ranger", "Scout", "Scout", "Lord", "Hunter"],
       ["Grunt", "Ogre", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 0", "0 play Master Summoner", "? 0 play Lord", "1 play Ogre", "? 0 stack Lord"),
    S("elf", "Druid", {0: W}, EO,
      [["Lord", "Druid", "Ranger", "Ranger", "Scout", "Scout"],
       ["Kobold", "Grunt", "Grunt", "Raider", "Raider", "Kobold"]],
      "1 choose 0", "0 play Druid", "? 0 play Lord", "1 play Grunt", "? 0 stack Lord"),
    S("elf", "Scout", {0: H}, EO,
      [["Trickster", "Scout", "Ranger", "Ranger", "Hunter", "Hunter"],
       ["Grunt", "Grunt", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 0", "0 play Scout", "1 play Grunt"),
    S("elf", "Sentinel", {0: W}, EO,
      [["Trickster", "Sentinel", "Ranger", "Ranger", "Scout", "Scout"],
       ["Grunt", "Grunt", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 1", "1 play Grunt", "0 play Sentinel"),
    S("elf", "Enchantress", {0: W}, EO,
      [["Trickster", "Enchantress", "Lord", "Ranger", "Scout", "Scout"],
       ["Grunt", "Grunt", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 1", "1 play Grunt", "0 play Enchantress", "? 0 play Lord", "? 0 stack Lord"),
    S("elf", "Ranger", {0: W}, EO,
      [["Trickster", "Ranger", "Ranger", "Ranger", "Scout", "Scout"],
       ["Goblin", "Grunt", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 0", "0 play Ranger", "1 play Grunt"),
    S("elf", "Elder", {0: W}, ED,
      [["Trickster", "Archer", "Elder", "Ranger", "Scout", "Scout"],
       ["Guard", "King", "Miner", "Miner", "Miner", "Brewer"]],
      "0 choose 0", "0 play Archer", "0 play Elder", "1 play King", "1 pass", "? 0 stack Archer"),
    S("elf", "Lord", {0: H}, EO,
      [["Trickster", "Lord", "Ranger", "Ranger", "Scout", "Scout"],
       ["Goblin", "Grunt", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 0", "0 play Lord", "1 play Grunt"),
    S("elf", "Trickster", {0: W}, EO,
      [["Sylvan", "Trickster", "Lord", "Ranger", "Scout", "Scout"],
       ["Grunt", "Grunt", "Grunt", "Raider", "Raider", "Kobold"]],
      "0 choose 1", "1 play Grunt", "0 play Trickster", "? 0 play Lord", "? 0 stack Lord"),
    # ----- Undead ---------------------------------------------------------------------------
    S("undead", "Ghoul", {0: W}, UE,
      [["Ghost", "Ghoul", "Mummy", "Mummy", "Mummy", "Skeleton"],
       ["Ranger", "Archer", "Lord", "Scout", "Scout", "Hunter"]],
      "0 choose 0", "0 play Ghoul", "1 play Archer", "? 1 play Lord", "? 1 stack Lord"),
    S("undead", "Vampire", {0: H}, UE,
      [["Ghost", "Vampire", "Mummy", "Mummy", "Mummy", "Skeleton"],
       ["Hunter", "Ranger", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Vampire", "1 play Ranger"),
    S("undead", "Skeleton", {0: C}, UE,
      [["Ghost", "Skeleton", "Mummy", "Mummy", "Mummy", "Ghoul"],
       ["Hunter", "Ranger", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 1", "1 play Ranger", "0 play Skeleton"),
    S("undead", "Zombie", {0: C}, UE,
      [["Zombie", "Death Knight", "Death Knight", "Mummy", "Mummy", "Mummy"],
       ["Hunter", "Ranger", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Death Knight", "1 play Ranger", "0 play Death Knight", "1 play Ranger",
      "0 play Mummy", "1 play Ranger", "0 play Mummy", "1 play Ranger", "0 play Mummy", "1 play Sentinel"),
    S("undead", "Necromancer", {0: C}, UE,
      [["Mummy", "Necromancer", "Mummy", "Mummy", "Ghoul", "Ghoul"],
       ["Sentinel", "Ranger", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Necromancer", "? 0 recover Mummy", "1 play Ranger"),
    S("undead", "Wraith", {0: O}, UE,
      [["Ghost", "Wraith", "Mummy", "Mummy", "Mummy", "Ghoul"],
       ["Hunter", "Archer", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 1", "1 play Archer", "1 play Ranger", "0 play Wraith", "1 stack Archer"),
    S("undead", "Ghost", {0: W}, UE,
      [["Skeleton", "Ghost", "Mummy", "Mummy", "Mummy", "Ghoul"],
       ["Hunter", "Sylvan", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Ghost", "1 play Sylvan"),
    S("undead", "Ghast", {0: W}, UE,
      [["Ghost", "Ghast", "Mummy", "Mummy", "Mummy", "Ghoul"],
       ["Hunter", "Ranger", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 1", "1 play Ranger", "0 play Ghast"),
    S("undead", "Banshee", {0: W}, UE,
      [["Ghost", "Banshee", "Mummy", "Mummy", "Mummy", "Ghoul"],
       ["Ranger", "Hunter", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Banshee", "1 play Hunter"),
    S("undead", "Lich", {0: W}, UE,
      [["Skeleton", "Lich", "Mummy", "Mummy", "Mummy", "Ghoul"],
       ["Ranger", "Wizard", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Lich", "1 play Wizard"),
    S("undead", "Bone Golem", {0: W}, UE,
      [["Ghost", "Bone Golem", "Mummy", "Mummy", "Mummy", "Ghoul"],
       ["Hunter", "Wizard", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Bone Golem", "1 play Wizard"),
    S("undead", "Mummy", {0: W}, UE,
      [["Ghost", "Mummy", "Mummy", "Mummy", "Ghoul", "Ghoul"],
       ["Hunter", "Ranger", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 1", "1 play Ranger", "0 play Mummy"),
    S("undead", "Death Knight", {0: W}, UE,
      [["Ghost", "Death Knight", "Mummy", "Mummy", "Ghoul", "Ghoul"],
       ["Hunter", "Wizard", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Death Knight", "1 play Wizard"),
    S("undead", "Gravedigger", {0: C}, UE,
      [["Mummy", "Gravedigger", "Mummy", "Mummy", "Ghoul", "Ghoul"],
       ["Sentinel", "Sylvan", "Ranger", "Ranger", "Ranger", "Sentinel"]],
      "0 choose 0", "0 play Gravedigger", "1 play Sylvan", "? 0 recover Mummy"),
]

MOVE_TYPES = {"choose": "choose_attacker"}


def _instance_ids(faction: str, names: list[str]) -> list[str]:
    copies: dict[str, int] = {}
    out = []
    for name in names:
        key = by_name(faction, name)
        copies[key] = copies.get(key, 0) + 1
        assert copies[key] <= CARDS[key].frequency, f"{faction} has only {CARDS[key].frequency} {name}"
        out.append(f"{key}#{copies[key]}")
    return out


def _find(state: dict, seat: int, word: str, arg: str | None) -> dict | None:
    for move in GAME.legal_moves(state, seat):
        if move["type"] != MOVE_TYPES.get(word, word):
            continue
        if arg is None or ("card" in move and content.card(move["card"]).name == arg) or (
                "seat" in move and str(move["seat"]) == arg):
            return move
    return None


def _at_rest(state: dict) -> bool:
    """Between battles: the game is over, or a new battle waits for its first card."""
    if GAME.outcome(state) is not None:
        return True
    return not state["field"] and bool(state["pending"]) and state["pending"][-1]["kind"] == "play"


def _result(state: dict, fights: list[dict]) -> dict:
    return {
        W: [f["winners"] for f in fights],
        A: state["battle"]["attacker"] if GAME.outcome(state) is None else None,
        H: [len(z["hand"]) for z in state["zones"]],
        C: [total_value(z["cemetery"]) for z in state["zones"]],
        O: [sorted(z["out"]) for z in state["zones"]],
    }


def play_scenario(sc: Scenario, struck: bool = False, battles: int | None = None) -> tuple[dict, int]:
    """The result of ``sc`` and the number of battles fought; with ``struck`` the script's
    illegal lines are skipped and the battle in progress is finished (passing where allowed)."""
    state = fresh(sc.factions, [_instance_ids(f, t) for f, t in zip(sc.factions, sc.tops)])
    fights: list[dict] = []

    def post(seat: int, move: dict) -> None:
        nonlocal state
        events = GAME.decide(state, seat, move, FastRng(len(fights)))
        fights.extend(e["data"] for e in events if e["type"] == "fight")
        state = GAME.fold(events, state)

    for line in sc.script:
        optional = line.startswith("?")
        seat, word, *arg = line.lstrip("? ").split(maxsplit=2)
        move = _find(state, int(seat), word, arg[0] if arg else None)
        if move is None:
            assert optional or struck, f"{sc.name}: {line!r} is not legal"
            continue
        post(int(seat), move)
    if struck:
        for _ in range(40):
            if _at_rest(state) and len(fights) >= battles:
                break
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_moves(state, seat)
            post(seat, {"type": "pass"} if {"type": "pass"} in legal else legal[0])
    assert _at_rest(state), f"{sc.name}: the scenario must end between two battles"
    return _result(state, fights), len(fights)


def _strike(monkeypatch, key: str, index: int) -> None:
    """Remove effect ``index`` from card ``key`` (every copy) for this test."""
    d = CARDS[key]
    struck = replace(d, effects=tuple(fx for i, fx in enumerate(d.effects) if i != index))
    for cid in list(content._BY_ID):
        if content._BY_ID[cid].key == key:
            monkeypatch.setitem(content._BY_ID, cid, struck)


CASES = [(sc, index) for sc in SCENARIOS for index in sc.effects]


def test_house_cards_every_effect_of_every_card_has_a_scenario():
    covered = {(sc.key, index) for sc, index in CASES}
    every = {(d.key, i) for d in CARDS.values() for i in range(len(d.effects))}
    assert every - covered == set()
    assert covered - every == set()


@pytest.mark.parametrize("sc,index", CASES, ids=[f"{sc.faction}-{sc.name}-{i}" for sc, i in CASES])
def test_house_cards_every_card_text_can_change_the_result(monkeypatch, sc, index):
    """Issue 12: no card text is dead (Dwarf King and Runesmith, the Orc Warlord's first half)."""
    printed, battles = play_scenario(sc)
    _strike(monkeypatch, sc.key, index)
    struck, _ = play_scenario(sc, struck=True, battles=battles)
    part = sc.effects[index]
    assert printed[part] != struck[part], (sc.name, index, part, printed, struck)
