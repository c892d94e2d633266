"""The cost of durability: moves per second with ``appendfsync always`` against ``everysec``.

``python -m bench.appendfsync [--seconds=S] [--runs=R]``. Two Redis servers started from
``deploy/redis.conf`` (one with ``appendfsync`` overridden to ``everysec``), on this machine's disk;
the same move loop (``Matches.submit`` of random Battlefields of Olympus moves, the rules service's
write path without HTTP) against each, alternating runs, with 1 and with 8 client threads (concurrent writes share
an fsync). Prints one JSON line per thread count: medians and the ratio always/everysec.
"""
from __future__ import annotations

import random
import tempfile
import threading
import time
import uuid
from pathlib import Path

import redis

from shared import localredis
from shared.engine import registry
from shared.eventstore.store import EventStore
from shared.matches import Matches

from .common import argv_int, emit, median

GAME = "battlefields-of-olympus"
CONF = Path(__file__).resolve().parent.parent / "deploy" / "redis.conf"


def start(directory: Path, fsync: str) -> tuple[localredis.LocalRedis, str]:
    server = localredis.start(directory, persistent=True, config=CONF, extra=["--appendfsync", fsync])
    return server, server.url


def moves_per_second(client: redis.Redis, threads: int, seconds: float) -> float:
    """Moves per second through ``Matches.submit`` on ``client`` (a server or a cluster)."""
    matches = Matches(EventStore(client), snapshot_every=50)
    done = [0] * threads
    stop = time.perf_counter() + seconds

    def loop(i: int) -> None:
        rng = random.Random(i)
        while time.perf_counter() < stop:
            match_id = uuid.uuid4().hex
            state = matches.create(match_id, GAME, {}, [{"player_id": "a"}, {"player_id": "b"}])
            game = matches.game_of(state)
            while state["status"] == "active" and time.perf_counter() < stop:
                seat = matches.to_act(state)[0]
                move = rng.choice(game.legal_moves(state["game"], seat))
                state = matches.submit(match_id, seat, move, state["version"]).state
                done[i] += 1

    workers = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    started = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(done) / (time.perf_counter() - started)


def main() -> None:
    registry.load_all()
    seconds, runs = argv_int("seconds", 5), argv_int("runs", 3)
    with tempfile.TemporaryDirectory() as tmp:
        always, always_url = start(Path(tmp) / "always", "always")
        everysec, everysec_url = start(Path(tmp) / "everysec", "everysec")
        try:
            for threads in (1, 8):
                a, e = [], []
                for _ in range(runs):
                    a.append(moves_per_second(redis.Redis.from_url(always_url), threads, seconds))
                    e.append(moves_per_second(redis.Redis.from_url(everysec_url), threads, seconds))
                emit(bench="appendfsync", threads=threads, always_moves_per_s=round(median(a), 1),
                     everysec_moves_per_s=round(median(e), 1), ratio=round(median(a) / median(e), 3), runs=runs,
                     seconds=seconds)
        finally:
            always.stop()
            everysec.stop()


if __name__ == "__main__":
    main()
