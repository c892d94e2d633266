"""The basic (2-player) rules, one test per clause."""
import pytest

from shared.games.fate_of_akalon import GAME
from shared.games.fate_of_akalon.content import DECKS, total_value
from shared.games.fate_of_akalon.combat_values import battlefield_values, card_values

from .helpers import act, act_events, arrange, cid, decision, fresh, moves, play, skirmish_events, to_act


def fight_of(events):
    return next(e["data"] for e in events if e["type"] == "fight")


# ----- setup --------------------------------------------------------------------------------


def test_rule_setup_factions_chosen_per_seat_and_random_when_unset():
    from shared.rng import FastRng

    opts = GAME.validate_options(2, {"factions": ["undead", None]})
    st = GAME.fold(GAME.setup(2, opts, FastRng(1)))
    assert st["factions"][0] == "undead" and st["factions"][1] in ("elf", "dwarf", "orc")
    seen = set()
    for seed in range(30):
        st = GAME.fold(GAME.setup(2, GAME.validate_options(2, {}), FastRng(seed)))
        assert len(set(st["factions"])) == 2
        seen.update(st["factions"])
    assert seen == {"elf", "dwarf", "orc", "undead"}


@pytest.mark.parametrize("factions, reason", [
    (["orc", "orc"], "each faction deck exists once: two seats cannot choose the same faction"),
    (["orc"], "factions lists 1 seats for 2 players"),
])
def test_rule_setup_bad_faction_choices_say_why(factions, reason):
    """Player Setup: each player chooses a faction deck (one deck per faction): the refusal names
    the reason."""
    with pytest.raises(ValueError) as refused:
        GAME.validate_options(2, {"factions": factions})
    assert str(refused.value) == reason


@pytest.mark.parametrize("factions", [["orc", "orc"], ["orc"], ["orc", "gnome"]])
def test_rule_setup_rejects_bad_faction_choices(factions):
    with pytest.raises(ValueError):
        GAME.validate_options(2, {"factions": factions})


def test_rule_setup_each_player_has_own_areas_deck_shuffled_no_draw():
    st = fresh(["elf", "dwarf"])
    for s, z in enumerate(st["zones"]):
        assert set(z) == {"deck", "hand", "discard", "cemetery", "out", "revealed"}
        assert z["hand"] == []
        everything = z["deck"] + z["discard"] + z["cemetery"] + [e["card"] for e in st["field"] if e["seat"] == s]
        assert sorted(everything) == sorted(DECKS[st["factions"][s]])


def test_rule_setup_deck_order_is_secret():
    from shared.rng import FastRng

    events = GAME.setup(2, GAME.validate_options(2, {}), FastRng(3))
    setup = events[0]
    assert "decks" in setup["secret"] and "decks" not in setup["data"]
    for seat in (0, 1, None):
        assert "decks" not in GAME.redact(setup, seat)["data"]


# ----- skirmish -----------------------------------------------------------------------------


def test_rule_skirmish_ignores_card_text():
    # a Stone Wall would be 5 when defending; in the skirmish it is just 0
    st = fresh(["dwarf", "orc"], [[cid("dwarf", "Stone Wall")], [cid("orc", "Goblin")]])
    assert st["zones"][1]["discard"] == [cid("orc", "Goblin")]
    assert st["zones"][0]["cemetery"] == [cid("dwarf", "Stone Wall")]
    assert to_act(st) == [0]


def test_rule_skirmish_tie_discards_and_skirmishes_again():
    st = fresh(["elf", "orc"], [[cid("elf", "Hunter"), cid("elf", "Lord")],
                                [cid("orc", "War Drummer"), cid("orc", "Grunt")]])
    assert st["zones"][0]["discard"] == [cid("elf", "Lord"), cid("elf", "Hunter")]
    assert st["zones"][1]["discard"] == [cid("orc", "War Drummer")]
    assert st["zones"][1]["cemetery"] == [cid("orc", "Grunt")]
    assert to_act(st) == [1]


def test_rule_skirmish_the_loser_is_asked_to_choose_the_first_attacker():
    """Skirmish 3: "Loser of the skirmish decides which player is the first attacker": the game
    waits in the ``attacker`` step for the loser alone, and the log says so."""
    events = skirmish_events(["dwarf", "orc"], [[cid("dwarf", "Stone Wall")], [cid("orc", "Goblin")]])
    assert [(e["type"], e["data"]) for e in events[-2:]] == [
        ("step", {"step": "attacker", "skirmish": []}),
        ("push", {"decision": {"seat": 0, "seats": [0], "kind": "attacker"}}),
    ]
    st = GAME.fold(events)
    assert st["step"] == "attacker" and st["skirmish"] == []
    assert set(st) == {"players", "factions", "teams", "zones", "alive", "left", "step", "skirmish", "attacker",
                       "field", "battle", "battles", "queue", "rounds", "pending", "result"}
    assert st["attacker"] is None and st["battle"] is None and st["result"] is None  # no battle yet
    assert st["pending"] == [{"seat": 0, "seats": [0], "kind": "attacker"}]
    assert GAME.view(st, 1)["step"] == "attacker"


def test_rule_skirmish_then_both_draw_five():
    st = fresh(["elf", "orc"])
    loser = to_act(st)[0]
    st = act(st, loser, {"type": "choose_attacker", "seat": 1 - loser})
    assert [len(z["hand"]) for z in st["zones"]] == [5, 5]
    assert st["attacker"] == 1 - loser and to_act(st) == [1 - loser]


