"""Matchmaking's background process (``python -m services.matchmaking.consumer``): queue waves and
the sweep of lapsed invitations and idle tables every ``WAVE_S`` seconds, ratings from the scoring
service's ratings-updated stream, and the rules service's player notices fanned out to each
player's inbox (``GET /v1/players/me/stream``); finished matches of tournaments recorded and
their next rounds paired (``tournaments.service``), and every running tournament advanced each wave."""
from __future__ import annotations

import logging
import os
import time


from shared import metrics
from shared.config import load, store_client
from shared.engine import registry
from shared.resilience import run_until_stopped, stop_on_signals
from shared.notices import PLAYER_NOTICES
from shared.streams import MATCHES_FINISHED, RATINGS_UPDATED, Consumer, poll_together, stream_groups_of

from .app import build

log = logging.getLogger("matchmaking.consumer")
FINISHED_POLL_S = 0.2  # finished matches (tournament results) are read this often at most
# after a read that found entries, wait this long before the next, so that the notices of a busy
# stack are fanned out in batches rather than one wake per move beside the move's own request
# (issue #24); a player's inbox hears of a move this much later at most
LINGER_S = float(os.environ.get("NOTICE_LINGER_S", "0.05"))
NOTICE_BATCH = 200  # notices read (and fanned out in one script call) at most at once


def pause_after(handled: int, batch: int, linger_s: float = LINGER_S) -> float:
    """How long to wait before the next read, after one that handled ``handled`` entries of at
    most ``batch``: ``linger_s`` when it found some but not a full batch (the next ones are coming
    one by one: let them gather); none after a full batch (a backlog: read on at once, or a stack
    making more than ``batch / linger_s`` moves a second would leave the consumer ever further
    behind) nor after an empty read (its blocking wait has waited already)."""
    return linger_s if 0 < handled < batch else 0.0


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    config = load()
    registry.load_all()
    client = store_client(config)
    parts = build(client, config)
    queue, tables, inbox = parts["queue"], parts["tables"], parts["inbox"]
    ratings = Consumer(client, RATINGS_UPDATED, "matchmaking", lambda _id, m: queue.rating_updated(m))
    # one notice per change of a match: the notices of a read fanned out in one script call, and
    # acknowledged together about once a second
    notices = Consumer(client, PLAYER_NOTICES, "matchmaking", lambda _id, m: inbox.fan_out(m), ack_delay_s=1.0,
                       batch=NOTICE_BATCH, handle_many=lambda entries: inbox.fan_out_many([m for _id, m in entries]))
    tournaments = parts["tournaments"]  # finished matches record results and pair the next round
    finished = Consumer(client, MATCHES_FINISHED, "matchmaking-tournaments", lambda _id, m: tournaments.match_finished(m))
    metrics.serve([metrics.StreamLag(client, stream_groups_of("matchmaking"))])  # METRICS_PORT
    wave_s = float(os.environ.get("WAVE_S", "2"))
    next_wave = next_finished = 0.0

    def step() -> None:
        nonlocal next_wave, next_finished
        handled = poll_together([ratings, notices], block_ms=200)  # both streams in one blocking read
        pause = pause_after(handled, notices.batch)
        if pause:
            time.sleep(pause)
        if time.monotonic() >= next_finished:
            # tournaments: a group of their own, so a read of its own; at most every
            # FINISHED_POLL_S, not after every notice (each move wakes the read above)
            next_finished = time.monotonic() + FINISHED_POLL_S
            finished.poll(block_ms=10)
        if time.time() >= next_wave:
            next_wave = time.time() + wave_s
            queue.wave_all()
            tables.sweep()
            tournaments.sweep()

    run_until_stopped(step, stop_on_signals(), "matchmaking consumer", log)
    try:
        notices.flush_acks()
    except Exception:  # Redis gone at shutdown: the entries are delivered again, harmlessly
        log.warning("notices left unacknowledged at shutdown", exc_info=True)


if __name__ == "__main__":
    main()
