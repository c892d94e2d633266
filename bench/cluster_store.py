"""The match store on a three-master Redis Cluster against one Redis server.

``python -m bench.cluster_store [--seconds=S] [--runs=R]``. A cluster of three masters
(``shared.localcluster``: append-only, ``appendfsync always``) and, as the baseline, one server
started from ``deploy/redis.conf`` (also ``appendfsync always``), on this machine; the same move
loop (``bench.appendfsync``: ``Matches.submit`` of random Battlefields of Olympus moves, the rules
service's write path without HTTP) against each, alternating runs, with 1 and 8 client threads.
Prints one JSON line per thread count: medians and the ratio cluster/single. On one machine the
three masters share its cores and disk: this measures the cluster client's cost and how writes
spread, not what three machines would add.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import redis

from shared import localcluster, localredis
from shared.engine import registry

from .appendfsync import CONF, moves_per_second
from .common import argv_int, emit, median


def main() -> None:
    registry.load_all()
    seconds, runs = argv_int("seconds", 5), argv_int("runs", 3)
    with tempfile.TemporaryDirectory() as tmp:
        single = localredis.start(Path(tmp) / "single", persistent=True, config=CONF)
        cluster = localcluster.start_cluster(Path(tmp) / "cluster")
        try:
            for threads in (1, 8):
                c, s = [], []
                for _ in range(runs):
                    c.append(moves_per_second(cluster.client(), threads, seconds))
                    s.append(moves_per_second(redis.Redis.from_url(single.url), threads, seconds))
                emit(bench="cluster_store", threads=threads, masters=len(cluster.ports),
                     cluster_moves_per_s=round(median(c), 1), single_moves_per_s=round(median(s), 1),
                     ratio=round(median(c) / median(s), 3), runs=runs, seconds=seconds)
        finally:
            cluster.stop()
            single.stop()


if __name__ == "__main__":
    main()
