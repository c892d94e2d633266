"""The greedy bot's evaluation: clans toward a win, the hand's quality, opponents' progress,
and the expected result of a bid in progress."""
from __future__ import annotations

import math

from .cards import CARDS, influence
from .clans import passive_influence, progress

#: Worth of being 0..4 clans toward a win (steep: the last clans matter most).
PROGRESS_WORTH = (0.0, 1.0, 2.4, 4.5, 20.0)
EXTRA_CLAN = 0.4  # a clan beyond the best set: passive influence and a buffer against Desolate
OPPONENT_WEIGHT = 0.8


def position(clans: list[str]) -> float:
    return PROGRESS_WORTH[progress(clans)] + EXTRA_CLAN * len(clans)


def card_worth(card: str, clans: list[str]) -> float:
    """What holding a card is worth: its influence, plus use as an action, response or clan."""
    c = CARDS[card]
    worth = 0.3 + 0.12 * c.influence
    if c.is_clan and progress(clans + [card]) > progress(clans):
        worth += 0.6
    elif c.playable_as_action or c.response:
        worth += 0.3
    return worth


def _bid_estimate(s: dict, seat: int) -> tuple[dict[int, float], dict[int, list[str]]]:
    """Each seat's chance to win the open bid and the cards it has committed to it."""
    bid = s["bid"]
    n = s["players"]
    cards: dict[int, list[str]] = {}
    total: dict[int, float] = {}
    c = bid["commit"]
    drafting = c["seats"][len(c["values"])] if c and len(c["values"]) < len(c["seats"]) else None
    for i in range(n):
        if bid["revealed"] is not None:
            placed, done = bid["revealed"][str(i)], True
        elif str(i) in c["values"]:
            placed, done = c["values"][str(i)], True
        else:
            placed, done = (bid["draft"] if i == drafting else []), False
        cards[i] = placed
        t = influence(placed) + passive_influence(s["clans"][i])
        if i == bid["bidder"]:
            t += CARDS[bid["clan"]].influence
        if not done and i != seat:
            t += 0.4 * influence(s["hands"][i])  # what it may still add
        total[i] = t + 0.01 * (n - (i - bid["bidder"]) % n)  # ties go to the earliest bidder
    weights = {i: math.exp(1.2 * t) for i, t in total.items()}
    z = sum(weights.values())
    return {i: w / z for i, w in weights.items()}, cards


def heuristic(s: dict, seat: int) -> float:
    n = s["players"]
    clans = [list(c) for c in s["clans"]]
    hands = s["hands"]
    bid = s["bid"]
    score = 0.0
    held_bid: list[str] = []
    if bid and bid["winner"] is not None:
        clans[bid["controller"]].append(bid["clan"])
    elif bid:
        chance, cards = _bid_estimate(s, seat)
        held_bid = cards[seat]
        for i in range(n):
            gain = position(clans[i] + [bid["clan"]]) - position(clans[i])
            score += chance[i] * gain * (1.0 if i == seat else -OPPONENT_WEIGHT / (n - 1))
        score += (1 - chance[seat]) * sum(card_worth(c, clans[seat]) for c in held_bid)
    score += position(clans[seat])
    score -= OPPONENT_WEIGHT * max(position(clans[i]) for i in range(n) if i != seat)
    score += sum(card_worth(c, clans[seat]) for c in hands[seat])
    score -= 0.1 * sum(len(hands[i]) for i in range(n) if i != seat) / (n - 1)
    return score