# ----- battle steps ---------------------------------------------------------------------------


def test_rule_attack_then_defend_one_card_each():
    st = arrange(["orc", "elf"], [[cid("orc", "Grunt"), cid("orc", "Raider")],
                                  [cid("elf", "Sentinel"), cid("elf", "Ranger")]], attacker=0)
    assert to_act(st) == [0] and moves(st, 1) == []
    st = play(st, 0, cid("orc", "Grunt"))
    assert to_act(st) == [1] and moves(st, 0) == []
    assert moves(st, 1) == [{"type": "play", "card": cid("elf", "Sentinel")},
                            {"type": "play", "card": cid("elf", "Ranger")}]


def test_rule_fight_defender_wins_and_becomes_attacker():
    st = arrange(["orc", "elf"], [[cid("orc", "War Drummer"), cid("orc", "Grunt")],
                                  [cid("elf", "Sentinel"), cid("elf", "Ranger")]], attacker=0)
    st = play(st, 0, cid("orc", "War Drummer"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("elf", "Sentinel")})
    assert fight_of(events)["totals"] == [3, 6]
    assert st["attacker"] == 1
    assert st["zones"][0]["cemetery"] == [cid("orc", "War Drummer")]
    assert st["zones"][1]["discard"][0] == cid("elf", "Sentinel")


def test_rule_fight_attacker_wins_and_stays_attacker():
    st = arrange(["orc", "elf"], [[cid("orc", "Ogre"), cid("orc", "Raider")],
                                  [cid("elf", "Scout"), cid("elf", "Ranger")]], attacker=0)
    st = play(st, 0, cid("orc", "Ogre"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("elf", "Ranger")})
    assert fight_of(events)["winners"] == [0]
    assert st["attacker"] == 0 and st["zones"][1]["cemetery"] == [cid("elf", "Ranger")]


def test_rule_fight_tie_both_lose_attacker_stays():
    st = arrange(["orc", "elf"], [[cid("orc", "War Drummer"), cid("orc", "Grunt")],
                                  [cid("elf", "Hunter"), cid("elf", "Ranger")]], attacker=1)
    st = play(st, 1, cid("elf", "Hunter"))
    st, events = act_events(st, 0, {"type": "play", "card": cid("orc", "War Drummer")})
    fight = fight_of(events)
    assert fight["totals"] == [3, 3] and fight["winners"] == []
    assert st["zones"][0]["cemetery"] == [cid("orc", "War Drummer")]
    assert st["zones"][1]["cemetery"] == [cid("elf", "Hunter")]
    assert st["attacker"] == 1


def test_rule_aftermath_victorious_order_chosen_and_kept():
    arc, lord, hunt = cid("elf", "Archer"), cid("elf", "Lord"), cid("elf", "Hunter", 2)
    st = arrange(["elf", "orc"], [[arc, lord, cid("elf", "Scout")], [cid("orc", "Kobold"), cid("orc", "Grunt")]],
                 attacker=0, discards=[[hunt], []])
    st = play(st, 0, arc)
    st = play(st, 0, lord)
    st = play(st, 1, cid("orc", "Kobold"))
    assert decision(st) == {"seat": 0, "kind": "stack"}
    assert moves(st, 0) == [{"type": "stack", "card": arc}, {"type": "stack", "card": lord}]
    st = act(st, 0, {"type": "stack", "card": lord})
    assert st["zones"][0]["discard"] == [arc, lord, hunt]
    st = act(st, 1, {"type": "pass"})  # the Kobold's optional Defeated effect
    assert st["zones"][0]["discard"][:3] == [arc, lord, hunt]  # the order never changes


def test_rule_victory_cemetery_30_ends_least_value_wins():
    orc_cem = [cid("orc", "Ogre"), cid("orc", "Warlord"), cid("orc", "Warlord", 2), cid("orc", "Battering Ram")]
    assert total_value(orc_cem) == 28
    st = arrange(["orc", "elf"], [[cid("orc", "War Drummer"), cid("orc", "Grunt")],
                                  [cid("elf", "Sentinel"), cid("elf", "Scout")]],
                 attacker=0, cemeteries=[orc_cem, [cid("elf", "Lord")]])
    st = play(st, 0, cid("orc", "War Drummer"))
    st = play(st, 1, cid("elf", "Sentinel"))
    result = GAME.outcome(st)
    assert result is not None and result.ranks == [2, 1] and result.scores == [31, 8]
    assert GAME.to_act(st) == [] and moves(st, 0) == [] and moves(st, 1) == []


def test_rule_victory_equal_cemetery_values_tie():
    orc_cem = [cid("orc", "Ogre"), cid("orc", "Warlord"), cid("orc", "Warlord", 2), cid("orc", "War Drummer"),
               cid("orc", "Kobold")]
    elf_cem = [cid("elf", "Lord"), cid("elf", "Wizard"), cid("elf", "Elder"), cid("elf", "Elder", 2)]
    assert total_value(orc_cem) == total_value(elf_cem) == 27
    st = arrange(["orc", "elf"], [[cid("orc", "War Drummer", 2), cid("orc", "Grunt")],
                                  [cid("elf", "Hunter"), cid("elf", "Scout")]],
                 attacker=1, cemeteries=[orc_cem, elf_cem])
    st = play(st, 1, cid("elf", "Hunter"))
    st = play(st, 0, cid("orc", "War Drummer", 2))
    result = GAME.outcome(st)
    assert result.ranks == [1, 1] and result.scores == [30, 30]


