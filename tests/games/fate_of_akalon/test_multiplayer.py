"""3-player free-for-all and 4-player team rules."""
from shared.games.fate_of_akalon import GAME
from shared.games.fate_of_akalon.content import DECKS, total_value
from shared.rng import FastRng

from .helpers import act, act_events, arrange, cid, fresh, moves, play, to_act


def fight_of(events):
    return next(e["data"] for e in events if e["type"] == "fight")


# ----- 3 players ----------------------------------------------------------------------------


def test_rule_3p_skirmish_only_tied_players_skirmish_again():
    st = fresh(["orc", "elf", "dwarf"], [[cid("orc", "Hobgoblin"), cid("orc", "Goblin")],
                                         [cid("elf", "Ranger"), cid("elf", "Lord")],
                                         [cid("dwarf", "Miner"), cid("dwarf", "King")]])
    # Orc 4 and Elf 4 tie; the Dwarf's 1 lost and goes to its cemetery; only Orc and Elf go again
    assert st["zones"][2]["cemetery"] == [cid("dwarf", "Miner")]
    assert st["zones"][2]["discard"] == [] and cid("dwarf", "King") in st["zones"][2]["deck"]
    assert st["zones"][0]["discard"] == [cid("orc", "Hobgoblin")]
    assert st["zones"][0]["cemetery"] == [cid("orc", "Goblin")]
    assert st["zones"][1]["discard"] == [cid("elf", "Lord"), cid("elf", "Ranger")]
    # the player to the left of the winner (Elf, seat 1) chooses the first attacker
    assert to_act(st) == [2]
    assert moves(st, 2) == [{"type": "choose_attacker", "seat": s} for s in range(3)]
    st = act(st, 2, {"type": "choose_attacker", "seat": 0})
    assert st["attacker"] == 0 and st["battle"]["order"] == [0, 1, 2]
    assert [len(z["hand"]) for z in st["zones"]] == [5, 5, 5]


def _three(attacker, cards):
    hands = [[cid("orc", cards[0]), cid("orc", "Grunt", 4)], [cid("elf", cards[1]), cid("elf", "Scout", 3)],
             [cid("dwarf", cards[2]), cid("dwarf", "Miner", 3)]]
    st = arrange(["orc", "elf", "dwarf"], hands, attacker=attacker)
    events = []
    for i in range(3):
        seat = (attacker + i) % 3
        assert to_act(st) == [seat]
        st, events = act_events(st, seat, {"type": "play", "card": hands[seat][0]})
    return st, fight_of(events)


def test_rule_3p_attacker_tied_with_defender_everyone_loses_attacker_stays():
    st, fight = _three(1, ["War Drummer", "Hunter", "Miner"])  # Elf attacks 3, Orc 3, Dwarf 1
    assert fight["totals"] == [3, 3, 1] and fight["winners"] == [] and fight["losers"] == [1, 2, 0]
    assert st["attacker"] == 1
    assert all(len(z["cemetery"]) == 1 for z in st["zones"])


def test_rule_3p_defenders_tied_everyone_loses_left_of_attacker_attacks():
    st, fight = _three(1, ["War Drummer", "Scout", "Tactician"])  # Elf attacks 2; Dwarf 3 and Orc 3 tie
    assert fight["totals"] == [3, 2, 3] and fight["winners"] == [] and fight["losers"] == [1, 2, 0]
    assert st["attacker"] == 2  # the player to the left of the attacker
    st, fight = _three(2, ["Hobgoblin", "Ranger", "Miner"])  # Dwarf attacks with 1; Orc 4 and Elf 4 tie
    assert fight["totals"] == [4, 4, 1] and fight["winners"] == []
    assert st["attacker"] == 0  # left of seat 2 is seat 0


def test_rule_3p_highest_individual_value_wins_and_attacks_next():
    st, fight = _three(0, ["War Drummer", "Ranger", "Guard"])  # Orc 3; Elf 4; Dwarf 4+2
    assert fight["totals"] == [3, 4, 6] and fight["winners"] == [2] and fight["losers"] == [0, 1]
    assert st["attacker"] == 2


