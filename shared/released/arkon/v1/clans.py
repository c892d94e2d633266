"""The win condition: four different clans or four of one clan (a wild clan fills either)."""
from __future__ import annotations

from .cards import CARDS, WIN_CLANS


def progress(clans: list[str]) -> int:
    """How far a set of clans in play is toward a win (``WIN_CLANS`` means won)."""
    wild = 0
    kinds: dict[str, int] = {}
    for c in clans:
        t = CARDS[c].clan
        if t == "any":
            wild += 1
        else:
            kinds[t] = kinds.get(t, 0) + 1
    same = max(kinds.values(), default=0)
    return min(WIN_CLANS, max(same, len(kinds)) + wild)


def has_won(clans: list[str]) -> bool:
    return len(clans) >= WIN_CLANS and progress(clans) >= WIN_CLANS


def passive_influence(clans: list[str]) -> int:
    return sum(CARDS[c].passive for c in clans)
