"""The rules service's background process: creates formed matches, fires turn deadlines, runs
the follow-ups of every change whose process died before running them or whose bot job was lost
(``Followups.sweep``), and compacts finished matches that fell due (``Compactions.sweep``).
Run with ``python -m services.rules.consumer``."""
from __future__ import annotations

import logging

from shared import metrics
from shared.config import load
from shared.engine import registry
from shared.matches import Invalid
from shared.resilience import run_until_stopped, stop_on_signals
from shared.streams import MATCHES_FORMED, Consumer

from .migrations import migrate
from .runtime import Runtime
from .timeouts import fire_due

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
    migrate(rt.redis)
    registry.load_all()
    consumer = Consumer(rt.redis, MATCHES_FORMED, "rules", lambda _id, message: on_formed(rt, message))
    metrics.serve([metrics.StreamLag(rt.redis, [(MATCHES_FORMED, "rules")])])  # METRICS_PORT

    def step() -> None:
        consumer.poll(block_ms=500)
        rt.followups.sweep()
        fire_due(rt.deadlines, rt.followups)
        rt.followups.compactions.sweep()

    log.info("rules consumer running")
    run_until_stopped(step, stop_on_signals(), "rules consumer", log)
    log.info("rules consumer stopped")


if __name__ == "__main__":
    main()