def test_rule_3p_player_whose_cemetery_exceeds_30_leaves_other_two_continue():
    """3-Player Rules: "if only one player's cemetery value exceeds 30, then the game continues
    for the remaining two players using the 2-player rules"."""
    orc_cem = [cid("orc", "Ogre"), cid("orc", "Warlord"), cid("orc", "Warlord", 2), cid("orc", "Battering Ram")]
    dwarf_cem = [cid("dwarf", "Ironbreaker"), cid("dwarf", "Ironbreaker", 2), cid("dwarf", "Runesmith"),
                 cid("dwarf", "Runesmith", 2), cid("dwarf", "Guard", 2), cid("dwarf", "Shieldbearer"),
                 cid("dwarf", "Miner", 2)]
    assert total_value(orc_cem) == 28 and total_value(dwarf_cem) == 29
    hands = [[cid("orc", "Grunt"), cid("orc", "Raider")], [cid("elf", "Sentinel"), cid("elf", "Scout")],
             [cid("dwarf", "King"), cid("dwarf", "Miner")]]
    st = arrange(["orc", "elf", "dwarf"], hands, attacker=0, cemeteries=[orc_cem, [], dwarf_cem])
    st = play(st, 0, cid("orc", "Grunt"))
    st = play(st, 1, cid("elf", "Sentinel"))
    st = play(st, 2, cid("dwarf", "King"))
    st = act(st, 2, {"type": "pass"})  # no Warrior to add: Dwarf 8 wins; the Orc reaches 33 > 30 and leaves
    assert GAME.outcome(st) is None
    assert st["alive"] == [False, True, True] and st["left"] == [[0]]
    assert st["battle"]["order"] == [2, 1] and st["attacker"] == 2
    assert moves(st, 0) == []
    # the other two continue under the 2-player rules
    st = play(st, 2, cid("dwarf", "Miner"))
    assert to_act(st) == [1]
    st = play(st, 1, cid("elf", "Scout"))  # Scout 2 beats Miner 1: the Dwarf reaches 30
    result = GAME.outcome(st)
    assert result.ranks == [3, 1, 2] and result.scores == [33, 5, 30]


def test_rule_3p_cemetery_of_exactly_30_is_not_over_30_nobody_leaves_the_game_ends():
    """3-Player Rules: only a value that *exceeds* 30 sends a player out; a value of exactly 30
    is step 6's "30 or more": the game ends for all three, least cemetery value first."""
    orc_cem = [cid("orc", "Ogre"), cid("orc", "Warlord"), cid("orc", "Warlord", 2), cid("orc", "Kobold")]
    assert total_value(orc_cem) == 24
    hands = [[cid("orc", "Grunt"), cid("orc", "Raider")], [cid("elf", "Sentinel"), cid("elf", "Scout")],
             [cid("dwarf", "Ironbreaker"), cid("dwarf", "Miner")]]
    st = arrange(["orc", "elf", "dwarf"], hands, attacker=2, cemeteries=[orc_cem, [], []])
    st = arrange(["orc", "elf", "dwarf"], hands, attacker=2, cemeteries=[orc_cem + [cid("orc", "Goblin")], [], []])
    st = play(st, 2, cid("dwarf", "Ironbreaker"))
    st = play(st, 0, cid("orc", "Grunt"))  # Orc loses 5 more: exactly 30
    st = play(st, 1, cid("elf", "Scout"))
    result = GAME.outcome(st)
    assert result is not None and st["left"] == [] and st["alive"] == [True, True, True]
    assert result.scores == [30, 2, 0] and result.ranks == [3, 2, 1]


def test_rule_3p_one_over_30_leaves_and_the_other_two_are_checked_under_2_player_rules():
    """3-Player Rules: the one player over 30 leaves; the remaining two are under the 2-player
    rules at once, so a remaining player at 30 or more ends the game in the same step 6."""
    orc_cem = [cid("orc", "Ogre"), cid("orc", "Warlord"), cid("orc", "Warlord", 2), cid("orc", "Kobold")]
    elf_cem = [cid("elf", "Lord"), cid("elf", "Wizard"), cid("elf", "Elder"), cid("elf", "Elder", 2), cid("elf", "Archer")]
    assert total_value(orc_cem) == 24 and total_value(elf_cem) == 29
    hands = [[cid("orc", "Grunt"), cid("orc", "Raider")], [cid("elf", "Sylvan"), cid("elf", "Scout")],
             [cid("dwarf", "Ironbreaker"), cid("dwarf", "Miner")]]
    st = arrange(["orc", "elf", "dwarf"], hands, attacker=2, cemeteries=[orc_cem + [cid("orc", "Kobold", 2)], elf_cem, []])
    st = play(st, 2, cid("dwarf", "Ironbreaker"))
    st = play(st, 0, cid("orc", "Grunt"))  # the Orc reaches 26 + 5 = 31
    st = play(st, 1, cid("elf", "Sylvan"))  # the Elf reaches exactly 30
    result = GAME.outcome(st)
    assert st["left"] == [[0]]
    assert result is not None and result.scores == [31, 30, 0] and result.ranks == [3, 2, 1]


