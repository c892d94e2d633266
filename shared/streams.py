"""Redis Streams between services: names, publishing and a reliable consumer.

Delivery is at-least-once: a consumer acknowledges an entry only after its handler succeeded;
entries left pending by a crashed consumer are reclaimed after ``claim_idle_ms``; an entry that
has failed ``max_deliveries`` times is parked on ``<stream>:dead`` with the error and acknowledged.
Handlers must therefore be idempotent.
"""
from __future__ import annotations

import logging
import socket
import os
import threading
from typing import Callable

import redis

from .canonical import dumps, loads

MATCHES_FORMED = "stream:matches:formed"
MATCHES_FINISHED = "stream:matches:finished"
RATINGS_UPDATED = "stream:ratings:updated"

log = logging.getLogger(__name__)

Handler = Callable[[str, dict], None]  # (entry id, message)


def publish(client: redis.Redis, stream: str, message: dict) -> str:
    return client.xadd(stream, {"m": dumps(message)}).decode()


def read_all(client: redis.Redis, stream: str) -> list[tuple[str, dict]]:
    return [(i.decode(), loads(f[b"m"])) for i, f in client.xrange(stream)]


class Consumer:
    def __init__(
        self, client: redis.Redis, stream: str, group: str, handler: Handler, *,
        name: str | None = None, max_deliveries: int = 5, claim_idle_ms: int = 30_000, batch: int = 50,
    ):
        self.r = client
        self.stream, self.group, self.handler = stream, group, handler
        self.name = name or f"{socket.gethostname()}-{os.getpid()}"
        self.max_deliveries, self.claim_idle_ms, self.batch = max_deliveries, claim_idle_ms, batch
        self.dead_letter = f"{stream}:dead"
        self.ensure_group()

    def ensure_group(self) -> None:
        try:
            self.r.xgroup_create(self.stream, self.group, id="0", mkstream=True)
        except redis.ResponseError as err:
            if "BUSYGROUP" not in str(err):
                raise

    def _handle(self, entry_id: str, fields: dict) -> bool:
        try:
            self.handler(entry_id, loads(fields[b"m"]))
        except Exception:
            log.exception("%s/%s: handler failed on %s", self.stream, self.group, entry_id)
            return False
        self.r.xack(self.stream, self.group, entry_id)
        return True

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
                log.error("%s/%s: parked %s after %s deliveries", self.stream, self.group, entry_id,
                          p["times_delivered"])
                continue
            claimed = self.r.xclaim(self.stream, self.group, self.name, self.claim_idle_ms, [entry_id])
            for cid, fields in claimed:
                if fields:
                    handled += self._handle(cid.decode(), fields)
        return handled

    def poll(self, block_ms: int = 1000) -> int:
        """Reclaim, then read and handle one batch of new entries. Returns entries handled."""
        handled = self.reclaim()
        got = self.r.xreadgroup(self.group, self.name, {self.stream: ">"}, count=self.batch, block=block_ms)
        for _stream, entries in got or []:
            for entry_id, fields in entries:
                handled += self._handle(entry_id.decode(), fields)
        return handled

    def run(self, stop: threading.Event, block_ms: int = 1000) -> None:
        while not stop.is_set():
            try:
                self.poll(block_ms)
            except redis.ConnectionError:
                log.warning("%s/%s: redis unavailable, retrying", self.stream, self.group)
                stop.wait(1)
