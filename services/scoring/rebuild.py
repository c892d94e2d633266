"""Drop every piece of scoring data and score every finished match again, in the order first scored.

``python -m services.scoring.rebuild`` — the leaderboards come back identical, because scoring is
a pure fold of its inputs (``{scoring}:inputs``: each finished-match message, as received).
"""
from __future__ import annotations

import redis

from shared.canonical import loads
from shared.config import load, store_client

from .store import INPUTS, ScoringStore

REPLAYING = INPUTS + ":rebuilding"


def rebuild(client: redis.Redis, chunk: int = 500) -> int:
    """Returns how many matches were scored again. Safe to run again after a crash midway."""
    store = ScoringStore(client)
    if client.exists(INPUTS) and not client.exists(REPLAYING):
        client.rename(INPUTS, REPLAYING)
    store.drop_all(keep=(REPLAYING,))
    n, start = 0, 0
    while True:
        batch = client.lrange(REPLAYING, start, start + chunk - 1)
        for raw in batch:
            if store.record(loads(raw)) is not None:
                n += 1
        if len(batch) < chunk:
            break
        start += chunk
    client.delete(REPLAYING)
    return n


def main() -> None:
    n = rebuild(store_client(load()))
    print(f"rescored {n} finished matches")


if __name__ == "__main__":
    main()
