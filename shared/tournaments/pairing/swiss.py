"""Swiss pairing of two-player rounds by maximum-weight matching (networkx).

One matching decides the whole round, byes included: the bye is a virtual vertex. Priorities, each
strictly above the next (the weights are scaled so that no amount of a lower one outweighs one unit
of a higher one): 1. nobody gets a second bye while someone without one could take it; 2. no
rematch while a pairing without it exists (fewest rematches); 3. partners of equal or near score
(score groups: the squared difference in half-points), and the bye to the lowest standing.
"""
from __future__ import annotations

import networkx as nx

from . import Table, met_counts

BYE = "\0bye"


def pair(order: list[str], points: dict[str, float], history: list[Table], byes: dict[str, int]) -> tuple[list[Table], list[str]]:
    """The tables and byes of the next round. ``order`` lists the active entrants best first;
    ``points`` their scores; ``history`` every table played so far; ``byes`` how many each had."""
    players = list(order)
    if len(players) < 2:
        return [], players
    met = met_counts(history)
    half = {e: round(2 * points.get(e, 0)) for e in players}
    spread = (max(half.values()) - min(half.values()) + 1) ** 2 + len(players)
    score_unit = 1
    rematch_unit = spread * len(players) + 1
    bye_unit = rematch_unit * (len(players) ** 2 + 1)
    top = bye_unit * (len(players) + 1)
    g = nx.Graph()
    pos = {e: i for i, e in enumerate(players)}
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            cost = rematch_unit * met.get(frozenset((a, b)), 0) + score_unit * (half[a] - half[b]) ** 2
            g.add_edge(a, b, weight=top - cost)
    if len(players) % 2:
        for e in players:
            # the lowest standing takes the bye: cost falls with the position in the order
            cost = bye_unit * byes.get(e, 0) + score_unit * (len(players) - pos[e])
            g.add_edge(BYE, e, weight=top - cost)
    matching = nx.max_weight_matching(g, maxcardinality=True)
    tables: list[Table] = []
    bye_list: list[str] = []
    for a, b in matching:
        if BYE in (a, b):
            bye_list.append(b if a == BYE else a)
        else:
            tables.append(tuple(sorted((a, b), key=pos.__getitem__)))
    tables.sort(key=lambda t: pos[t[0]])
    return tables, bye_list
