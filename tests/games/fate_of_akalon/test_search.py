"""The search bot on Fate of Akalon: its tuned parameters and the moves it finds."""
from shared.bots.ismcts import SearchParams, rewards
from shared.bots.policies import greedy_policy, search_policy
from shared.games.fate_of_akalon import GAME
from shared.rng import FastRng

from .helpers import arrange, cid, moves, play


def _defender_can_end_the_game():
    """Orc (cemetery 28) attacks with a War Drummer (3); the Elf defends holding a Sentinel
    (5+1 defending: wins, the Drummer goes to the Orc cemetery, 31: the game ends, the Elf wins)
    and a Scout (2: loses, the game goes on)."""
    orc_cem = [cid("orc", "Ogre"), cid("orc", "Warlord"), cid("orc", "Warlord", 2), cid("orc", "Battering Ram")]
    st = arrange(["orc", "elf"], [[cid("orc", "War Drummer"), cid("orc", "Grunt")],
                                  [cid("elf", "Sentinel"), cid("elf", "Scout")]],
                 attacker=0, cemeteries=[orc_cem, [cid("elf", "Lord")]])
    return play(st, 0, cid("orc", "War Drummer"))


def test_search_plays_the_card_that_wins_the_game():
    st = _defender_can_end_the_game()
    legal = moves(st, 1)
    assert len(legal) == 2
    for seed in range(3):
        move = search_policy(GAME, GAME.view(st, 1), 1, legal, FastRng(seed))
        assert move == {"type": "play", "card": cid("elf", "Sentinel")}


def test_search_reward_scale_keeps_a_one_card_lead_informative():
    """A lead of one mid card (a Grunt, 5, in the Orc cemetery) is a clear edge, not yet a sure
    win: the tuned ``scale`` matches the heuristic's units (cemetery value)."""
    st = arrange(["orc", "elf"], [[cid("orc", "War Drummer"), cid("orc", "Goblin")],
                                  [cid("elf", "Ranger"), cid("elf", "Scout")]],
                 attacker=0, cemeteries=[[cid("orc", "Grunt")], []])
    assert GAME.outcome(st) is None
    lead = GAME.heuristic(st, 1) - GAME.heuristic(st, 0)
    assert 8 < lead < 14  # each seat's heuristic counts the 5 points: 2 x 5, plus the hands
    r = rewards(GAME, st, SearchParams.for_game(GAME).scale)
    assert 0.6 < r[1] < 0.9 and 0.1 < r[0] < 0.4


def test_greedy_also_finds_the_winning_card():
    """The same position for the greedy level (the villain the search is measured against)."""
    st = _defender_can_end_the_game()
    move = greedy_policy(GAME, GAME.view(st, 1), 1, moves(st, 1), FastRng(0))
    assert move == {"type": "play", "card": cid("elf", "Sentinel")}

