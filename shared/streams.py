"""Redis Streams between services: names, publishing and a reliable consumer.

Delivery is at-least-once: a consumer acknowledges an entry only after its handler succeeded, the
entries of one read together (one XACK per batch, not one write per message);
entries left pending by a crashed consumer are reclaimed after ``claim_idle_ms``; an entry that
has failed ``max_deliveries`` times is parked on ``<stream>:dead`` with the error and acknowledged.
Handlers must therefore be idempotent.

Retention: every stream between services names the consumer groups that read it (``GROUPS``); a
consumer trims its stream, now and then, up to the oldest entry that some group has not yet
acknowledged, once every named group exists. Nothing between services grows without bound.
"""
from __future__ import annotations

import logging
import socket
import os
import threading
import time
from typing import Callable

import redis
from redis.cluster import RedisCluster

from . import metrics
from .canonical import dumps, loads
from .notices import PLAYER_NOTICES
from .resilience import run_until_stopped

MATCHES_FORMED = "stream:matches:formed"
MATCHES_FINISHED = "stream:matches:finished"
RATINGS_UPDATED = "stream:ratings:updated"

# stream -> every consumer group that reads it (an entry is kept until all of them are past it)
GROUPS: dict[str, tuple[str, ...]] = {
    MATCHES_FORMED: ("rules",),
    MATCHES_FINISHED: ("scoring", "rules-index", "matchmaking-tournaments"),
    RATINGS_UPDATED: ("matchmaking",),
    PLAYER_NOTICES: ("matchmaking",),
}


def stream_groups_of(service: str) -> list[tuple[str, str]]:
    """The (stream, group) pairs read by ``service``'s consumers: groups named ``service`` or
    ``service-...`` in ``GROUPS`` (what its ``metrics.StreamLag`` watches)."""
    return [(stream, group) for stream, groups in GROUPS.items() for group in groups
            if group == service or group.startswith(f"{service}-")]

log = logging.getLogger(__name__)

Handler = Callable[[str, dict], None]  # (entry id, message)
ManyHandler = Callable[[list[tuple[str, dict]]], list[bool]]  # [(entry id, message)] -> handled, each


def publish(client: redis.Redis, stream: str, message: dict) -> str:
    return client.xadd(stream, {"m": dumps(message)}).decode()


def read_all(client: redis.Redis, stream: str) -> list[tuple[str, dict]]:
    return [(i.decode(), loads(f[b"m"])) for i, f in client.xrange(stream)]


