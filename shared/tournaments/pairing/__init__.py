"""Pure pairing functions (no Flask, no Redis): each takes the standing order and the history and
returns who plays whom. ``Table`` is a tuple of entrant ids (its seat order)."""
from __future__ import annotations

from itertools import combinations
from typing import Iterable

Table = tuple[str, ...]


def met_counts(history: Iterable[Table]) -> dict[frozenset, int]:
    """How often each pair of entrants has sat at one table."""
    counts: dict[frozenset, int] = {}
    for table in history:
        for a, b in combinations(table, 2):
            pair = frozenset((a, b))
            counts[pair] = counts.get(pair, 0) + 1
    return counts