def test_rule_victory_below_30_keeps_playing():
    st = arrange(["orc", "elf"], [[cid("orc", "Grunt"), cid("orc", "Raider")],
                                  [cid("elf", "Sentinel"), cid("elf", "Scout")]],
                 attacker=0, cemeteries=[[cid("orc", "Ogre")], []])
    st = play(st, 0, cid("orc", "Grunt"))
    st = play(st, 1, cid("elf", "Sentinel"))
    assert GAME.outcome(st) is None and st["battle"]["n"] == 2


def test_rule_reinforce_player_with_empty_hand_draws_five():
    st = arrange(["orc", "elf"], [[cid("orc", "Grunt")], [cid("elf", "Sentinel"), cid("elf", "Scout")]],
                 attacker=0)
    st = play(st, 0, cid("orc", "Grunt"))
    st = play(st, 1, cid("elf", "Sentinel"))
    assert len(st["zones"][0]["hand"]) == 5  # empty hand: reinforced
    assert len(st["zones"][1]["hand"]) == 1  # still holds the Scout: no draw


def test_rule_reshuffle_reinforce_goes_on_drawing_after_the_reshuffle():
    """Reshuffling: "Continue drawing from the deck if required": a player who reinforces from
    a deck of two draws those two, reshuffles the discard, and draws three more: five in all."""
    grunt = cid("orc", "Grunt")
    deck = [cid("orc", "Ogre"), cid("orc", "Raider")]
    discard = [c for c in DECKS["orc"] if c != grunt and c not in deck]
    st = arrange(["orc", "elf"], [[grunt], [cid("elf", "Sentinel"), cid("elf", "Scout")]], attacker=0,
                 decks=[deck, []], discards=[discard, []])
    assert st["zones"][0]["deck"] == deck
    st = play(st, 0, grunt)
    st = play(st, 1, cid("elf", "Sentinel"))
    hand = st["zones"][0]["hand"]
    assert len(hand) == 5 and hand[:2] == deck
    assert len(st["zones"][0]["deck"]) == len(discard) - 3


def test_rule_reinforce_draws_are_private():
    st = arrange(["orc", "elf"], [[cid("orc", "Grunt")], [cid("elf", "Sentinel"), cid("elf", "Scout")]],
                 attacker=0)
    st = play(st, 0, cid("orc", "Grunt"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("elf", "Sentinel")})
    draw = next(e for e in events if e["type"] == "draw")
    assert draw["data"] == {"seat": 0, "count": 5}
    assert GAME.redact(draw, 0)["data"]["cards"] == st["zones"][0]["hand"]
    assert "cards" not in GAME.redact(draw, 1)["data"] and "cards" not in GAME.redact(draw, None)["data"]


def test_rule_a_battle_starts_with_nothing_played_and_no_result():
    """Battles: a battle begins with the attacker first in order, no card played, nothing
    triggered, no next attacker named and no result yet (the battle's state as every seat sees it)."""
    st = arrange(["elf", "orc"], [[cid("elf", "Scout")], [cid("orc", "Grunt")]], attacker=0)
    assert st["attacker"] == 0 and st["battle"] == {
        "n": 1, "attacker": 0, "order": [0, 1], "turn": 1, "played": [0, 0], "next": None,
        "triggered": [], "result": None,
    }


def test_rule_each_card_put_on_the_battlefield_counts_as_played_this_battle():
    """Battles: the cards a player has played this battle (what "may play only one card this
    battle" limits count): an Archer and the Wizard it lets the Elf play are two; the view shows
    the count."""
    archer, wizard = cid("elf", "Archer"), cid("elf", "Wizard")
    st = arrange(["elf", "orc"], [[archer, wizard, cid("elf", "Scout")], [cid("orc", "Grunt")]], attacker=0)
    assert st["battle"]["played"] == [0, 0]
    st = play(st, 0, archer)
    assert st["battle"]["played"] == [1, 0]
    st = act(st, 0, {"type": "play", "card": wizard})
    assert st["battle"]["played"] == [2, 0] and to_act(st) == [1]
    assert GAME.view(st, 1)["battle"]["played"] == [2, 0]


def test_rule_reshuffle_the_moment_the_deck_is_empty():
    elf = DECKS["elf"]
    hand = [cid("elf", "Scout"), cid("elf", "Ranger")]
    last = cid("elf", "Lord")
    discard = [c for c in elf if c not in hand and c != last]
    st = arrange(["elf", "orc"], [hand, [cid("orc", "Grunt")]], attacker=0, decks=[[last], []],
                 discards=[discard, []])
    assert st["zones"][0]["deck"] == [last]
    st, events = act_events(st, 0, {"type": "play", "card": cid("elf", "Scout")})  # draws the last card
    shuffle = next(e for e in events if e["type"] == "shuffle")
    assert shuffle["data"] == {"seat": 0, "count": len(discard)}
    assert sorted(shuffle["secret"]["order"]) == sorted(discard)
    assert "order" not in GAME.redact(shuffle, 0)["data"]
    assert last in st["zones"][0]["hand"]
    assert len(st["zones"][0]["deck"]) == len(discard) and st["zones"][0]["discard"] == []


