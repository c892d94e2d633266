"""The points scheme, stated once.

A table's ranks give each entrant the share of its opponents it beat: 1 for each opponent ranked
below, 1/2 for each tied, divided by the number of opponents. Two players: a win 1, a draw 1/2, a
loss 0; four players ranked 1,2,3,4: 1, 2/3, 1/3, 0. A team game scores by side: the opponents are
the other sides (a teammate is neither beaten nor tied). A bye is worth a win (1); a forfeit 0.

Arena: a win (rank 1 alone) is 2 points, a draw or shared first 1, else 0; on a streak (the two
previous results both wins) each is doubled.
"""
from __future__ import annotations

BYE_POINTS = 1.0


def table_points(ranks: list[int], teams: list[list[int]] | None = None) -> list[float]:
    """Each seat's points from the seats' ranks (1 = best; equal ranks tie)."""
    n = len(ranks)
    side = list(range(n))
    if teams:
        for t, seats in enumerate(teams):
            for s in seats:
                side[s] = n + t
    out = []
    for s in range(n):
        opponents = [o for o in range(n) if side[o] != side[s]]
        if not opponents:
            out.append(0.0)
            continue
        beaten = sum(1.0 if ranks[o] > ranks[s] else 0.5 if ranks[o] == ranks[s] else 0.0 for o in opponents)
        # a team game: each other side counts once
        if teams:
            sides = {side[o] for o in opponents}
            beaten = sum(next(1.0 if ranks[o] > ranks[s] else 0.5 if ranks[o] == ranks[s] else 0.0
                              for o in range(n) if side[o] == sd) for sd in sides)
            opponents = list(sides)
        out.append(beaten / len(opponents))
    return out


def arena_points(ranks: list[int], seat: int, streak: int) -> float:
    """One arena result: 2 for a win, 1 for a draw/shared first, 0 otherwise; doubled on a streak
    (``streak``: consecutive wins just before this one, 2 or more)."""
    first = [s for s, r in enumerate(ranks) if r == min(ranks)]
    base = 0 if ranks[seat] != min(ranks) else (2 if len(first) == 1 else 1)
    return base * (2 if streak >= 2 else 1)


def is_win(ranks: list[int], seat: int) -> bool:
    return ranks[seat] == min(ranks) and ranks.count(min(ranks)) == 1
