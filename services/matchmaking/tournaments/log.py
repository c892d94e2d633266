"""A tournament's own event log (records as ``shared.tournaments.chain`` seals them).

Stored as one Redis list per tournament, ``{t:<id>}:log``, appended with the expected length
(optimistic concurrency, as for a match): of two racing appends on one version exactly one wins.
"""
from __future__ import annotations

import time

import redis

from shared.canonical import dumps, loads
from shared.tournaments.chain import build_records


class Conflict(Exception):
    """The log moved on since it was read."""


def log_key(tournament_id: str) -> str:
    return f"{{t:{tournament_id}}}:log"


class TournamentLog:
    def __init__(self, client: redis.Redis, clock=time.time):
        self.r = client
        self.clock = clock

    def read(self, tournament_id: str) -> list[dict]:
        return [loads(raw) for raw in self.r.lrange(log_key(tournament_id), 0, -1)]

    def exists(self, tournament_id: str) -> bool:
        return bool(self.r.exists(log_key(tournament_id)))

    def append(self, tournament_id: str, expected: list[dict], events: list[dict]) -> list[dict]:
        """Append ``events`` after exactly the records ``expected``; ``Conflict`` if the log moved."""
        k = log_key(tournament_id)
        records = build_records(expected, events, self.clock())
        with self.r.pipeline() as pipe:
            try:
                pipe.watch(k)
                if pipe.llen(k) != len(expected):
                    raise Conflict(tournament_id)
                pipe.multi()
                pipe.rpush(k, *[dumps(r) for r in records])
                pipe.execute()
            except redis.WatchError:
                raise Conflict(tournament_id) from None
        return expected + records