def _summoner_with_a_short_deck(deck: list[str], discard: list[str]) -> dict:
    """An Elf attacking with a Master Summoner whose deck holds only ``deck`` over ``discard``
    (every other Elf card is out of play)."""
    summoner, scout = cid("elf", "Master Summoner"), cid("elf", "Scout")
    kept = [summoner, scout] + deck + discard
    st = arrange(["elf", "orc"], [[summoner, scout], [cid("orc", "Grunt")]], attacker=0, decks=[deck, []],
                 discards=[discard, []], outs=[[c for c in DECKS["elf"] if c not in kept], []])
    assert st["zones"][0]["deck"] == deck
    return play(st, 0, summoner)


def test_rule_reshuffle_mid_reveal_master_summoner_still_reveals_exactly_two():
    """Reshuffling: "Continue drawing from the deck if required": a Master Summoner with one card
    left reveals it, the discard becomes the deck, and exactly one more card is revealed."""
    lord = cid("elf", "Lord")
    discard = [cid("elf", "Hunter"), cid("elf", "Archer"), cid("elf", "Druid")]
    st = _summoner_with_a_short_deck([lord], discard)
    shown = st["zones"][0]["revealed"]
    assert len(shown) == 2 and shown[0] == lord and shown[1] in discard
    assert len(st["zones"][0]["deck"]) == 2 and st["zones"][0]["discard"] == []
    assert moves(st, 0) == [{"type": "play", "card": c} for c in shown]


def test_rule_reshuffle_master_summoner_with_one_card_and_no_discard_reveals_and_plays_it():
    """Reshuffling: with one card in the deck and nothing to reshuffle, the Master Summoner
    reveals that one card, and it is played."""
    lord = cid("elf", "Lord")
    st = _summoner_with_a_short_deck([lord], [])
    assert st["zones"][0]["revealed"] == [lord]
    assert moves(st, 0) == [{"type": "play", "card": lord}]
    st = act(st, 0, {"type": "play", "card": lord})
    assert [e["card"] for e in st["field"] if e["seat"] == 0] == [cid("elf", "Master Summoner"), lord]
    assert st["zones"][0]["revealed"] == []


# ----- card text ------------------------------------------------------------------------------


def test_rule_effect_applies_only_while_on_battlefield():
    st = arrange(["orc", "elf"], [[cid("orc", "Warlord"), cid("orc", "Goblin"), cid("orc", "Shaman")],
                                  [cid("elf", "Scout")]], attacker=0)
    st = play(st, 0, cid("orc", "Shaman"))
    st = play(st, 0, cid("orc", "Warlord"))
    vals = card_values(st)
    assert vals[cid("orc", "Warlord")] == 7 and vals[cid("orc", "Shaman")] == 0  # only Goblinoids gain


def test_rule_condition_keywords_attacking_and_defending():
    st = arrange(["orc", "dwarf"], [[cid("orc", "Battering Ram"), cid("orc", "Hobgoblin")],
                                    [cid("dwarf", "Shieldbearer"), cid("dwarf", "Gatekeeper")]], attacker=1)
    st = play(st, 1, cid("dwarf", "Gatekeeper"))  # Attacking: -1
    st, events = act_events(st, 0, {"type": "play", "card": cid("orc", "Battering Ram")})  # Defending: -2
    assert fight_of(events)["totals"] == [4, 4]


def test_rule_value_never_below_zero():
    st = arrange(["dwarf", "orc"], [[cid("dwarf", "Crossbowman"), cid("dwarf", "Guard")],
                                    [cid("orc", "Shaman"), cid("orc", "Grunt")]], attacker=0)
    st = play(st, 0, cid("dwarf", "Crossbowman"))
    st = play(st, 1, cid("orc", "Shaman"))
    assert card_values(st)[cid("orc", "Shaman")] == 0 and battlefield_values(st) == [3, 0]
    st = act(st, 1, {"type": "pass"})


def test_rule_text_beats_basic_rules_skeleton_goes_to_discard():
    sk = cid("undead", "Skeleton")
    st = arrange(["undead", "orc"], [[sk, cid("undead", "Mummy")], [cid("orc", "Grunt"), cid("orc", "Raider")]],
                 attacker=0)
    st = play(st, 0, sk)
    st = play(st, 1, cid("orc", "Grunt"))
    assert sk in st["zones"][0]["discard"] and st["zones"][0]["cemetery"] == []


def test_rule_removed_cards_go_out_of_play():
    wr = cid("undead", "Wraith")
    st = arrange(["undead", "orc"], [[wr, cid("undead", "Mummy")], [cid("orc", "Grunt"), cid("orc", "Raider")]],
                 attacker=0)
    st = play(st, 0, wr)
    st = play(st, 1, cid("orc", "Grunt"))  # 6 beats 4: the victorious Wraith is not removed
    assert wr in st["zones"][0]["discard"]
    st2 = arrange(["undead", "orc"], [[wr, cid("undead", "Mummy")], [cid("orc", "Ogre"), cid("orc", "Raider")]],
                  attacker=1)
    st2 = play(st2, 1, cid("orc", "Ogre"))
    st2 = play(st2, 0, wr)  # attacking Ogre 8 beats the Wraith: removed from the game
    assert st2["zones"][0]["out"] == [wr] and st2["zones"][0]["cemetery"] == []
    assert GAME.view(st2, 1)["zones"][0]["out"] == [wr]


