"""Round robin by the circle method: every entrant meets every other exactly once; with an odd
count a phantom entrant is added and whoever it meets has the bye that round."""
from __future__ import annotations

from . import Table

PHANTOM = None


def schedule(entrants: list[str]) -> list[tuple[list[Table], list[str]]]:
    """Every round's (tables, byes): n-1 rounds for an even n, n rounds for an odd n."""
    ring: list[str | None] = list(entrants)
    if len(ring) < 2:
        return []
    if len(ring) % 2:
        ring.append(PHANTOM)
    n = len(ring)
    rounds = []
    for r in range(n - 1):
        tables, byes = [], []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is PHANTOM or b is PHANTOM:
                byes.append(a if b is PHANTOM else b)
            else:
                tables.append((a, b) if (r + i) % 2 == 0 else (b, a))  # alternate who sits first
        rounds.append((tables, byes))
        ring = [ring[0], ring[-1]] + ring[1:-1]  # fix the first, rotate the rest one place
    return rounds
