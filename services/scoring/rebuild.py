"""Drop every piece of scoring data and score the finished-matches stream again from its start.

``python -m services.scoring.rebuild`` — the leaderboards come back identical, because scoring
is a pure fold of that stream.
"""
from __future__ import annotations

import redis

from shared.config import load
from shared.streams import MATCHES_FINISHED, read_all

from .store import ScoringStore


def rebuild(client: redis.Redis) -> int:
    store = ScoringStore(client)
    store.drop_all()
    n = 0
    for _id, message in read_all(client, MATCHES_FINISHED):
        if store.record(message) is not None:
            n += 1
    return n


def main() -> None:
    n = rebuild(redis.Redis.from_url(load().redis_url))
    print(f"rescored {n} finished matches")


if __name__ == "__main__":
    main()
