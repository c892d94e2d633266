"""Every play example and worked example of the rulebook, as a test."""
from shared.games.fate_of_akalon.combat_values import battlefield_values

from .helpers import act, act_events, arrange, cid, decision, fresh, moves, play, to_act


def fight_of(events):
    return next(e["data"] for e in events if e["type"] == "fight")


# ----- worked example: skirmish and first battle (Elf vs Orc) -------------------------------

ELF_TOP = [cid("elf", "Hunter"), cid("elf", "Archer"), cid("elf", "Wizard")]
ORC_TOP = [cid("orc", "Goblin"), cid("orc", "Battering Ram")]


def test_example_skirmish_hunter_beats_goblin_loser_chooses_attacker():
    st = fresh(["elf", "orc"], [ELF_TOP, ORC_TOP])
    assert st["zones"][0]["discard"] == [cid("elf", "Hunter")]
    assert st["zones"][1]["cemetery"] == [cid("orc", "Goblin")]
    assert st["zones"][0]["hand"] == [] and st["zones"][1]["hand"] == []  # no draw yet
    assert to_act(st) == [1]  # the Orc player lost the skirmish and chooses
    assert moves(st, 1) == [{"type": "choose_attacker", "seat": 0}, {"type": "choose_attacker", "seat": 1}]
    st = act(st, 1, {"type": "choose_attacker", "seat": 1})
    assert [len(z["hand"]) for z in st["zones"]] == [5, 5]  # both draw 5
    assert st["attacker"] == 1 and to_act(st) == [1]


def test_example_battle_ram_archer_wizard_elf_wins_and_attacks_next():
    st = fresh(["elf", "orc"], [ELF_TOP, ORC_TOP])
    st = act(st, 1, {"type": "choose_attacker", "seat": 1})
    # 1) Attack: the Battering Ram gets no -2, the Orcs are not defending
    st = play(st, 1, cid("orc", "Battering Ram"))
    assert len(st["zones"][1]["hand"]) == 4
    assert battlefield_values(st)[1] == 6
    # 2) Defend: the Archer allows another card to be played; the Wizard is played
    st = play(st, 0, cid("elf", "Archer"))
    assert {"type": "play", "card": cid("elf", "Wizard")} in moves(st, 0)
    assert {"type": "pass"} in moves(st, 0)
    st, events = act_events(st, 0, {"type": "play", "card": cid("elf", "Wizard")})
    assert len(st["zones"][0]["hand"]) == 3
    # 3) Fight: Orc 6, Elf 9 -> the Elf player wins
    assert battlefield_values(st) == [9, 6]
    assert fight_of(events)["totals"] == [9, 6] and fight_of(events)["winners"] == [0]
    assert decision(st) == {"seat": 0, "kind": "stack"}  # 4) Elf orders its victorious cards
    st = act(st, 0, {"type": "stack", "card": cid("elf", "Archer")})
    # Wizard placed last, so it is on top; the order never changes afterwards
    assert st["zones"][0]["discard"] == [cid("elf", "Wizard"), cid("elf", "Archer"), cid("elf", "Hunter")]
    assert st["zones"][1]["cemetery"] == [cid("orc", "Goblin"), cid("orc", "Battering Ram")]
    # 6) Orc cemetery value 7, Elf 0: keep playing; 7) nobody reinforces (hands 3 and 4)
    assert st["step"] == "play" and st["battle"]["n"] == 2
    assert [len(z["hand"]) for z in st["zones"]] == [3, 4]
    # 5) the Elf player won and becomes the next attacker
    assert st["attacker"] == 0 and to_act(st) == [0]


# ----- play examples --------------------------------------------------------------------------


def test_example_goblin_hobgoblin_then_tactician():
    st = arrange(["orc", "dwarf"], [[cid("orc", "Goblin"), cid("orc", "Hobgoblin"), cid("orc", "Grunt")],
                                    [cid("dwarf", "Tactician"), cid("dwarf", "Guard")]], attacker=0)
    st = play(st, 0, cid("orc", "Goblin"))
    # the Goblin allows only a Hobgoblin to be played
    assert moves(st, 0) == [{"type": "play", "card": cid("orc", "Hobgoblin")}, {"type": "pass"}]
    st = play(st, 0, cid("orc", "Hobgoblin"))
    assert battlefield_values(st)[0] == (1 + 3) + (4 + 3)  # both attack bonuses
    st, events = act_events(st, 1, {"type": "play", "card": cid("dwarf", "Tactician")})
    fight = fight_of(events)
    # the Hobgoblin stayed on the battlefield, but neither card keeps its attack bonus
    assert fight["values"] == {cid("orc", "Goblin"): 1, cid("orc", "Hobgoblin"): 4, cid("dwarf", "Tactician"): 3}
    assert fight["totals"] == [5, 3] and fight["winners"] == [0]


