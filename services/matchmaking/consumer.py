"""Matchmaking's background process (``python -m services.matchmaking.consumer``): queue waves
every ``WAVE_S`` seconds and ratings from the scoring service's ratings-updated stream."""
from __future__ import annotations

import logging
import os
import time

import redis

from shared.config import load
from shared.engine import registry
from shared.resilience import run_until_stopped, stop_on_signals
from shared.streams import RATINGS_UPDATED, Consumer

from .app import build

log = logging.getLogger("matchmaking.consumer")


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = load()
    registry.load_all()
    client = redis.Redis.from_url(config.redis_url)
    queue = build(client, config)["queue"]
    ratings = Consumer(client, RATINGS_UPDATED, "matchmaking", lambda _id, m: queue.rating_updated(m))
    wave_s = float(os.environ.get("WAVE_S", "2"))
    next_wave = 0.0

    def step() -> None:
        nonlocal next_wave
        ratings.poll(block_ms=250)
        if time.time() >= next_wave:
            next_wave = time.time() + wave_s
            queue.wave_all()

    run_until_stopped(step, stop_on_signals(), "matchmaking consumer", log)

if __name__ == "__main__":
    main()
