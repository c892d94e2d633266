"""Tables of three or more ("pods", as at multiplayer card-game events).

The remainder of the count modulo the table size sits out with a bye: those with the fewest byes,
lowest standing first. The rest are seated pod by pod from the top of the standings: each pod
starts with the best unseated entrant and takes, one at a time, the unseated entrant with the
fewest earlier meetings with the pod so far (then the nearest in standing). A greedy rule, stated:
it keeps pods near in standing and repeats few opponents, without an exhaustive search."""
from __future__ import annotations

from . import Table, met_counts


def byes_for(order: list[str], size: int, byes: dict[str, int]) -> list[str]:
    """Who sits out: ``len(order) % size`` entrants, fewest byes first, lowest standing first."""
    extra = len(order) % size if len(order) >= size else len(order)
    ranked = sorted(range(len(order)), key=lambda i: (byes.get(order[i], 0), -i))
    return [order[i] for i in sorted(ranked[:extra])]


def pair(order: list[str], size: int, history: list[Table], byes: dict[str, int]) -> tuple[list[Table], list[str]]:
    """The next round's pods of ``size`` and its byes. ``order`` is the standing order, best first."""
    out = byes_for(order, size, byes)
    left = [e for e in order if e not in out]
    pos = {e: i for i, e in enumerate(order)}
    met = met_counts(history)
    tables: list[Table] = []
    while left:
        pod = [left.pop(0)]
        while len(pod) < size:
            best = min(left, key=lambda c: (sum(met.get(frozenset((c, p)), 0) for p in pod), pos[c] - pos[pod[0]]))
            left.remove(best)
            pod.append(best)
        tables.append(tuple(pod))
    return tables, out


def cover_pair(entrants: list[str], size: int, history: list[Table], byes: dict[str, int]) -> tuple[list[Table], list[str]]:
    """A round robin's next round for tables of three or more: the entrant with the most opponents
    not yet met leads each pod, so every pair meets (at least once) within a bounded number of
    rounds. ``[]`` tables once every pair has met."""
    met = met_counts(history)
    unmet = {e: sum(1 for o in entrants if o != e and frozenset((e, o)) not in met) for e in entrants}
    if not any(unmet.values()):
        return [], []
    order = sorted(entrants, key=lambda e: (-unmet[e], entrants.index(e)))
    return pair(order, size, history, byes)
