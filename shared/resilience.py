"""Long-running processes that ride out a Redis outage instead of exiting.

``run_until_stopped`` is the main loop of every consumer and worker: it calls one step at a time
and, when Redis is unreachable (refused, timed out, still loading its append-only file after a
restart), logs the outage once, waits with capped exponential backoff and tries again; it logs
when Redis is back. SIGINT and SIGTERM end the loop cleanly after the current step.
"""
from __future__ import annotations

import logging
import random
import signal
import threading
import time
from typing import TYPE_CHECKING, Callable

import redis

from . import metrics
from .config import CLUSTER_OUTAGE

if TYPE_CHECKING:
    import rq

REDIS_DOWN = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, *CLUSTER_OUTAGE, ConnectionError,
              OSError)


class Backoff:
    """Delays of ``first`` seconds doubling up to ``cap``, with jitter; ``reset`` after a success."""

    def __init__(self, first: float = 0.1, cap: float = 2.0):
        self.first, self.cap = first, cap
        self.attempt = 0

    def next(self) -> float:
        delay = min(self.cap, self.first * 2 ** self.attempt)
        self.attempt += 1
        return delay * random.uniform(0.5, 1.0)

    def reset(self) -> None:
        self.attempt = 0


def stop_on_signals() -> threading.Event:
    """An event set by SIGINT or SIGTERM (call from the main thread)."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    return stop


def run_until_stopped(step: Callable[[], object], stop: threading.Event, what: str,
                      log: logging.Logger | None = None, backoff: Backoff | None = None) -> None:
    """Call ``step`` until ``stop`` is set; wait out Redis outages with backoff, never exit on one.
    Any other exception from ``step`` is logged and retried the same way (a poison message is the
    step's own business: the stream consumer parks it)."""
    log = log or logging.getLogger(what)
    backoff = backoff or Backoff()
    down_since: str | None = None
    while not stop.is_set():
        metrics.stepped()  # the loop is alive (the exporter's /healthz), also while Redis is down
        try:
            step()
        except REDIS_DOWN as err:
            if down_since is None:
                down_since = type(err).__name__
                log.warning("%s: redis unavailable (%s); retrying with backoff", what, err)
            stop.wait(backoff.next())
            continue
        except Exception:
            log.exception("%s: step failed; retrying", what)
            stop.wait(backoff.next())
            continue
        if down_since is not None:
            log.warning("%s: redis is back; working again", what)
            down_since = None
        backoff.reset()


def run_rq_worker(make_worker: Callable[[], "rq.Worker"], what: str, **work_kwargs) -> None:
    """Run an RQ worker until SIGINT/SIGTERM; when it quits on a Redis outage (RQ stops its loop
    on errors it does not handle itself), wait with backoff and start a fresh one."""
    log = logging.getLogger(what)
    backoff = Backoff(first=0.2, cap=5.0)
    while True:
        worker = None
        try:
            worker = make_worker()
            worker.work(**work_kwargs)
        except REDIS_DOWN as err:
            if worker is not None and _stopping(worker):
                return  # stopping anyway; Redis going away at the same time changes nothing
            log.warning("%s: redis unavailable (%s); retrying with backoff", what, err)
            time.sleep(backoff.next())
            continue
        if _stopping(worker):
            return
        log.warning("%s: the worker loop ended unexpectedly; starting a new one", what)
        time.sleep(backoff.next())


def _stopping(worker) -> bool:
    """Whether the worker got SIGINT or SIGTERM (RQ's own handlers record when)."""
    return worker._stop_requested or getattr(worker, "_shutdown_requested_date", None) is not None
