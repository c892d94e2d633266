"""The inboxes watched in this process, read by one listener: no per-player stream holds a Redis
connection.

One thread (``InboxListener``) blocks on every watched inbox at once (one ``XREAD BLOCK`` over
all their keys, on its own connection; on a Redis Cluster, whose keys lie in many slots, a
pipelined read per key, polled), keeps each inbox's newest events in a short buffer and wakes
its watchers. A watcher takes its events from that buffer, or from the inbox itself (one
non-blocking read on the service's pool) when it is further behind. Written with ``threading``
primitives, so it runs as greenlets under gunicorn's gevent worker and as threads elsewhere.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import redis

from shared.canonical import loads
from shared.config import Config, is_cluster, store_client

from .inbox import inbox_key

log = logging.getLogger("matchmaking.inbox-feed")

BUFFER = 256       # events an inbox's feed keeps for watchers a little behind
READ_COUNT = 100   # events per inbox per read
Event = tuple[str, str, dict]  # (entry id, type, data)


def _key(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


class InboxFeed:
    """What this process knows of one inbox since it began to watch it."""

    def __init__(self, player_id: str, head: str):
        self.player_id = player_id
        self.floor = head       # the buffer holds every event after this id
        self.last = head        # the newest id seen
        self.watchers = 0
        self.events: deque[Event] = deque(maxlen=BUFFER)
        self.changed = threading.Condition()  # guards the fields above
        self._news = threading.Event()        # set (and replaced) whenever they change

    def after(self, entry_id: str) -> list[Event] | None:
        """Buffered events after ``entry_id``; None when the buffer does not reach back that far."""
        with self.changed:
            cursor = _key(entry_id)
            if cursor < _key(self.floor):
                return None
            return [e for e in self.events if _key(e[0]) > cursor]

    def wait_beyond(self, entry_id: str, timeout: float) -> bool:
        with self.changed:
            if _key(self.last) > _key(entry_id):
                return True
            news = self._news
        news.wait(timeout)  # one event for every waiter: a change wakes them all at once, cheaply
        return _key(self.last) > _key(entry_id)

    def _announce(self) -> None:
        news, self._news = self._news, threading.Event()
        news.set()

    def add(self, events: list[Event]) -> None:
        with self.changed:
            for event in events:
                if _key(event[0]) > _key(self.last):
                    if len(self.events) == self.events.maxlen:
                        self.floor = self.events[0][0]
                    self.events.append(event)
                    self.last = event[0]
            self._announce()


class InboxListener:
    """The feeds of the inboxes watched in this process, and the one thread that fills them."""

    def __init__(self, config: Config, heads: Callable[[str], str], *, block_s: float = 1.0, retry_s: float = 1.0,
                 poll_s: float = 0.5):
        """``heads(player_id)``: the id of the newest event of an inbox (read when a feed starts)."""
        self.block_s, self.retry_s, self.poll_s = block_s, retry_s, poll_s
        self.heads = heads
        # its own connection: a blocking read must outlast the pool's socket timeout
        self.r = store_client(config, socket_timeout=block_s + 10, socket_connect_timeout=5)
        self._lock = threading.Lock()
        self._feeds: dict[str, InboxFeed] = {}
        self._thread: threading.Thread | None = None

    @contextmanager
    def watch(self, player_id: str) -> Iterator[InboxFeed]:
        """The inbox's feed while the caller watches it."""
        feed = None
        while feed is None:
            with self._lock:
                feed = self._feeds.get(player_id)
                if feed is not None:
                    feed.watchers += 1
                    break
            head = self.heads(player_id)  # outside the lock: a Redis read
            with self._lock:
                if player_id not in self._feeds:
                    feed = self._feeds[player_id] = InboxFeed(player_id, head)
                    feed.watchers += 1
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="inbox-listener", daemon=True)
                self._thread.start()
        try:
            yield feed
        finally:
            with self._lock:
                feed.watchers -= 1
                if feed.watchers == 0 and self._feeds.get(player_id) is feed:
                    del self._feeds[player_id]

    def watched(self) -> int:
        with self._lock:
            return len(self._feeds)

    def _read(self, cursors: dict[str, str]) -> list:
        if not is_cluster(self.r):
            return self.r.xread(cursors, count=READ_COUNT, block=int(self.block_s * 1000)) or []
        pipe = self.r.pipeline(transaction=False)
        for key, after in cursors.items():
            pipe.xread({key: after}, count=READ_COUNT)
        got = [item for answer in pipe.execute() for item in (answer or [])]
        if not got:
            time.sleep(self.poll_s)
        return got

    def _run(self) -> None:
        while True:
            with self._lock:
                feeds = {inbox_key(p): f for p, f in self._feeds.items()}
            if not feeds:
                time.sleep(self.poll_s)
                continue
            try:
                got = self._read({key: feed.last for key, feed in feeds.items()})
            except redis.RedisError as err:  # an outage: watchers get keep-alives until it is back
                log.warning("inbox listener: %s; retrying in %.1fs", err, self.retry_s)
                time.sleep(self.retry_s)
                continue
            except Exception:
                log.exception("inbox listener")
                time.sleep(self.retry_s)
                continue
            for key, entries in got:
                feed = feeds.get(key.decode() if isinstance(key, bytes) else key)
                if feed is None:
                    continue
                feed.add([(i.decode(), f[b"type"].decode(), loads(f[b"m"])) for i, f in entries])