def test_example_card_played_after_tactician_has_no_text():
    st = arrange(["dwarf", "orc"], [[cid("dwarf", "Tactician")],
                                    [cid("orc", "Goblin"), cid("orc", "Hobgoblin")]], attacker=0)
    st = play(st, 0, cid("dwarf", "Tactician"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("orc", "Goblin")})
    # no offer to play a Hobgoblin: the Goblin is treated as if it had no card text
    assert not any(e["type"] == "push" and e["data"]["decision"]["kind"] == "effect" for e in events)
    assert fight_of(events)["totals"] == [3, 1]
    assert cid("orc", "Hobgoblin") in st["zones"][1]["hand"]


def _effect_offered(events) -> bool:
    return any(e["type"] == "push" and e["data"]["decision"]["kind"] == "effect" for e in events)


def test_example_1_any_opposing_card_played_after_the_tactician_is_treated_as_if_it_had_no_card_text():
    """Play example 1, last sentence, as written: a Kobold played after the Tactician has no
    card text, so its **Defeated** text is not offered either, although the Tactician has left
    the battlefield when Defeated texts resolve."""
    st = arrange(["dwarf", "orc"], [[cid("dwarf", "Tactician"), cid("dwarf", "Guard")],
                                    [cid("orc", "Kobold"), cid("orc", "Grunt")]], attacker=0)
    st = play(st, 0, cid("dwarf", "Tactician"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("orc", "Kobold")})
    assert fight_of(events)["winners"] == [0]
    assert not _effect_offered(events)
    assert not any(e["type"] == "triggered" for e in events)
    assert cid("orc", "Kobold") in st["zones"][1]["cemetery"]
    # the Dwarf won and attacks the next battle; the Kobold chose nothing
    assert st["battle"]["n"] == 2 and st["attacker"] == 0 and decision(st) == {"seat": 0, "kind": "play"}


def test_example_1_a_victorious_card_played_after_the_tactician_draws_nothing():
    """The same sentence for **Victorious**: the Lord wins, but it has no card text."""
    st = arrange(["dwarf", "elf"], [[cid("dwarf", "Tactician"), cid("dwarf", "Guard")],
                                    [cid("elf", "Lord"), cid("elf", "Scout")]], attacker=0)
    st = play(st, 0, cid("dwarf", "Tactician"))
    hand = len(st["zones"][1]["hand"])
    st, events = act_events(st, 1, {"type": "play", "card": cid("elf", "Lord")})
    assert fight_of(events)["winners"] == [1]
    assert len(st["zones"][1]["hand"]) == hand - 1  # played the Lord, drew no two cards
    assert not any(e["type"] == "draw" and e["data"].get("seat") == 1 for e in events)


def test_example_1_a_card_on_the_battlefield_before_the_tactician_keeps_its_defeated_text():
    """Its text was ignored only while the Tactician was on the battlefield (the Goblin and
    Hobgoblin lose their bonuses); its Defeated text resolves after every card has left."""
    st = arrange(["orc", "dwarf"], [[cid("orc", "Kobold"), cid("orc", "Grunt")],
                                    [cid("dwarf", "Tactician"), cid("dwarf", "Guard")]], attacker=0)
    st = play(st, 0, cid("orc", "Kobold"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("dwarf", "Tactician")})
    assert fight_of(events)["winners"] == [1]
    assert decision(st)["seat"] == 0 and _effect_offered(events)  # may choose itself to attack next


def test_example_1_a_cemetery_card_played_after_the_tactician_has_no_text_in_that_battle():
    """A Sylvan played after the Tactician and defeated: when its owner reinforces in the same
    battle it draws no extra card (it has no card text this battle)."""
    st = arrange(["dwarf", "elf"], [[cid("dwarf", "Tactician"), cid("dwarf", "Guard")],
                                    [cid("elf", "Sylvan")]], attacker=0)
    st = play(st, 0, cid("dwarf", "Tactician"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("elf", "Sylvan")})
    assert fight_of(events)["winners"] == [0]
    assert cid("elf", "Sylvan") in st["zones"][1]["cemetery"]
    assert len(st["zones"][1]["hand"]) == 5  # reinforced with 5, no extra card
    assert not any(e["type"] == "triggered" for e in events)


