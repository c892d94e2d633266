"""Drop every piece of scoring data and score every finished match again, in the order first scored.

``python -m services.scoring.rebuild`` — the leaderboards come back identical, because scoring is
a pure fold of its inputs (``{scoring}:inputs``: each finished-match message, as received).

No result is ever dropped: before dropping anything, every stored result that has no input gets one
(``migrations.backfill_inputs``: data of older releases), and after the replay every result that
existed before is compared with the one scored again (``rebuild`` returns how many differ in
``report``; the command prints them and exits 1 if any does).

The Redis: the environment's (``REDIS_URL``...), else that of the stack ``make run`` recorded
(``shared.stackfile``).
"""
from __future__ import annotations

import redis

from shared.canonical import loads
from shared import stackfile
from shared.config import load, store_client

from .migrations import backfill_inputs
from .store import INPUTS, RESULTS, ScoringStore

REPLAYING = INPUTS + ":rebuilding"


def rebuild(client: redis.Redis, chunk: int = 500, report: dict | None = None) -> int:
    """Returns how many matches were scored again. Safe to run again after a crash midway.
    ``report`` (a dict) receives ``before`` (results held), ``differ`` (match ids whose result came
    out otherwise) and ``lost`` (results no longer there)."""
    store = ScoringStore(client)
    replaying = bool(client.exists(REPLAYING))
    if not replaying:
        backfill_inputs(client)
    before = {k.decode(): loads(v) for k, v in client.hgetall(RESULTS).items()} if not replaying else {}
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
    if report is not None:
        after = {k.decode(): loads(v) for k, v in client.hgetall(RESULTS).items()}
        report["before"] = len(before)
        report["lost"] = sorted(m for m in before if m not in after)
        report["differ"] = sorted(m for m in before if m in after and after[m] != before[m])
    return n


def main() -> None:
    report: dict = {}
    stackfile.use("make rebuild-scores")  # the stack `make run` recorded, unless the environment names a Redis
    n = rebuild(store_client(load()), report=report)
    print(f"rescored {n} finished matches")
    if report["lost"] or report["differ"]:
        print(f"results lost: {report['lost']}; results that differ: {report['differ']}")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