def test_rule_3p_ranks_leavers_last():
    from shared.games.fate_of_akalon.scoring import final_result

    st = arrange(["orc", "elf", "dwarf"], [[cid("orc", "Grunt")], [cid("elf", "Scout")], [cid("dwarf", "Guard")]],
                 attacker=0)
    st["alive"] = [False, True, True]
    st["left"] = [[0]]
    res = final_result(st, [31, 33, 12])
    assert res["ranks"] == [3, 2, 1]
    res = final_result(st, [31, 12, 12])
    assert res["ranks"] == [3, 1, 1]


def test_rule_3p_two_exceed_30_together_game_ends_least_wins():
    """3-Player Rules: the exception needs *only one* player over 30; with two, step 6 ends the game."""
    big = [cid("orc", "Ogre"), cid("orc", "Warlord"), cid("orc", "Warlord", 2), cid("orc", "Battering Ram")]
    elf_big = [cid("elf", "Lord"), cid("elf", "Wizard"), cid("elf", "Elder"), cid("elf", "Elder", 2)]
    hands = [[cid("orc", "Grunt"), cid("orc", "Raider")], [cid("elf", "Ranger"), cid("elf", "Scout")],
             [cid("dwarf", "King"), cid("dwarf", "Miner")]]
    st = arrange(["orc", "elf", "dwarf"], hands, attacker=0, cemeteries=[big, elf_big, []])
    st = play(st, 0, cid("orc", "Grunt"))
    st = play(st, 1, cid("elf", "Ranger"))
    st = play(st, 2, cid("dwarf", "King"))
    st = act(st, 2, {"type": "pass"})
    result = GAME.outcome(st)
    assert result.ranks == [3, 2, 1] and result.scores == [33, 31, 0]


def test_house_rule_3p_out_of_cards_player_leaves_and_the_other_two_go_on():
    """NOTES.md 15 (house rule): a player who reinforces but can draw nothing is treated as
    reaching the limit: in the 3-player game that player leaves, the other two play on."""
    grunt = cid("orc", "Grunt")
    hands = [[grunt], [cid("elf", "Lord"), cid("elf", "Scout")], [cid("dwarf", "Miner"), cid("dwarf", "Guard")]]
    st = arrange(["orc", "elf", "dwarf"], hands, attacker=0, outs=[[c for c in DECKS["orc"] if c != grunt], [], []])
    st = play(st, 0, grunt)
    st = play(st, 1, cid("elf", "Lord"))
    st, events = act_events(st, 2, {"type": "play", "card": cid("dwarf", "Miner")})  # Lord 8 wins
    assert [e["data"] for e in events if e["type"] == "leave"] == [{"seats": [0]}]
    assert GAME.outcome(st) is None
    assert st["alive"] == [False, True, True] and st["left"] == [[0]]
    assert st["attacker"] == 1 and st["battle"]["order"] == [1, 2] and to_act(st) == [1]


def test_house_rule_3p_attacker_out_of_cards_leaves_and_the_player_to_its_left_attacks():
    """3-Player Rules with NOTES.md 15: a tie keeps the attacker, but an attacker that is out of
    cards leaves; the next battle is led by the player to its left."""
    hunter = cid("elf", "Hunter")
    hands = [[cid("orc", "War Drummer"), cid("orc", "Grunt")], [hunter],
             [cid("dwarf", "Miner"), cid("dwarf", "Guard")]]
    st = arrange(["orc", "elf", "dwarf"], hands, attacker=1, outs=[[], [c for c in DECKS["elf"] if c != hunter], []])
    keys = set(st)
    st = play(st, 1, hunter)
    st = play(st, 2, cid("dwarf", "Miner"))
    st, events = act_events(st, 0, {"type": "play", "card": cid("orc", "War Drummer")})
    assert fight_of(events)["totals"] == [3, 3, 1] and fight_of(events)["next"] == 1  # a tie: the Elf would stay
    assert st["alive"] == [True, False, True] and st["left"] == [[1]]
    assert [e["data"] for e in events if e["type"] == "battle"] == [{"n": 2, "attacker": 2, "order": [2, 0]}]
    assert st["attacker"] == 2 and st["battle"]["attacker"] == 2 and to_act(st) == [2]
    assert set(st) == keys


