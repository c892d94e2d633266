"""The distinct parts of a hand (sub-multisets), for choices made as one move: a bid, the cards
kept over the hand limit. Copies of one card are alike, so a hand of ``k`` different cards with
``c1 .. ck`` copies has ``(c1 + 1) * .. * (ck + 1)`` parts — at most ``2 ** len(hand)``."""
from __future__ import annotations

from collections import Counter
from itertools import product


def parts(cards, size: int | None = None) -> list[list[str]]:
    """Every distinct part of ``cards`` (of ``size`` cards, if given), each sorted; in a fixed
    order: by how many copies of each card (in card order) it takes."""
    names = sorted(Counter(cards).items())
    out = []
    for copies in product(*(range(n + 1) for _, n in names)):
        if size is None or sum(copies) == size:
            out.append([name for (name, _), k in zip(names, copies) for _ in range(k)])
    return out