def test_example_ghoul_then_master_summoner_reveals_two_discards_both():
    wiz, arc = cid("elf", "Wizard"), cid("elf", "Archer")
    st = arrange(["undead", "elf"], [[cid("undead", "Ghoul"), cid("undead", "Mummy")],
                                     [cid("elf", "Master Summoner"), cid("elf", "Scout")]],
                 attacker=0, decks=[[], [wiz, arc]])
    st = play(st, 0, cid("undead", "Ghoul"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("elf", "Master Summoner")})
    reveal = next(e for e in events if e["type"] == "reveal")
    assert reveal["data"]["cards"] == [wiz, arc]  # both revealed, face up
    fight = fight_of(events)
    assert [e["card"] for e in fight["field"]] == [cid("undead", "Ghoul"), cid("elf", "Master Summoner")]
    assert wiz in st["zones"][1]["discard"] and arc in st["zones"][1]["discard"]  # then discarded


def test_example_master_summoner_without_limit_plays_one_discards_other():
    wiz, arc = cid("elf", "Wizard"), cid("elf", "Archer")
    st = arrange(["elf", "orc"], [[cid("elf", "Master Summoner"), cid("elf", "Scout")], [cid("orc", "Grunt")]],
                 attacker=0, decks=[[wiz, arc], []])
    st = play(st, 0, cid("elf", "Master Summoner"))
    assert moves(st, 0) == [{"type": "play", "card": wiz}, {"type": "play", "card": arc}]
    st = play(st, 0, wiz)
    assert st["zones"][0]["discard"] == [arc]
    assert [e["card"] for e in st["field"]] == [cid("elf", "Master Summoner"), wiz]


def test_example_vampire_opponent_without_cards_nothing_happens():
    st = arrange(["undead", "elf"], [[cid("undead", "Vampire")], []], attacker=0)
    st, events = act_events(st, 0, {"type": "play", "card": cid("undead", "Vampire")})
    assert not any(e["type"] == "move" and e["data"]["from"] == "hand" for e in events)
    assert fight_of(events)["totals"] == [5, 0]


def test_example_vampire_last_card_discarded_nothing_to_play():
    hunter = cid("elf", "Hunter")
    st = arrange(["undead", "elf"], [[cid("undead", "Vampire"), cid("undead", "Mummy")], [hunter]], attacker=0)
    st, events = act_events(st, 0, {"type": "play", "card": cid("undead", "Vampire")})
    discard = next(e for e in events if e["type"] == "move" and e["data"]["from"] == "hand")
    assert discard["data"] == {"seat": 1, "cards": [hunter], "from": "hand", "to": "discard"}
    fight = fight_of(events)  # the Elf had nothing left to play this battle
    assert fight["totals"] == [5, 0] and fight["winners"] == [0]
    assert hunter in st["zones"][1]["discard"]


def test_example_vampire_random_discard_is_public():
    from shared.games.fate_of_akalon import GAME

    hand = [cid("elf", "Hunter"), cid("elf", "Lord"), cid("elf", "Scout")]
    st = arrange(["undead", "elf"], [[cid("undead", "Vampire"), cid("undead", "Mummy")], hand], attacker=0)
    st, events = act_events(st, 0, {"type": "play", "card": cid("undead", "Vampire")})
    discard = next(e for e in events if e["type"] == "move" and e["data"]["from"] == "hand")
    assert discard["data"]["cards"][0] in hand
    assert GAME.redact(discard, 0)["data"]["cards"] == discard["data"]["cards"]  # the opponent sees it
    assert GAME.view(st, 0)["zones"][1]["discard"] == discard["data"]["cards"]
    assert GAME.view(st, 0)["zones"][1]["hand"] == {"count": 2}


def test_example_vampire_three_players_chooses_an_opponent():
    st = arrange(["undead", "elf", "dwarf"], [[cid("undead", "Vampire")], [cid("elf", "Hunter")],
                                              [cid("dwarf", "Guard"), cid("dwarf", "Miner")]], attacker=0)
    st = play(st, 0, cid("undead", "Vampire"))
    assert moves(st, 0) == [{"type": "target", "seat": 1}, {"type": "target", "seat": 2}]
    st, events = act_events(st, 0, {"type": "target", "seat": 2})
    discard = next(e for e in events if e["type"] == "move")
    assert discard["data"]["seat"] == 2 and len(st["zones"][2]["hand"]) == 1


def _hammer_kobold(use_kobold: bool):
    st = arrange(["dwarf", "orc", "elf"], [[cid("dwarf", "Hammer"), cid("dwarf", "Guard")],
                                           [cid("orc", "Kobold"), cid("orc", "Grunt")],
                                           [cid("elf", "Hunter"), cid("elf", "Scout")]], attacker=0)
    st = play(st, 0, cid("dwarf", "Hammer"))
    assert moves(st, 0) == [{"type": "target", "seat": 1}, {"type": "target", "seat": 2}]
    st = act(st, 0, {"type": "target", "seat": 2})  # the Hammer's choice is made when played
    assert st["battle"]["next"] == 2
    st = play(st, 1, cid("orc", "Kobold"))
    st = play(st, 2, cid("elf", "Hunter"))
    # Dwarf 4 beats Orc 2 and Elf 3; the defeated Kobold may choose its owner
    assert to_act(st) == [1] and moves(st, 1) == [{"type": "use"}, {"type": "pass"}]
    return act(st, 1, {"type": "use"} if use_kobold else {"type": "pass"})