def test_rule_3p_two_opposing_play_limits_together_still_allow_one_card():
    """Card Text (Warlord: "**Attacking**: Each opponent may play only one card this battle";
    Ghoul: each opponent plays only one card): both against the Elf, its Archer is its one card
    and offers no other."""
    hands = [[cid("orc", "Warlord"), cid("orc", "Grunt")], [cid("undead", "Ghoul"), cid("undead", "Skeleton")],
             [cid("elf", "Archer"), cid("elf", "Lord")]]
    st = arrange(["orc", "undead", "elf"], hands, attacker=0)
    st = play(st, 0, cid("orc", "Warlord"))
    st = act(st, 0, {"type": "pass"})  # no Goblinoid to add
    st = play(st, 1, cid("undead", "Ghoul"))
    st, events = act_events(st, 2, {"type": "play", "card": cid("elf", "Archer")})
    assert fight_of(events)["totals"] == [7, 3, 2]  # the Archer brought no Lord
    assert cid("elf", "Lord") in st["zones"][2]["hand"]


# ----- 4 players ----------------------------------------------------------------------------

FOUR = ["orc", "elf", "undead", "dwarf"]


def test_rule_4p_team_skirmish_totals_losing_team_chooses_lead():
    """4-Player Team Rules: "The team losing the skirmish then decides which individual player
    is the lead attacker": either member of that team may answer."""
    st = fresh(FOUR, [[cid("orc", "Ogre")], [cid("elf", "Lord")], [cid("undead", "Mummy")], [cid("dwarf", "Miner")]])
    # 8 + 4 = 12 beats 8 + 1 = 9: Elf+Dwarf (seats 1 and 3) lose the skirmish and decide
    assert st["zones"][0]["discard"] == [cid("orc", "Ogre")] and st["zones"][2]["discard"] == [cid("undead", "Mummy")]
    assert st["zones"][1]["cemetery"] == [cid("elf", "Lord")] and st["zones"][3]["cemetery"] == [cid("dwarf", "Miner")]
    assert to_act(st) == [1, 3]
    choices = [{"type": "choose_attacker", "seat": s} for s in range(4)]
    assert moves(st, 1) == choices and moves(st, 3) == choices
    assert moves(st, 0) == [] and moves(st, 2) == []  # the winning team does not decide
    by_lower = act(st, 1, {"type": "choose_attacker", "seat": 3})
    assert by_lower["attacker"] == 3 and by_lower["battle"]["order"] == [3, 0, 1, 2]
    by_higher = act(st, 3, {"type": "choose_attacker", "seat": 0})  # the higher seat may decide as well
    assert by_higher["attacker"] == 0 and by_higher["battle"]["order"] == [0, 1, 2, 3]
    assert to_act(by_higher) == [0] and moves(by_higher, 1) == []  # one answer settles it for both


def test_rule_4p_team_skirmish_tie_all_again():
    st = fresh(FOUR, [[cid("orc", "Ogre"), cid("orc", "Goblin")], [cid("elf", "Lord"), cid("elf", "Scout")],
                      [cid("undead", "Skeleton"), cid("undead", "Ghost")], [cid("dwarf", "Miner"), cid("dwarf", "King")]])
    # first flip ties 9-9 (all discarded); second: Orc 1 + Undead 0 vs Elf 1 + Dwarf 8
    assert st["zones"][0]["discard"] == [cid("orc", "Ogre")]
    assert st["zones"][0]["cemetery"] == [cid("orc", "Goblin")]
    assert st["zones"][3]["discard"] == [cid("dwarf", "King"), cid("dwarf", "Miner")]
    assert to_act(st) == [0, 2]


def test_rule_4p_teammates_attack_together():
    hands = [[cid("orc", "Grunt"), cid("orc", "Raider")], [cid("elf", "Sentinel"), cid("elf", "Scout")],
             [cid("undead", "Death Knight"), cid("undead", "Ghoul")], [cid("dwarf", "Guard"), cid("dwarf", "Miner")]]
    st = arrange(FOUR, hands, attacker=2)
    assert st["battle"]["order"] == [2, 3, 0, 1]
    for seat in (2, 3, 0, 1):
        st, events = act_events(st, seat, {"type": "play", "card": hands[seat][0]})
    fight = fight_of(events)
    # Orc (not the lead) is attacking too: Grunt 5+1; Elf and Dwarf defend: Sentinel +1, Guard +2
    assert fight["totals"] == [6, 6, 7, 6]
    assert fight["winners"] == [2, 0] and st["attacker"] == 2  # attacking team won: the lead stays