def test_rule_defeated_keyword_only_when_defeated():
    miner = cid("dwarf", "Miner")
    st = arrange(["dwarf", "orc"], [[miner, cid("dwarf", "Guard")], [cid("orc", "Kobold"), cid("orc", "Grunt")]],
                 attacker=1)
    st = play(st, 1, cid("orc", "Kobold"))
    st = play(st, 0, miner)  # Miner 1 loses to Kobold 2: Defeated -> draw a card
    assert len(st["zones"][0]["hand"]) == 2
    st = arrange(["dwarf", "orc"], [[miner, cid("dwarf", "Guard")], [cid("orc", "Shaman"), cid("orc", "Grunt")]],
                 attacker=1)
    st = play(st, 1, cid("orc", "Shaman"))
    st = act(st, 1, {"type": "pass"})
    st = play(st, 0, miner)  # the Miner wins: no draw
    assert len(st["zones"][0]["hand"]) == 1


def test_rule_cemetery_keyword_sylvan_extra_card_when_reinforcing():
    syl = [cid("elf", "Sylvan"), cid("elf", "Sylvan", 2)]
    st = arrange(["elf", "orc"], [[cid("elf", "Sentinel")], [cid("orc", "Grunt")]], attacker=1,
                 cemeteries=[syl, []])
    st = play(st, 1, cid("orc", "Grunt"))
    st = play(st, 0, cid("elf", "Sentinel"))
    assert len(st["zones"][0]["hand"]) == 5 + 2  # no hand size limit
    assert len(st["zones"][1]["hand"]) == 5


def test_rule_cemetery_keyword_needs_empty_hand():
    syl = [cid("elf", "Sylvan")]
    st = arrange(["elf", "orc"], [[cid("elf", "Sentinel"), cid("elf", "Scout")], [cid("orc", "Grunt")]],
                 attacker=1, cemeteries=[syl, []])
    st = play(st, 1, cid("orc", "Grunt"))
    st = play(st, 0, cid("elf", "Sentinel"))
    assert len(st["zones"][0]["hand"]) == 1


def test_rule_cemetery_keyword_zombie_returns_to_discard():
    zom = cid("undead", "Zombie")
    st = arrange(["undead", "orc"], [[cid("undead", "Mummy")], [cid("orc", "Grunt")]], attacker=1,
                 cemeteries=[[zom], []])
    st = play(st, 1, cid("orc", "Grunt"))
    st = play(st, 0, cid("undead", "Mummy"))
    assert zom not in st["zones"][0]["cemetery"]
    assert zom in st["zones"][0]["discard"] or zom in st["zones"][0]["deck"] or zom in st["zones"][0]["hand"]


def test_rule_after_all_cards_are_played_keyword():
    st = arrange(["elf", "dwarf"], [[cid("elf", "Enchantress"), cid("elf", "Sentinel")],
                                    [cid("dwarf", "Guard"), cid("dwarf", "Miner")]], attacker=0)
    st = play(st, 0, cid("elf", "Enchantress"))
    assert moves(st, 0) == []  # nothing happens when it is played
    st = play(st, 1, cid("dwarf", "Guard"))
    assert to_act(st) == [0]  # after all cards are played
    assert moves(st, 0) == [{"type": "play", "card": cid("elf", "Sentinel")}, {"type": "pass"}]
    st, events = act_events(st, 0, {"type": "play", "card": cid("elf", "Sentinel")})
    assert fight_of(events)["totals"] == [8, 6]


def test_rule_ignore_text_suppresses_after_all_trigger():
    st = arrange(["elf", "dwarf"], [[cid("elf", "Enchantress"), cid("elf", "Sentinel")],
                                    [cid("dwarf", "Tactician"), cid("dwarf", "Miner")]], attacker=0)
    st = play(st, 0, cid("elf", "Enchantress"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("dwarf", "Tactician")})
    assert fight_of(events)["totals"] == [3, 3]


def test_rule_ghoul_limits_extra_plays():
    st = arrange(["undead", "elf"], [[cid("undead", "Ghoul")], [cid("elf", "Archer"), cid("elf", "Lord")]],
                 attacker=0)
    st = play(st, 0, cid("undead", "Ghoul"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("elf", "Archer")})
    assert fight_of(events)["totals"] == [3, 2]  # the Archer could not bring the Lord


def test_rule_druid_plays_top_of_discard():
    top = cid("elf", "Lord")
    st = arrange(["elf", "orc"], [[cid("elf", "Druid")], [cid("orc", "Grunt")]], attacker=0,
                 discards=[[top, cid("elf", "Scout")], []])
    st = play(st, 0, cid("elf", "Druid"))
    assert moves(st, 0) == [{"type": "play", "card": top}, {"type": "pass"}]
    st, events = act_events(st, 0, {"type": "play", "card": top})
    assert [e["card"] for e in st["field"]] == [cid("elf", "Druid"), top]


