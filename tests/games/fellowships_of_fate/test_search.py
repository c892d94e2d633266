"""What the search bot leans on in this game: the heuristic at its cut-off and the playout policy
(``heuristic.py``, ``playout.py``); and that ``search`` keeps answering legal moves with them."""
import pytest

from shared.bots.policies import search_policy
from shared.canonical import clone
from shared.games.fellowships_of_fate import heuristic as h
from shared.games.fellowships_of_fate.playout import playout_move
from shared.rng import FastRng

from .helpers import C, GAME, SKIP, act, explore, gain, give, moves, play, step, steps

HANDS = {0: ["warrior", "magician", "cleric", "sage"], 1: ["werewolf", "thief", "tactician", "archaeologist"]}


def test_heuristic_counts_the_members_still_in_hand():
    state = explore(2, HANDS)
    fewer = clone(state)
    fewer["seats"][0]["hand"].remove("warrior")
    assert h.heuristic(state, 0) > h.heuristic(fewer, 0)
    assert h.heuristic(state, 1) < h.heuristic(fewer, 1)


def test_heuristic_prefers_a_hand_of_stronger_members():
    state = explore(2, HANDS)
    weak = clone(state)
    weak["seats"][0]["hand"] = ["werewolf", "magician", "cleric", "sage"]  # no Overcome instead of one
    assert h.member_value("warrior") > h.member_value("werewolf")
    assert h.heuristic(state, 0) > h.heuristic(weak, 0)


def _last_round(state):
    state = clone(state)
    state["round"] = C.rounds
    return state


def test_heuristic_values_tokens_only_while_something_can_still_spend_them():
    state = _last_round(explore(2, HANDS))
    give(state, 0, strength=3, mana=3)
    assert h.tokens_live(state, 0)  # a Warrior in hand can still Overcome
    spent = clone(state)
    spent["seats"][0]["hand"] = ["sage"]  # no Overcome left to come this game
    assert not h.tokens_live(spent, 0)
    poorer = clone(spent)
    give(poorer, 0, strength=0, mana=0)
    assert h.heuristic(spent, 0) - h.heuristic(poorer, 0) == pytest.approx(6 * h.DEAD_TOKEN)


def test_heuristic_keeps_token_value_before_the_last_round():
    state = explore(2, HANDS)
    state["seats"][0]["hand"] = ["sage"]
    assert h.tokens_live(state, 0)
    richer = give(clone(state), 0, wisdom=2)
    assert h.heuristic(richer, 0) - h.heuristic(state, 0) == pytest.approx(2 * h.TOKEN)


def test_playout_formation_is_one_form_move_drawn_among_all_of_them():
    state = GAME.fold(GAME.setup(2, GAME.validate_options(2, {}), FastRng(3)))
    legal = GAME.legal_moves(state, 0)
    rng = FastRng(1)
    drawn = {tuple(playout_move(state, 0, legal, rng)["members"]) for _ in range(400)}
    assert len(drawn) > 100  # random over the 126, not always the first
    state, _ = act(state, 0, playout_move(state, 0, legal, rng))
    assert GAME.to_act(state) == [1]


def test_playout_carries_out_icons_instead_of_skipping_them():
    state = steps(explore(2, HANDS, start=0), play("magician", "nameless"))
    legal = moves(state)
    assert SKIP in legal
    assert playout_move(state, 0, legal, FastRng(0)) == gain("mana")


def test_playout_wild_icon_gains_some_token():
    state = steps(explore(2, HANDS, start=1), play("werewolf", "nameless"))
    legal = moves(state)
    assert len(legal) == len(C.tokens) + 1
    seen = {playout_move(state, 1, legal, FastRng(seed))["type"] for seed in range(20)}
    assert seen == {"gain"}


def test_playout_overcome_takes_the_card_with_the_most_vp():
    field = ["lurking_coyote", "misty_ravine", "cursed_bog", "forgotten_well"]
    state = explore(2, HANDS, start=0, field=field)
    give(state, 0, strength=5, mana=5, wisdom=5)
    state = steps(state, play("warrior", "legendary"))
    state = steps(state, play("werewolf", "nameless"), gain("wisdom"))  # seat 1's turn
    state = steps(state, {"type": "activate", "use": "member"}, gain("strength"), gain("strength"))
    legal = moves(state)
    assert {m["type"] for m in legal} == {"obtain", "skip"}
    assert playout_move(state, 0, legal, FastRng(0)) == {"type": "obtain", "card": "cursed_bog"}


@pytest.mark.parametrize("players", [2, 3])
def test_search_answers_a_legal_move_at_every_decision_of_a_match(players):
    state = GAME.fold(GAME.setup(players, GAME.validate_options(players, {}), FastRng(players)))
    rng = FastRng(7)
    decisions = 0
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        move = search_policy(GAME, GAME.view(state, seat), seat, legal, rng, iterations=8)
        assert move in legal
        GAME.advance(state, seat, move, rng)
        decisions += 1
    assert decisions > 0
