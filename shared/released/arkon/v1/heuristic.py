"""The greedy bot's evaluation of a state for one seat.

It first lets whatever is already decided play out as if nobody answers (an action card in its
window resolves, a won bid passes its Sabotage window), then weighs: clans toward a win (steeply),
opponents' best progress, the hand's worth, the expected result of a bid in progress, and what
a pending choice is about to bring.
"""
from __future__ import annotations

import math

from shared.engine import Tx
from shared.rng import FastRng

from .cards import CARDS, influence
from .clans import passive_influence, progress
from .flow import advance

#: Worth of being 0..4 clans toward a win (steep: the last clans matter most).
PROGRESS_WORTH = (0.0, 1.0, 2.4, 4.5, 20.0)
EXTRA_CLAN = 0.4  # a clan beyond the best set: passive influence and a buffer against Desolate
OPPONENT_WEIGHT = 0.8
CARD_BASE = 0.35
#: Weight of the hand's best, second best, ... card: a full hand gains little from one more card
#: (draws stop at the hand limit), so a crowded hand is worth spending.
HAND_WEIGHTS = (1.0, 1.0, 1.0, 1.0, 1.0, 0.7, 0.5, 0.3)


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


def _without(cards: list[str], taken: list[str]) -> list[str]:
    rest = list(cards)
    for c in taken:
        rest.remove(c)
    return rest


def played_out(game, state: dict) -> dict:
    """The state once an open window closes unanswered (a scratch copy; the log is untouched)."""
    if not state["window"]:
        return state
    tx = Tx(game, state, FastRng(0))
    tx.state["window"] = None
    advance(tx)
    return tx.state


def _bid_chances(s: dict, seat: int) -> tuple[dict[int, float], list[str]]:
    """Each seat's chance to win the open bid, and the cards ``seat`` has put into it (before
    the reveal those cards are still in its hand)."""
    bid = s["bid"]
    n = s["players"]
    c = bid["commit"]
    drafting = c["seats"][len(c["values"])] if c and len(c["values"]) < len(c["seats"]) else None
    total: dict[int, float] = {}
    mine: list[str] = []
    for i in range(n):
        if bid["revealed"] is not None:
            placed, done = bid["revealed"][str(i)], True
        elif str(i) in c["values"]:
            placed, done = c["values"][str(i)], True
        else:
            placed, done = (bid["draft"] if i == drafting else []), False
        if i == seat:
            mine = placed
        t = influence(placed) + passive_influence(s["clans"][i])
        if i == bid["bidder"]:
            t += CARDS[bid["clan"]].influence
        if not done:  # what it may still add from the cards it has not decided about
            undecided = sorted(s["hands"][i])[bid["step"]:] if i == drafting else s["hands"][i]
            t += 0.35 * influence(undecided)
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
    s = played_out(game, state)
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
        if bid["revealed"] is None:
            hand = _without(hand, mine)
    score += position(clans[seat])
    score -= OPPONENT_WEIGHT * max(position(clans[i]) for i in range(n) if i != seat)
    score += hand_worth(hand, clans[seat])
    score += _pending_bonus(s, seat)
    if s["turn"] == seat and s["put_up"]:
        score += 0.5  # the extra card at the end of the turn
    return score