class Consumer:
    def __init__(
        self, client: redis.Redis, stream: str, group: str, handler: Handler, *,
        name: str | None = None, max_deliveries: int = 5, claim_idle_ms: int = 30_000, batch: int = 50,
        ack_delay_s: float = 0.0, handle_many: ManyHandler | None = None,
    ):
        self.r = client
        self.stream, self.group, self.handler = stream, group, handler
        # ``handle_many``: handles the messages of one read together (e.g. their writes in one
        # pipeline), saying which succeeded; ``handler`` is then used for reclaimed entries only
        self.handle_many = handle_many
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.max_deliveries, self.claim_idle_ms, self.batch = max_deliveries, claim_idle_ms, batch
        self.dead_letter = f"{stream}:dead"
        self._grouped = False
        self._polls = 0
        # ``ack_delay_s`` > 0: handled entries are acknowledged together once ``batch`` of them
        # wait or the oldest has waited that long (a stream with one entry per move then costs one
        # XACK per second, not one per move; a crash redelivers them: handlers are idempotent)
        self.ack_delay_s = ack_delay_s
        self._unacked: list[str] = []
        self._unacked_since = 0.0
        # entries left pending are looked for (XPENDING) every so often, not at every poll: an
        # entry can only be reclaimed once idle ``claim_idle_ms``, so a look every half of that
        # (5 s at most) finds it about as soon, and an idle consumer's polls cost one read each
        self.reclaim_every_s = min(claim_idle_ms / 2000, 5.0)
        self._next_reclaim = 0.0

    def ensure_group(self) -> None:
        """Create the group (from the stream's start) unless it exists; also after Redis lost it."""
        try:
            self.r.xgroup_create(self.stream, self.group, id="0", mkstream=True)
        except redis.ResponseError as err:
            if "BUSYGROUP" not in str(err):
                raise
        self._grouped = True

    def _handle(self, entry_id: str, fields: dict) -> bool:
        """Run the handler on one entry; True when it succeeded (the caller acknowledges it)."""
        try:
            self.handler(entry_id, loads(fields[b"m"]))
        except Exception:
            log.exception("%s/%s: handler failed on %s", self.stream, self.group, entry_id)
            metrics.STREAM_ENTRIES.labels(self.stream, self.group, "failed").inc()
            return False
        metrics.STREAM_ENTRIES.labels(self.stream, self.group, "ok").inc()
        return True

    def _handle_many(self, entries) -> list[str]:
        """Run ``handle_many`` on the entries of a read: the ids of those it handled."""
        entries = [(eid, fields) for eid, fields in entries if fields]
        try:
            flags = self.handle_many([(eid, loads(fields[b"m"])) for eid, fields in entries])
        except Exception:
            log.exception("%s/%s: handler failed on %d entries", self.stream, self.group, len(entries))
            flags = [False] * len(entries)
        done = [eid for (eid, _), ok in zip(entries, flags) if ok]
        if len(done) < len(entries):
            log.error("%s/%s: handler failed on %d of %d entries", self.stream, self.group,
                      len(entries) - len(done), len(entries))
            metrics.STREAM_ENTRIES.labels(self.stream, self.group, "failed").inc(len(entries) - len(done))
        if done:
            metrics.STREAM_ENTRIES.labels(self.stream, self.group, "ok").inc(len(done))
        return done

    def _handle_batch(self, entries, *, together: bool = False) -> int:
        """Handle entries in order (``together``: with ``handle_many``, when set) and acknowledge
        the ones that succeeded in one XACK (a crash before it redelivers the batch: handlers are
        idempotent). Returns entries handled."""
        if together and self.handle_many is not None:
            done = self._handle_many(entries)
        else:
            done = [eid for eid, fields in entries if fields and self._handle(eid, fields)]
        if done and not self._unacked:
            self._unacked_since = time.monotonic()
        self._unacked += done
        self.flush_acks(force=self.ack_delay_s <= 0)
        return len(done)

    def flush_acks(self, *, force: bool = True) -> None:
        """Acknowledge the handled entries still waiting (``force``: whatever their age)."""
        if not self._unacked:
            return
        if not force and len(self._unacked) < self.batch and \
                time.monotonic() - self._unacked_since < self.ack_delay_s:
            return
        self.r.xack(self.stream, self.group, *self._unacked)
        self._unacked = []

    def reclaim(self) -> int:
        """Take over entries idle too long; park those that keep failing. Returns entries handled."""
        handled = 0
        pending = self.r.xpending_range(self.stream, self.group, min="-", max="+", count=self.batch,
                                        idle=self.claim_idle_ms)
        for p in pending:
            entry_id = p["message_id"].decode() if isinstance(p["message_id"], bytes) else p["message_id"]
            if p["times_delivered"] >= self.max_deliveries:
                entries = self.r.xrange(self.stream, entry_id, entry_id)
                body = entries[0][1].get(b"m", b"null").decode() if entries else "null"
                self.r.xadd(self.dead_letter, {"m": body, "id": entry_id, "group": self.group,
                                               "deliveries": p["times_delivered"]})
                self.r.xack(self.stream, self.group, entry_id)
                metrics.STREAM_ENTRIES.labels(self.stream, self.group, "parked").inc()
                log.error("%s/%s: parked %s after %s deliveries", self.stream, self.group, entry_id,
                          p["times_delivered"])
                continue
            claimed = self.r.xclaim(self.stream, self.group, self.name, self.claim_idle_ms, [entry_id])
            handled += self._handle_batch([(cid.decode(), fields) for cid, fields in claimed])
        return handled

    def poll(self, block_ms: int = 1000) -> int:
        """Reclaim (every ``reclaim_every_s``), then read and handle one batch of new entries.
        Returns entries handled."""
        return poll_together([self], block_ms)

    def _before_read(self) -> int:
        """Acknowledge what is due and reclaim when it is time. Returns entries handled."""
        if not self._grouped:
            self.ensure_group()
        self.flush_acks(force=False)
        if time.monotonic() < self._next_reclaim:
            return 0
        self._next_reclaim = time.monotonic() + self.reclaim_every_s
        return self.reclaim()

    def _lost_group(self) -> None:
        self._grouped = False  # the group vanished (Redis restarted without it): create it again
        self._unacked = []  # their acknowledgements went with it: they are delivered again
        self._next_reclaim = 0.0

    def _after_read(self, entries) -> int:
        handled = self._handle_batch([(entry_id.decode(), fields) for entry_id, fields in entries], together=True)
        self._polls += 1
        if self._polls % 20 == 0:
            trim(self.r, self.stream)
        return handled

    def run(self, stop: threading.Event, block_ms: int = 1000) -> None:
        """Poll until ``stop``; a Redis outage is waited out, never a reason to exit."""
        run_until_stopped(lambda: self.poll(block_ms), stop, f"{self.stream}/{self.group}", log)
        self.flush_acks()