def test_rule_4p_tie_everyone_loses_lead_stays():
    names = ["War Drummer", "Hunter", "Skeleton", "Miner"]
    hands = [[cid(f, n), cid(f, "Scout" if f == "elf" else n, 2)] for f, n in zip(FOUR, names)]
    st = arrange(FOUR, hands, attacker=0)
    for seat in (0, 1, 2, 3):
        st, events = act_events(st, seat, {"type": "play", "card": hands[seat][0]})
    fight = fight_of(events)
    assert fight["totals"] == [3, 3, 1, 1] and fight["winners"] == []  # 4 vs 4
    assert st["attacker"] == 0
    assert st["zones"][0]["cemetery"] == [cid("orc", "War Drummer")] and st["zones"][1]["cemetery"] == [cid("elf", "Hunter")]


def test_rule_4p_team_cemetery_60_ends_least_team_wins_teams_set():
    orc = [cid("orc", "Ogre"), cid("orc", "Warlord"), cid("orc", "Warlord", 2), cid("orc", "Battering Ram")]
    und = [cid("undead", "Bone Golem"), cid("undead", "Lich"), cid("undead", "Wraith"), cid("undead", "Death Knight"),
           cid("undead", "Death Knight", 2)]
    assert total_value(orc) + total_value(und) == 28 + 32
    hands = [[cid("orc", "Grunt"), cid("orc", "Raider")], [cid("elf", "Sentinel"), cid("elf", "Scout")],
             [cid("undead", "Mummy"), cid("undead", "Ghoul")], [cid("dwarf", "Guard"), cid("dwarf", "Miner")]]
    st = arrange(FOUR, hands, attacker=1, cemeteries=[orc, [], und, []])
    assert GAME.outcome(st) is None  # 60 already, but victory is checked at step 6 of a battle
    for seat in (1, 2, 3, 0):
        st = act(st, seat, {"type": "play", "card": hands[seat][0]})
    result = GAME.outcome(st)
    assert result.teams == [[0, 2], [1, 3]]
    assert result.ranks == [2, 1, 2, 1]
    assert result.scores[0] == result.scores[2] == 60  # "60 or more" ends the game


def test_rule_4p_equal_team_values_tie():
    from shared.games.fate_of_akalon.scoring import final_result

    st = arrange(FOUR, [[cid("orc", "Grunt")], [cid("elf", "Scout")], [cid("undead", "Mummy")], [cid("dwarf", "Guard")]],
                 attacker=0)
    res = final_result(st, [30, 40, 30, 20])
    assert res["ranks"] == [1, 1, 1, 1] and res["teams"] == [[0, 2], [1, 3]]


def test_rule_4p_hammer_chooses_lead_attacker_among_opponents():
    hands = [[cid("orc", "Grunt"), cid("orc", "Raider")], [cid("elf", "Sentinel"), cid("elf", "Scout")],
             [cid("undead", "Mummy"), cid("undead", "Ghoul")], [cid("dwarf", "Hammer"), cid("dwarf", "Miner")]]
    st = arrange(FOUR, hands, attacker=3)
    st = play(st, 3, cid("dwarf", "Hammer"))
    assert moves(st, 3) == [{"type": "target", "seat": 0}, {"type": "target", "seat": 2}]
    st = act(st, 3, {"type": "target", "seat": 2})
    for seat in (0, 1, 2):
        st = play(st, seat, hands[seat][0])
    assert st["attacker"] == 2 and st["battle"]["order"] == [2, 3, 0, 1]


def test_rule_3p_simultaneous_effects_clockwise_from_attacker():
    hands = [[cid("elf", "Enchantress"), cid("elf", "Scout")], [cid("orc", "Grunt"), cid("orc", "Kobold")],
             [cid("dwarf", "Brewer"), cid("dwarf", "Miner")]]
    st = arrange(["elf", "orc", "dwarf"], hands, attacker=1)
    st = play(st, 1, cid("orc", "Grunt"))
    st = play(st, 2, cid("dwarf", "Brewer"))
    st = play(st, 0, cid("elf", "Enchantress"))
    assert to_act(st) == [2]  # clockwise from the attacker (seat 1): the Dwarf before the Elf
    st = act(st, 2, {"type": "pass"})
    assert to_act(st) == [0]
    assert moves(st, 0) == [{"type": "play", "card": cid("elf", "Scout")}, {"type": "pass"}]


def test_rule_4p_setup_teammates_sit_across():
    """4-Player Team Rules: two teams of two, teammates across (seats 0+2 and 1+3); 2 and 3
    players play without teams."""
    for players, teams in ((2, None), (3, None), (4, [[0, 2], [1, 3]])):
        st = GAME.fold(GAME.setup(players, GAME.validate_options(players, {}), FastRng(players)))
        assert st["teams"] == teams