def test_example_hammer_then_kobold_last_effect_wins():
    st = _hammer_kobold(True)
    assert st["battle"]["n"] == 2 and st["attacker"] == 1


def test_example_hammer_alone_decides_next_attacker():
    st = _hammer_kobold(False)
    assert st["battle"]["n"] == 2 and st["attacker"] == 2  # overrides the Dwarf's own win


# ----- 3-player and 4-player worked examples ----------------------------------------------


def test_example_three_players_dwarf_8_beats_orc_6_and_elf_3():
    st = arrange(["orc", "elf", "dwarf"], [[cid("orc", "Grunt"), cid("orc", "Raider")],
                                           [cid("elf", "Hunter"), cid("elf", "Scout")],
                                           [cid("dwarf", "King"), cid("dwarf", "Guard")]], attacker=0)
    assert to_act(st) == [0]
    st = play(st, 0, cid("orc", "Grunt"))
    assert to_act(st) == [1]  # clockwise from the attacker
    st = play(st, 1, cid("elf", "Hunter"))
    assert to_act(st) == [2]
    st = play(st, 2, cid("dwarf", "King"))
    st, events = act_events(st, 2, {"type": "pass"})  # the King's "You may play a Warrior card"
    fight = fight_of(events)
    assert fight["totals"] == [5 + 1, 3, 8] and fight["winners"] == [2] and fight["losers"] == [0, 1]
    assert st["attacker"] == 2  # the Dwarf becomes the next attacker
    assert st["zones"][0]["cemetery"] == [cid("orc", "Grunt")]
    assert st["zones"][1]["cemetery"] == [cid("elf", "Hunter")]
    assert st["zones"][2]["discard"][0] == cid("dwarf", "King")


def test_example_four_players_defenders_11_beat_attackers_10_lead_rotates_to_elf():
    st = arrange(["orc", "elf", "undead", "dwarf"],
                 [[cid("orc", "Grunt"), cid("orc", "Raider")], [cid("elf", "Hunter"), cid("elf", "Scout")],
                  [cid("undead", "Mummy"), cid("undead", "Ghoul")], [cid("dwarf", "King"), cid("dwarf", "Guard")]],
                 attacker=0)
    for seat, name in [(0, "Grunt"), (1, "Hunter"), (2, "Mummy")]:
        assert to_act(st) == [seat]
        st = play(st, seat, cid(st["factions"][seat], name))
    st = play(st, 3, cid("dwarf", "King"))
    st, events = act_events(st, 3, {"type": "pass"})  # the King's "You may play a Warrior card"
    fight = fight_of(events)
    assert fight["totals"] == [6, 3, 4, 8]  # attackers 6 + 4 = 10, defenders 3 + 8 = 11
    assert fight["winners"] == [1, 3] and fight["losers"] == [0, 2]
    assert st["attacker"] == 1  # the lead attack passes to the player left of the lead: the Elf


def test_example_master_summoner_revealed_cards_are_public():
    from shared.games.fate_of_akalon import GAME

    wiz, arc = cid("elf", "Wizard"), cid("elf", "Archer")
    st = arrange(["elf", "orc"], [[cid("elf", "Master Summoner"), cid("elf", "Scout")], [cid("orc", "Grunt")]],
                 attacker=0, decks=[[wiz, arc], []])
    st, events = act_events(st, 0, {"type": "play", "card": cid("elf", "Master Summoner")})
    reveal = next(e for e in events if e["type"] == "reveal")
    for viewer in (1, None):
        assert GAME.redact(reveal, viewer)["data"]["cards"] == [wiz, arc]
        assert GAME.view(st, viewer)["zones"][0]["revealed"] == [wiz, arc]
    assert GAME.view(st, 1)["zones"][0]["hand"] == {"count": 1}


def test_example_goblin_without_hobgoblin_still_asks_so_the_hand_stays_secret():
    st = arrange(["orc", "dwarf"], [[cid("orc", "Goblin"), cid("orc", "Grunt")], [cid("dwarf", "Guard")]],
                 attacker=0)
    st = play(st, 0, cid("orc", "Goblin"))
    assert to_act(st) == [0] and moves(st, 0) == [{"type": "pass"}]
