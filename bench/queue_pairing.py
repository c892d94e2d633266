"""Queue pairing: tickets paired per second and the mean rating gap inside formed matches, with
1,000 simulated waiting players (ratings drawn from N(20, 8)), against a baseline that seats
tickets in arrival order (no rating awareness), in the same run on a real Redis. Waves run one
simulated second apart, so tolerances widen as they would.

Matches are published on the formed-matches stream but not awaited (no rules service runs here).
"""
from __future__ import annotations

import random
import statistics
import tempfile
import time

import redis

from services.matchmaking.forming import Former
from services.matchmaking.players import Players
from services.matchmaking.queue import Queue, Tolerance, rating_key
from shared import localredis
from shared.canonical import loads
from shared.streams import MATCHES_FORMED

from .common import argv_int, emit


class PublishOnly(Former):
    """Publishes the formed match without waiting for the rules service."""

    form = Former.publish


def arrival_order(tickets, size, now):
    """The baseline: seat tickets in the order they came, ignoring ratings."""
    ordered = sorted(tickets, key=lambda t: t["created_at"])
    return ordered[:size] if len(ordered) >= size else None


def run(client: redis.Redis, n: int, players_per_match: int, seed: int, *, baseline: bool = False) -> dict:
    client.flushall()
    rnd = random.Random(seed)
    ratings = {f"p{i}": rnd.gauss(20, 8) for i in range(n)}
    client.hset(rating_key("arkon"), mapping=ratings)
    clock = [1000.0]
    queue = Queue(client, Players(client), PublishOnly(client, "http://unused", 0), tolerance=Tolerance(),
                  clock=lambda: clock[0])
    if baseline:
        queue.pick = arrival_order
    for pid in ratings:  # everyone waits; waves are what is timed
        queue.r.hset(f"mm:player:{pid}", mapping={"name": pid})
    body = {"game": "arkon", "players": players_per_match, "options": {}, "bot_fill_after_s": None, "turn_seconds": None}
    original = queue.wave
    queue.wave = lambda pool: []
    for pid in ratings:
        queue.enqueue(pid, body)
    queue.wave = original
    t0 = time.perf_counter()
    formed = 0
    for _ in range(60):  # waves, 1 simulated second apart, until the pool is drained or stuck
        clock[0] += 1
        formed += len(queue.wave_all())
        if formed * players_per_match >= n - players_per_match:
            break
    elapsed = time.perf_counter() - t0
    gaps = []
    for _id, fields in client.xrange(MATCHES_FORMED):
        seats = loads(fields[b"m"])["seats"]
        rs = [ratings[s["player_id"]] for s in seats if "player_id" in s]
        gaps.append(max(rs) - min(rs))
    return {"matches": formed, "tickets_paired": formed * players_per_match,
            "tickets_per_s": round(formed * players_per_match / elapsed, 1),
            "mean_rating_gap": round(statistics.mean(gaps), 3) if gaps else None}


def main() -> None:
    n = argv_int("players", 1000)
    with tempfile.TemporaryDirectory() as tmp:
        server = localredis.start(tmp)
        try:
            client = redis.Redis.from_url(server.url)
            for size in (2, 4):
                aware = run(client, n, size, seed=size)
                blind = run(client, n, size, seed=size, baseline=True)
                emit(bench="queue_pairing", waiting_players=n, players_per_match=size, rating_aware=aware,
                     baseline_arrival_order=blind,
                     gap_ratio=round(aware["mean_rating_gap"] / blind["mean_rating_gap"], 3) if blind["mean_rating_gap"] else None)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
