"""Compact finished matches now (the backlog), whatever ``COMPACT_AFTER_S`` says.

``python -m services.rules.compact``             — every finished or aborted match not yet compacted
``python -m services.rules.compact --match ID``  — only these matches (repeatable)

Safe beside running services (a compacted match reads back the same) and safe to interrupt or run
twice: each compaction is idempotent and crash-safe (``shared.eventstore.compaction``). Walks
every match's meta with ``SCAN`` — an operator's command, never a request path. The Redis: the
environment's (``REDIS_URL``...), else that of the stack ``make run`` recorded (``shared.stackfile``).
"""
from __future__ import annotations

import argparse
import collections
import logging

from shared import stackfile
from shared.config import load, store_client
from shared.eventstore.compaction import COMPACTED, CompactionRefused, Compactor
from shared.eventstore.store import EventStore, keys

from .compactions import COMPACTIONS, REFUSED


def backlog(store: EventStore):
    """Match ids whose meta says finished or aborted and not compacted."""
    for match_id in store.match_ids():
        status, compacted = store.r.hmget(keys(match_id)["meta"], "status", "compacted")
        if status not in (None, b"active") and compacted is None:
            yield match_id


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m services.rules.compact", description=__doc__.splitlines()[0])
    ap.add_argument("--match", action="append", default=[], help="compact only this match (repeatable)")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    stackfile.use("make compact")  # the stack `make run` recorded, unless the environment names a Redis
    client = store_client(load())
    store = EventStore(client)
    compactor = Compactor(store)
    counts: collections.Counter = collections.Counter()
    for match_id in args.match or backlog(store):
        try:
            outcome = compactor.compact(match_id)
        except CompactionRefused as err:
            client.hset(REFUSED, match_id, str(err))
            outcome = "refused"
            logging.error("match %s not compacted: %s", match_id, err)
        counts[outcome] += 1
        if outcome == COMPACTED:
            client.zrem(COMPACTIONS, match_id)
    print(", ".join(f"{n} {what}" for what, n in sorted(counts.items())) or "nothing to compact")


if __name__ == "__main__":
    main()