def test_rule_necromancer_returns_corpse_card_from_cemetery_to_discard():
    golem, mummy = cid("undead", "Bone Golem"), cid("undead", "Mummy")
    st = arrange(["undead", "orc"], [[cid("undead", "Necromancer"), cid("undead", "Ghoul")], [cid("orc", "Grunt")]],
                 attacker=0, cemeteries=[[golem, mummy], []])
    st = play(st, 0, cid("undead", "Necromancer"))
    assert moves(st, 0) == [{"type": "recover", "card": mummy}, {"type": "pass"}]  # Corpse cards only
    st = act(st, 0, {"type": "recover", "card": mummy})
    assert st["zones"][0]["cemetery"] == [golem]
    assert st["zones"][0]["discard"] == [mummy]


def test_rule_lich_counts_corpses_in_cemetery():
    cem = [cid("undead", "Zombie"), cid("undead", "Mummy"), cid("undead", "Wraith")]
    st = arrange(["undead", "orc"], [[cid("undead", "Lich"), cid("undead", "Ghost")], [cid("orc", "Grunt")]],
                 attacker=0, cemeteries=[cem, []])
    st = play(st, 0, cid("undead", "Lich"))
    assert card_values(st)[cid("undead", "Lich")] == 6 + 2


# ----- simultaneous effects -------------------------------------------------------------------


def test_rule_simultaneous_attacker_first_and_further_rounds_no_double_trigger():
    b1, b2 = cid("dwarf", "Brewer"), cid("dwarf", "Brewer", 2)
    st = arrange(["dwarf", "elf"], [[b1, b2, cid("dwarf", "Guard")], [cid("elf", "Enchantress"), cid("elf", "Scout")]],
                 attacker=0)
    st = play(st, 0, b1)
    st = play(st, 1, cid("elf", "Enchantress"))
    assert to_act(st) == [0]  # the attacker's effect resolves first
    st = play(st, 0, b2)  # a new After-all-cards-are-played card
    assert to_act(st) == [1]  # ... waits: the Elf's Enchantress finishes the current round
    st = act(st, 1, {"type": "pass"})
    assert to_act(st) == [0]  # further round: only the new Brewer; the first never fires twice
    assert moves(st, 0) == [{"type": "play", "card": cid("dwarf", "Guard")}, {"type": "pass"}]
    st, events = act_events(st, 0, {"type": "pass"})
    assert fight_of(events)["totals"] == [2 + 2, 3]


def test_rule_simultaneous_player_orders_own_effects():
    st = arrange(["orc", "elf"], [[cid("orc", "Shaman"), cid("orc", "War Drummer"), cid("orc", "Grunt")],
                                  [cid("elf", "Sylvan"), cid("elf", "Scout")]], attacker=0)
    st = play(st, 0, cid("orc", "Shaman"))
    st = play(st, 0, cid("orc", "War Drummer"))
    st = play(st, 1, cid("elf", "Sylvan"))
    st = act(st, 0, {"type": "stack", "card": cid("orc", "War Drummer")})
    assert decision(st) == {"seat": 0, "kind": "order"}  # both Victorious: the owner picks the order
    assert moves(st, 0) == [{"type": "resolve", "card": cid("orc", "Shaman")},
                            {"type": "resolve", "card": cid("orc", "War Drummer")}]
    hand = len(st["zones"][0]["hand"])
    st = act(st, 0, {"type": "resolve", "card": cid("orc", "War Drummer")})
    assert len(st["zones"][0]["hand"]) == hand + 2  # the other one resolved by itself afterwards
    assert st["battle"]["n"] == 2


def test_rule_conflict_last_next_attacker_choice_wins_two_players():
    st = arrange(["dwarf", "orc"], [[cid("dwarf", "Hammer"), cid("dwarf", "Guard")],
                                    [cid("orc", "Kobold"), cid("orc", "Grunt")]], attacker=1)
    st = play(st, 1, cid("orc", "Kobold"))
    st = play(st, 0, cid("dwarf", "Hammer"))  # the Hammer names the Orc, the only opponent
    st = act(st, 1, {"type": "pass"})
    assert st["attacker"] == 1  # although the Dwarf won the battle


def test_rule_empty_hand_plays_nothing():
    st = arrange(["orc", "elf"], [[cid("orc", "Grunt")], []], attacker=0)
    st, events = act_events(st, 0, {"type": "play", "card": cid("orc", "Grunt")})
    assert fight_of(events)["totals"] == [4 + 2, 0]


def test_rule_conditional_instant_effect_raider_only_when_attacking():
    st = arrange(["orc", "elf"], [[cid("orc", "Raider"), cid("orc", "Grunt")],
                                  [cid("elf", "Sentinel"), cid("elf", "Scout"), cid("elf", "Lord")]], attacker=0)
    st, events = act_events(st, 0, {"type": "play", "card": cid("orc", "Raider")})
    assert [e["data"]["seat"] for e in events if e["type"] == "move" and e["data"]["from"] == "hand"] == [1]
    assert len(st["zones"][1]["hand"]) == 2
    st = arrange(["orc", "elf"], [[cid("orc", "Raider"), cid("orc", "Grunt")],
                                  [cid("elf", "Scout"), cid("elf", "Lord")]], attacker=1)
    st = play(st, 1, cid("elf", "Scout"))
    st, events = act_events(st, 0, {"type": "play", "card": cid("orc", "Raider")})  # defending: no text
    assert not any(e["type"] == "move" and e["data"]["from"] == "hand" for e in events)


