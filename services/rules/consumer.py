"""The rules service's background process: creates formed matches, retries lost bot turns and
publishes finished matches whose message was lost. Run with ``python -m services.rules.consumer``."""
from __future__ import annotations

import logging
import signal
import threading

from shared.config import load
from shared.engine import registry
from shared.matches import Invalid
from shared.streams import MATCHES_FORMED, Consumer

from .runtime import Runtime

log = logging.getLogger("rules.consumer")
REJECTED = "rules:rejected-matches"  # match id -> why a "match formed" message was refused


def on_formed(rt: Runtime, message: dict) -> None:
    """Create the match of a "match formed" message (idempotent)."""
    try:
        rt.create_match(message)
    except Invalid as err:  # a bad message can never succeed: record it and move on
        log.error("match %s not created: %s", message.get("match_id"), err)
        rt.redis.hset(REJECTED, str(message.get("match_id")), str(err))


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = load()
    rt = Runtime.build(config)
    registry.load_all()

    consumer = Consumer(rt.redis, MATCHES_FORMED, "rules", lambda _id, message: on_formed(rt, message))
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    rt.followups.sweep_unpublished()
    log.info("rules consumer running")
    ticks = 0
    while not stop.is_set():
        consumer.poll(block_ms=500)
        ticks += 1
        if ticks % 4 == 0:
            rt.followups.retry_stalled_bots(config.bot_retry_after_s)
    log.info("rules consumer stopped")


if __name__ == "__main__":
    main()
