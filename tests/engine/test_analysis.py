"""The judge (shared.bots.analysis): it finds a known best move, prices a known blunder, agrees
with itself, and judges a seat only by what that seat could see."""
from __future__ import annotations

import pytest

from shared.bots import analysis
from shared.bots.analysis import Decision, decisions, judge, summarize
from shared.engine import registry
from tests.support.pile import PILE


def _decision(stones: int, take: int) -> Decision:
    state = {"stones": stones, "turn": 0, "winner": None}
    return Decision(3, 0, PILE.view(state, 0), PILE.legal_moves(state, 0), {"type": "take", "n": take})


@pytest.mark.parametrize("stones, winning", [(3, 3), (5, 1), (6, 2), (7, 3)])
def test_the_known_best_move_is_found_and_every_other_move_loses_value(stones, winning):
    for take in (1, 2, 3):
        v = judge(PILE, _decision(stones, take), budget=200)
        assert v.best == {"type": "take", "n": winning}
        assert 0.0 <= v.value_played <= v.value_best <= 1.0
        if take == winning:
            assert v.loss == 0.0
        else:
            assert v.loss > 0.2, v  # a blunder: it hands the opponent a won game


def test_a_verdict_is_the_same_every_time_and_depends_on_the_budget_asked():
    d = _decision(7, 1)
    assert judge(PILE, d, budget=120) == judge(PILE, d, budget=120)
    assert judge(PILE, d, budget=120, match_id="m1").loss > 0


def _duel_log(opponent_hand: list[int]) -> list[dict]:
    """A one-round duel: seat 0 holds 1, 5, 9; seat 1 holds ``opponent_hand``; seat 0 commits 5 first."""
    mine = [1, 5, 9]
    deck = [c for c in range(1, 13) if c not in mine + opponent_hand]
    hands = {"0": mine, "1": opponent_hand}
    recs = [
        {"type": "match.created", "data": {"match_id": "m", "game": "duel", "engine": registry.get("duel").version,
                                           "options": {"rounds": 1}, "seats": [{"bot": "random"}, {"bot": "random"}],
                                           "seed_commitment": "00", "turn_seconds": None}},
        {"type": "dealt", "data": {"players": 2, "rounds": 1},
         "private": {s: {"hand": h} for s, h in hands.items()}, "secret": {"deck": deck, "hands": hands}},
        {"type": "committed", "data": {"seat": 0}, "secret": {"card": 5}, "cause": {"seat": 0, "move": {"type": "commit", "card": 5}}},
        {"type": "committed", "data": {"seat": 1}, "secret": {"card": opponent_hand[0]},
         "cause": {"seat": 1, "move": {"type": "commit", "card": opponent_hand[0]}}},
    ]
    for i, rec in enumerate(recs, start=1):
        rec.update(seq=i, hash=f"h{i}")
    return recs


def test_re_dealing_what_the_seat_could_not_see_changes_nothing_in_its_verdict():
    game = registry.get("duel")
    a = [d for d in decisions(_duel_log([2, 6, 10])) if d.seat == 0]
    b = [d for d in decisions(_duel_log([4, 8, 12])) if d.seat == 0]
    assert len(a) == len(b) == 1
    assert a[0].view == b[0].view  # the seat's information is the same in both worlds
    va, vb = judge(game, a[0], budget=150, match_id="m"), judge(game, b[0], budget=150, match_id="m")
    assert va == vb
    # the opponent's decisions differ (its hand does), so the judge did see a different log
    assert [d.legal for d in decisions(_duel_log([2, 6, 10])) if d.seat == 1] != \
           [d.legal for d in decisions(_duel_log([4, 8, 12])) if d.seat == 1]


def test_decisions_skip_forced_moves_and_carry_the_move_played():
    ds = list(decisions(_duel_log([2, 6, 10])))
    assert [(d.version, d.seat, d.played["card"]) for d in ds] == [(2, 0, 5), (3, 1, 2)]
    assert ds[0].view["hands"]["1"] == {"count": 3}  # the view, not the true state


def test_summary_bands_each_decision_once_by_the_game_thresholds():
    t = analysis.thresholds("duel")
    assert 0 < t["inaccuracy"] < t["mistake"] < t["blunder"] <= 1
    verdicts = [{"seat": 0, "loss": 0.0}, {"seat": 0, "loss": t["blunder"]}, {"seat": 1, "loss": t["inaccuracy"]},
                {"seat": 1, "loss": t["mistake"]}]
    s0, s1 = summarize("duel", 2, verdicts)
    assert (s0["decisions"], s0["blunders"], s0["mistakes"], s0["inaccuracies"]) == (2, 1, 0, 0)
    assert (s1["decisions"], s1["blunders"], s1["mistakes"], s1["inaccuracies"]) == (2, 0, 1, 1)
    assert s0["mean_loss"] == round(t["blunder"] / 2, 4) and s0["accuracy"] == round(100 * (1 - s0["mean_loss"]), 1)