def test_rule_conditional_play_limit_warlord_only_when_attacking():
    st = arrange(["orc", "elf"], [[cid("orc", "Warlord"), cid("orc", "Grunt")],
                                  [cid("elf", "Archer"), cid("elf", "Lord")]], attacker=0)
    st = play(st, 0, cid("orc", "Warlord"))
    st = act(st, 0, {"type": "pass"})  # no Goblinoid to add
    st, events = act_events(st, 1, {"type": "play", "card": cid("elf", "Archer")})
    assert fight_of(events)["totals"] == [7, 2]  # the Archer could not bring the Lord
    st = arrange(["orc", "elf"], [[cid("orc", "Warlord"), cid("orc", "Grunt")],
                                  [cid("elf", "Archer"), cid("elf", "Lord")]], attacker=1)
    st = play(st, 1, cid("elf", "Archer"))
    assert moves(st, 1) == [{"type": "play", "card": cid("elf", "Lord")}, {"type": "pass"}]


def test_rule_stack_order_irrelevant_for_copies_no_question():
    g1, g2 = cid("orc", "Shaman"), cid("orc", "Shaman", 2)
    st = arrange(["orc", "elf"], [[g1, g2, cid("orc", "Ogre")], [cid("elf", "Scout")]], attacker=0)
    st = play(st, 0, g1)
    st = play(st, 0, g2)
    st = play(st, 0, cid("orc", "Ogre"))
    st = play(st, 1, cid("elf", "Scout"))
    assert GAME.outcome(st) is None and st["pending"][-1]["kind"] == "stack"
    assert moves(st, 0) == [{"type": "stack", "card": g1}, {"type": "stack", "card": cid("orc", "Ogre")}]


def test_rule_simultaneous_later_effect_wins_tactician_cancels_pending_trigger():
    st = arrange(["dwarf", "elf"], [[cid("dwarf", "Brewer"), cid("dwarf", "Tactician")],
                                    [cid("elf", "Enchantress"), cid("elf", "Lord")]], attacker=0)
    st = play(st, 0, cid("dwarf", "Brewer"))
    st = play(st, 1, cid("elf", "Enchantress"))
    assert to_act(st) == [0]  # the attacker's Brewer resolves first
    st, events = act_events(st, 0, {"type": "play", "card": cid("dwarf", "Tactician")})
    # the Tactician now strips the Enchantress's text: its trigger does nothing
    fight = fight_of(events)
    assert fight["totals"] == [2 + 3, 3] and cid("elf", "Lord") in st["zones"][1]["hand"]


def test_house_rule_out_of_cards_ends_the_game():
    grunt = cid("orc", "Grunt")
    rest = [c for c in DECKS["orc"] if c != grunt]
    st = arrange(["orc", "elf"], [[grunt], [cid("elf", "Lord"), cid("elf", "Scout")]], attacker=0,
                 outs=[rest, []])
    assert st["zones"][0]["deck"] == [] and st["zones"][0]["discard"] == []
    st = play(st, 0, grunt)
    st = play(st, 1, cid("elf", "Lord"))  # the Orc loses its last card and can draw nothing
    result = GAME.outcome(st)
    assert result is not None and result.ranks == [2, 1] and result.scores == [5, 0]


def test_rule_victory_the_finished_game_waits_for_no_decision():
    """6) Victory?: once the game ends nobody has anything to decide, and the final state keeps
    the state's layout (it is what every seat sees)."""
    grunt = cid("orc", "Grunt")
    st = arrange(["orc", "elf"], [[grunt], [cid("elf", "Lord"), cid("elf", "Scout")]], attacker=0,
                 outs=[[c for c in DECKS["orc"] if c != grunt], []])
    keys = set(st)
    st = play(st, 0, grunt)
    st = play(st, 1, cid("elf", "Lord"))
    assert GAME.outcome(st) is not None
    assert st["pending"] == [] and set(st) == keys
    assert to_act(st) == [] and moves(st, 0) == moves(st, 1) == []


def test_house_rule_battle_limit_ends_the_game():
    from shared.games.fate_of_akalon.flow import MAX_BATTLES

    st = arrange(["orc", "elf"], [[cid("orc", "Grunt"), cid("orc", "Ogre")], [cid("elf", "Lord"), cid("elf", "Scout")]],
                 attacker=0)
    st["battles"] = st["battle"]["n"] = MAX_BATTLES
    st = play(st, 0, cid("orc", "Grunt"))
    st = play(st, 1, cid("elf", "Lord"))
    assert GAME.outcome(st).ranks == [2, 1]


# ----- issue 12 -------------------------------------------------------------------------------


def test_rule_master_summoner_play_one_discard_the_others_druid_cannot_play_a_revealed_card():
    """Master Summoner: "Play one of them and discard the others": the others are discarded
    after the played card's text, so a Druid played this way offers the old top of the discard,
    never the Lord revealed with it."""
    druid, lord, hunter = cid("elf", "Druid"), cid("elf", "Lord"), cid("elf", "Hunter")
    st = arrange(["elf", "orc"], [[cid("elf", "Master Summoner"), cid("elf", "Scout")], [cid("orc", "Grunt")]],
                 attacker=0, decks=[[druid, lord], []], discards=[[hunter], []])
    st = play(st, 0, cid("elf", "Master Summoner"))
    assert moves(st, 0) == [{"type": "play", "card": druid}, {"type": "play", "card": lord}]
    st = play(st, 0, druid)
    assert moves(st, 0) == [{"type": "play", "card": hunter}, {"type": "pass"}]
    assert st["zones"][0]["revealed"] == [lord]  # not on the discard while the Druid's text resolves
    st = act(st, 0, {"type": "pass"})
    assert st["zones"][0]["discard"][0] == lord and st["zones"][0]["revealed"] == []
    assert [e["card"] for e in st["field"]] == [cid("elf", "Master Summoner"), druid]


