"""When finished matches are compacted: ``COMPACT_AFTER_S`` after their end, by the rules consumer.

``schedule`` (a follow-up of a finished match, ``Followups.after_change``) puts the match in the
sorted set ``rules:compactions`` scored by when it falls due; ``sweep`` (the rules consumer, every
second or so) claims the due ones with a lease (``shared.due``: replicas never take the same match
at once, and a consumer killed mid-way leaves it to fall due again), compacts each
(``shared.eventstore.compaction``, idempotent and crash-safe) and removes it. A log that cannot be
compacted faithfully is left as it is and recorded in ``rules:compaction-refused``.
"""
from __future__ import annotations

import logging
import time

import redis

from shared.due import DueSet
from shared.eventstore.compaction import CompactionRefused, Compactor
from shared.eventstore.store import EventStore

log = logging.getLogger("rules.compactions")

COMPACTIONS = "rules:compactions"        # sorted set: match id -> when it is to be compacted
REFUSED = "rules:compaction-refused"     # hash: match id -> why its log was left uncompacted
LEASE_S = 120                            # a claimed compaction not done by then is taken again


class Compactions:
    def __init__(self, client: redis.Redis, store: EventStore, after_s: float | None):
        self.r = client
        self.after_s = after_s  # None: compaction off (``make compact`` still compacts the backlog)
        self.compactor = Compactor(store)
        self.due = DueSet(client, COMPACTIONS)

    def schedule(self, match_id: str) -> None:
        """Compact the (finished) match ``COMPACT_AFTER_S`` from now; a match already scheduled
        keeps its time."""
        if self.after_s is not None:
            self.r.zadd(COMPACTIONS, {match_id: time.time() + self.after_s}, nx=True)

    def sweep(self, limit: int = 20) -> int:
        """Compact the matches that fell due (at most ``limit``). Returns how many were handled."""
        due = self.due.claim(time.time(), LEASE_S, limit)
        for match_id in due:
            try:
                outcome = self.compactor.compact(match_id)
            except CompactionRefused as err:
                log.error("match %s not compacted: %s", match_id, err)
                self.r.hset(REFUSED, match_id, str(err))
            else:
                log.info("match %s: %s", match_id, outcome)
            self.r.zrem(COMPACTIONS, match_id)
        return len(due)