def poll_together(consumers: list[Consumer], block_ms: int = 1000) -> int:
    """One poll of several consumers that share a Redis, a group name and a consumer name (one
    process reading several streams): each acknowledges and reclaims as ``Consumer.poll`` does,
    then a single XREADGROUP (one blocking wait) reads all their streams. Returns entries handled."""
    first = consumers[0]
    assert all(c.r is first.r and c.group == first.group and c.name == first.name for c in consumers), \
        "consumers polled together share their Redis, group and name"
    if len(consumers) > 1 and isinstance(first.r, RedisCluster):
        # on a cluster the streams sit in different hash slots, which one XREADGROUP cannot span
        wait = max(1, block_ms // len(consumers))
        return sum(poll_together([c], wait) for c in consumers)
    by_stream = {c.stream: c for c in consumers}
    try:
        handled = sum(c._before_read() for c in consumers)
        got = first.r.xreadgroup(first.group, first.name, {c.stream: ">" for c in consumers},
                                 count=max(c.batch for c in consumers), block=block_ms)
    except redis.ResponseError as err:
        if "NOGROUP" not in str(err):
            raise
        for c in consumers:
            c._lost_group()
        return 0
    for stream, entries in got or []:
        name = stream.decode() if isinstance(stream, bytes) else stream
        handled += by_stream[name]._after_read(entries)
    return handled


def _next_id(entry_id: str) -> str:
    ms, seq = entry_id.split("-")
    return f"{ms}-{int(seq) + 1}"


def trim(client: redis.Redis, stream: str) -> int:
    """Drop the entries every group of ``GROUPS[stream]`` has acknowledged. Returns entries dropped."""
    expected = GROUPS.get(stream)
    if not expected:
        return 0
    groups = {g["name"].decode() if isinstance(g["name"], bytes) else g["name"]: g
              for g in client.xinfo_groups(stream)}
    if any(name not in groups for name in expected):
        return 0  # a reader has not started yet: keep everything for it
    floor = None
    for name in expected:
        pending = client.xpending(stream, name)
        if pending["pending"]:
            low = pending["min"].decode() if isinstance(pending["min"], bytes) else pending["min"]
        else:
            last = groups[name]["last-delivered-id"]
            low = _next_id(last.decode() if isinstance(last, bytes) else last)
        key = tuple(int(p) for p in low.split("-"))
        floor = key if floor is None or key < floor else floor
    return client.xtrim(stream, minid=f"{floor[0]}-{floor[1]}", approximate=False)