def test_rule_master_summoner_discard_follows_a_chain_of_plays():
    """The others are discarded once the played card's whole text is done, including cards it
    let its owner play (Archer -> Lord from hand)."""
    archer, wizard, lord = cid("elf", "Archer"), cid("elf", "Wizard"), cid("elf", "Lord")
    st = arrange(["elf", "orc"], [[cid("elf", "Master Summoner"), lord], [cid("orc", "Grunt")]],
                 attacker=0, decks=[[archer, wizard], []])
    st = play(st, 0, cid("elf", "Master Summoner"))
    st = play(st, 0, archer)
    assert moves(st, 0) == [{"type": "play", "card": lord}, {"type": "pass"}]  # the Wizard is not offered
    st = act(st, 0, {"type": "play", "card": lord})
    assert st["zones"][0]["discard"] == [wizard] and st["zones"][0]["revealed"] == []
    st, events = act_events(st, 1, {"type": "play", "card": cid("orc", "Grunt")})
    assert fight_of(events)["totals"] == [4 + 2 + 8, 5]


LAST_CARD_DRAWS = [
    # (faction, card, opponent, opponent's card, attacker seat): the card is its owner's last
    ("elf", "Hunter", "dwarf", "Miner", 0),
    ("elf", "Lord", "orc", "Grunt", 0),
    ("elf", "Scout", "dwarf", "Miner", 0),
    ("orc", "War Drummer", "elf", "Sylvan", 0),
    ("dwarf", "Miner", "elf", "Ranger", 1),
]


@pytest.mark.parametrize("faction,name,foe,foe_card,attacker", LAST_CARD_DRAWS, ids=[c[1] for c in LAST_CARD_DRAWS])
def test_house_cards_draw_texts_never_cost_the_reinforcement(faction, name, foe, foe_card, attacker):
    """House cards Hunter, Lord, Scout, War Drummer, Miner ("If you have a card in hand, draw"):
    played as the owner's last card, the text draws nothing and step 7 (Reinforce) still deals
    five cards."""
    st = arrange([faction, foe], [[cid(faction, name)], [cid(foe, foe_card), cid(foe, foe_card, 2)]],
                 attacker=attacker)
    order = [0, 1] if attacker == 0 else [1, 0]
    for seat in order:
        st = play(st, seat, cid(faction, name) if seat == 0 else cid(foe, foe_card))
    assert st["battle"]["n"] == 2
    assert len(st["zones"][0]["hand"]) == 5


def test_house_cards_shaman_victorious_draw_never_costs_the_reinforcement():
    """House card Shaman: with the Shaman and the card it let its owner play as the last two
    cards, the Victorious draw does nothing and the owner reinforces to five."""
    st = arrange(["orc", "elf"], [[cid("orc", "Shaman"), cid("orc", "Ogre")], [cid("elf", "Scout")]], attacker=0)
    st = play(st, 0, cid("orc", "Shaman"))
    st = play(st, 0, cid("orc", "Ogre"))
    st = play(st, 1, cid("elf", "Scout"))
    st = act(st, 0, {"type": "stack", "card": cid("orc", "Shaman")})
    assert st["battle"]["n"] == 2 and len(st["zones"][0]["hand"]) == 5


def test_house_cards_draw_texts_draw_when_the_hand_holds_a_card():
    """The same texts draw as printed when their owner still holds a card (Lord: two)."""
    st = arrange(["elf", "orc"], [[cid("elf", "Lord"), cid("elf", "Ranger")], [cid("orc", "Grunt"), cid("orc", "Raider")]],
                 attacker=0)
    st = play(st, 0, cid("elf", "Lord"))
    st = play(st, 1, cid("orc", "Grunt"))
    assert len(st["zones"][0]["hand"]) == 1 + 2


def test_rule_card_text_tactician_that_left_the_battlefield_no_longer_blocks_a_defeated_kobold_played_before_it():
    """Card Text: an effect "remains in effect until that card leaves the battlefield". The
    Kobold was on the battlefield before the Tactician came, so only while the Tactician stays
    is its text ignored; the victorious Tactician is on its discard when the Kobold's
    **Defeated** text triggers, so that text is followed. (A Kobold played *after* the
    Tactician has no text at all: play example 1, test_examples.py.)"""
    st = arrange(["orc", "dwarf"], [[cid("orc", "Kobold"), cid("orc", "Grunt")],
                                    [cid("dwarf", "Tactician"), cid("dwarf", "Guard")]], attacker=0)
    st = play(st, 0, cid("orc", "Kobold"))
    st, events = act_events(st, 1, {"type": "play", "card": cid("dwarf", "Tactician")})
    fight = fight_of(events)
    assert fight["winners"] == [1]
    assert not next(e for e in fight["field"] if e["card"] == cid("orc", "Kobold"))["active"]  # silenced at the fight
    assert to_act(st) == [0] and moves(st, 0) == [{"type": "use"}, {"type": "pass"}]
    st = act(st, 0, {"type": "use"})
    assert st["attacker"] == 0 and st["battle"]["n"] == 2

