"""Scores finished matches from the stream (``python -m services.scoring.consumer``)."""
from __future__ import annotations

import logging

import redis

from shared import metrics
from shared.config import load, store_client
from shared.migrations import ensure
from shared.resilience import stop_on_signals
from shared.streams import MATCHES_FINISHED, Consumer

from .migrations import MIGRATIONS
from .store import ScoringStore

GROUP = "scoring"


def make_consumer(client: redis.Redis, **kw) -> Consumer:
    store = ScoringStore(client)
    return Consumer(client, MATCHES_FINISHED, GROUP, lambda _id, message: store.record(message), **kw)


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    client = store_client(load())
    ensure(client, "scoring", MIGRATIONS)  # before the first entry is scored or the stream trimmed
    metrics.serve([metrics.StreamLag(client, [(MATCHES_FINISHED, GROUP)])])  # METRICS_PORT
    make_consumer(client).run(stop_on_signals(), block_ms=500)


if __name__ == "__main__":
    main()
