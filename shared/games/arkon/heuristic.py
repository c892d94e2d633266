"""The greedy bot's evaluation of a state for one seat.

It first lets whatever is already decided play out as if nobody answers (an action card in its
window resolves, a won bid passes its Sabotage window), then weighs: clans toward a win
(steeply), opponents' best progress, the hand's worth (less a little for each card of it
everyone knows), the expected result of a bid in progress, and what a pending choice is about
to bring.
"""
from __future__ import annotations

import math

from shared.engine import Tx
from shared.rng import FastRng

from .bidding import passive_influence
from .content import CARDS, influence
from .flow import advance
from .scoring import progress

#: Worth of being 0..4 clans toward a win (steep: the last clans matter most).
PROGRESS_WORTH = (0.0, 1.0, 2.4, 4.5, 20.0)
EXTRA_CLAN = 0.4  # a clan beyond the best set: passive influence and a buffer against Desolate
OPPONENT_WEIGHT = 0.8
CARD_BASE = 0.35
#: Weight of the hand's best, second best, ... card: a full hand gains little from one more card
#: (draws stop at the hand limit), so a crowded hand is worth spending.
HAND_WEIGHTS = (1.0, 1.0, 1.0, 1.0, 1.0, 0.7, 0.5, 0.3)
#: Cost of each card of one's hand that everyone knows (a bid that could not win only shows cards).
KNOWN_CARD_COST = 0.02
#: At most this many automatic steps are played out (an action window, a bid, its Sabotage window).
PLAY_OUT_STEPS = 4


def position(clans: list[str]) -> float:
    return PROGRESS_WORTH[progress(clans)] + EXTRA_CLAN * len(clans)


def card_worth(card: str, clans: list[str]) -> float:
    """What holding a card is worth: its influence, plus use as an action, response or clan."""
    c = CARDS[card]
    worth = CARD_BASE + 0.1 * c.influence
    if c.is_clan and progress(clans + [card]) > progress(clans):
        worth += 0.4
    elif c.playable_as_action or c.response:
        worth += 0.3
    return worth


def hand_worth(hand: list[str], clans: list[str]) -> float:
    worths = sorted((card_worth(c, clans) for c in hand), reverse=True)
    return sum(w * HAND_WEIGHTS[min(i, len(HAND_WEIGHTS) - 1)] for i, w in enumerate(worths))


def played_out(game, state: dict, seat: int) -> dict:
    """The state once what is already decided plays out (a scratch copy; the log is untouched):
    open windows close unanswered."""
    if not state["window"]:
        return state
    tx = Tx(game, state, FastRng(0))
    for _ in range(PLAY_OUT_STEPS):
        s = tx.state
        if s["winners"] or s["pending"]:
            break
        if s["window"]:
            s["window"] = None
        else:
            break
        advance(tx)
    return tx.state


def _bid_chances(s: dict, seat: int) -> tuple[dict[int, float], list[str]]:
    """Each seat's chance to win the open bid, and the cards ``seat`` has put into it; a seat
    still to bid may add part of its hand."""
    bid = s["bid"]
    n = s["players"]
    c = bid["commit"]
    total: dict[int, float] = {}
    mine: list[str] = []
    for i in range(n):
        if bid["revealed"] is not None:
            placed, done = bid["revealed"][str(i)], True
        elif str(i) in c["values"]:
            placed, done = c["values"][str(i)], True
        else:
            placed, done = [], False
        if i == seat:
            mine = placed
        t = influence(placed) + passive_influence(s["clans"][i])
        if i == bid["bidder"]:
            t += CARDS[bid["clan"]].influence
        if not done:  # what it may still bid
            t += 0.35 * influence(s["hands"][i])
        total[i] = t + 0.01 * (n - (i - bid["bidder"]) % n)  # ties go to the earliest bidder
    top = max(total.values())
    weights = {i: math.exp(1.5 * (t - top)) for i, t in total.items()}
    z = sum(weights.values())
    return {i: w / z for i, w in weights.items()}, mine


def _pending_bonus(s: dict, seat: int) -> float:
    """What a decision about to be taken brings (the chooser picks well)."""
    score = 0.0
    for d in s["pending"]:
        who = d["seat"]
        sign = 1.0 if who == seat else -OPPONENT_WEIGHT / max(1, s["players"] - 1)
        if d["kind"] == "steal":
            hand = s["hands"][d["target"]]
            best = max((card_worth(c, s["clans"][who]) for c in hand), default=0.0)
            score += sign * best
            if d["target"] == seat:
                score -= best
        elif d["kind"] in ("cycle", "iverion_bottom", "vale"):
            score += sign * 0.5
    return score


def heuristic(game, state: dict, seat: int) -> float:
    s = played_out(game, state, seat)
    n = s["players"]
    clans = [list(c) for c in s["clans"]]
    hand = s["hands"][seat]
    bid = s["bid"]
    score = 0.0
    if bid and bid["winner"] is not None:
        clans[bid["controller"]].append(bid["clan"])
    elif bid:
        chance, mine = _bid_chances(s, seat)
        for i in range(n):
            gain = position(clans[i] + [bid["clan"]]) - position(clans[i])
            score += chance[i] * gain * (1.0 if i == seat else -OPPONENT_WEIGHT)
        score += (1 - chance[seat]) * sum(card_worth(c, clans[seat]) for c in mine)
    score += position(clans[seat])
    score -= OPPONENT_WEIGHT * max(position(clans[i]) for i in range(n) if i != seat)
    score += hand_worth(hand, clans[seat])
    score -= KNOWN_CARD_COST * len(s["known"][seat])
    score += _pending_bonus(s, seat)
    if s["turn"] == seat and s["put_up"]:
        score += 0.5  # the extra card at the end of the turn
    return score
