"""Arena pairing (Lichess style): whoever is free is paired again as soon as enough others are,
preferring near score and avoiding an immediate rematch.

``pair`` takes the free entrants (in the order they became free), their points, each one's last
table, the table size and whether anyone else is still playing. Free entrants sorted by points are
seated in tables of ``size``, each taking the nearest in points whose last table it was not. An
immediate rematch is made only when nobody else will become free (nobody is playing) — otherwise
those entrants wait for the next one to finish."""
from __future__ import annotations

from . import Table


def pair(free: list[str], points: dict[str, float], last: dict[str, Table], size: int,
         others_playing: bool) -> list[Table]:
    queue = sorted(free, key=lambda e: (-points.get(e, 0), free.index(e)))
    tables: list[Table] = []
    while len(queue) >= size:
        pod = [queue.pop(0)]
        for _ in range(size - 1):
            fresh = [c for c in queue if not any(c in last.get(p, ()) for p in pod)]
            if fresh:
                pick = fresh[0]
            elif not others_playing:
                pick = queue[0]
            else:
                break
            queue.remove(pick)
            pod.append(pick)
        if len(pod) < size:
            # the pod's leader waits; the ones it took go back, to be seated with others
            queue[0:0] = sorted(pod[1:], key=lambda e: (-points.get(e, 0), free.index(e)))
            continue
        tables.append(tuple(pod))
    return tables
