"""The match indexer: keeps the match index (``services.rules.index``) up to date with finished
matches from ``stream:matches:finished`` (consumer group ``rules-index``).

``python -m services.rules.indexer``            — run (deploy/Procfile: ``rules_indexer``)
``python -m services.rules.indexer --rebuild``  — drop the index and rebuild it from the logs (on the
environment's Redis, else that of the stack ``make run`` recorded: ``shared.stackfile``)
"""
from __future__ import annotations

import argparse
import logging

import redis

from shared import metrics, stackfile
from shared.config import load, store_client
from shared.resilience import stop_on_signals
from shared.streams import MATCHES_FINISHED, Consumer

from .index import MatchIndex
from .migrations import migrate

log = logging.getLogger("rules.indexer")
GROUP = "rules-index"


def consumer(client: redis.Redis, index: MatchIndex) -> Consumer:
    """The finished-matches consumer that refreshes each match's entry (idempotent)."""
    return Consumer(client, MATCHES_FINISHED, GROUP, lambda _id, message: index.refresh(message["match_id"]))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m services.rules.indexer", description=__doc__.splitlines()[0])
    ap.add_argument("--rebuild", action="store_true", help="drop the index and rebuild it from every match's log")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if args.rebuild:  # an operator's command: the stack `make run` recorded, unless the environment names a Redis
        stackfile.use("make reindex-matches")
    client = store_client(load())
    migrate(client)
    index = MatchIndex(client)
    if args.rebuild:
        print(f"indexed {index.rebuild()} matches")
        return
    finished = consumer(client, index)
    metrics.serve([metrics.StreamLag(client, [(MATCHES_FINISHED, GROUP)])])  # METRICS_PORT
    log.info("match indexer running")
    finished.run(stop_on_signals(), block_ms=500)
    log.info("match indexer stopped")


if __name__ == "__main__":
    main()
