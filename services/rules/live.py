"""Live match logs for the match and state streams, shared by every watcher of a match in this process.

A watcher never holds a Redis connection: one listener per process and watched match blocks on
the match's log stream (``XREAD BLOCK``), keeps the newest records in a short buffer and wakes
the match's watchers, which take their records from that buffer (or from the log when they are
further behind) and their encoded messages from the feed's memo (``Feed.memo``: built by the
first watcher of each audience, written as is by the others). The listener never writes to a
watcher: a move's request only appends to the log, and the watchers are woken after it. The listener exits once its match has no watcher left. Written with
``threading`` primitives, so it runs as greenlets under gunicorn's gevent worker (which patches
them) and as threads anywhere else.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Iterator
from contextlib import contextmanager

import redis

from shared.eventstore.damage import DamagedLog
from shared.eventstore.store import keys, parse_entry
from shared.config import Config, store_client

log = logging.getLogger("rules.live")

BUFFER = 256          # records a feed keeps for watchers that are a little behind
READ_COUNT = 200      # records per read of the log
FINAL = ("match.ended", "match.aborted")
MAX_WATCHED = 10_000  # matches with a listener in one process (one blocking connection each)
MEMO = 4096           # encoded messages a feed keeps (one per record or version and audience)


class Feed:
    """What one process knows of one match's log: the newest records, and who waits for them."""

    def __init__(self, match_id: str, latest: int, over: bool = False):
        self.match_id = match_id
        self.latest = latest              # the highest seq this process has seen in the log
        self.over = over                  # the match is finished (a final record has been seen)
        self.watchers = 0
        self.records: deque[dict] = deque(maxlen=BUFFER)
        self.changed = threading.Condition()  # guards the fields above
        self._news = threading.Event()        # set (and replaced) whenever they change
        self._memo: OrderedDict = OrderedDict()
        self._building: dict[tuple, threading.Event] = {}  # memo keys being built, set when built
        self._memo_lock = threading.Lock()

    def memo(self, key: tuple, build):
        """What ``build()`` gives for ``key`` (an audience and a record or version), built once for
        every watcher of the match in this process: a message is redacted and serialized once per
        audience (spectators, each seat), not once per watcher. Built by one watcher at a time:
        the others woken by the same change wait for its result instead of building it too (a
        build that reads Redis, like a seat's state, yields meanwhile); if it fails, each builds
        for itself."""
        with self._memo_lock:
            hit = self._memo.get(key)
            building = None if hit is not None else self._building.get(key)
            mine = hit is None and building is None
            if mine:
                building = self._building[key] = threading.Event()
        if hit is not None:
            return hit
        if not mine:
            building.wait()
            with self._memo_lock:
                hit = self._memo.get(key)
            return hit if hit is not None else build()
        try:
            hit = build()
            with self._memo_lock:
                self._memo[key] = hit
                while len(self._memo) > MEMO:
                    self._memo.popitem(last=False)
            return hit
        finally:
            with self._memo_lock:
                self._building.pop(key, None)
            building.set()

    def records_after(self, seq: int) -> list[dict] | None:
        """Buffered records with a seq above ``seq``; None when the buffer does not reach back."""
        with self.changed:
            if seq >= self.latest:
                return []
            if not self.records or self.records[0]["seq"] > seq + 1:
                return None
            start = seq + 1 - self.records[0]["seq"]  # the buffer's seqs follow each other
            if start < len(self.records) and self.records[start]["seq"] == seq + 1:
                return [self.records[i] for i in range(start, len(self.records))]
            return [r for r in self.records if r["seq"] > seq]

    def wait_beyond(self, seq: int, timeout: float) -> bool:
        """Wait until the log is known to go beyond ``seq`` or to be over (False after ``timeout`` seconds)."""
        with self.changed:
            if self.latest > seq or self.over:
                return True
            news = self._news
        news.wait(timeout)  # one event for every waiter: a change wakes them all at once, cheaply
        return self.latest > seq or self.over

    def announce(self) -> None:
        """Wake every waiter (the caller holds ``changed``)."""
        news, self._news = self._news, threading.Event()
        news.set()

    def add(self, records: list[dict]) -> None:
        with self.changed:
            for rec in records:
                if rec["seq"] > self.latest:
                    self.records.append(rec)
                    self.latest = rec["seq"]
                    self.over = self.over or rec["type"] in FINAL
            self.announce()

    def skip_damaged(self, seq: int) -> None:
        """Record ``seq`` of the log does not parse: buffer nothing, so watchers read the log
        itself (and end on the damaged-log error there)."""
        with self.changed:
            self.latest = max(self.latest, seq)
            self.records.clear()
            self.announce()

    def rewind(self, head: int) -> None:
        """Redis's log ends before what this feed saw (it lost data): forget what lies beyond."""
        with self.changed:
            self.latest = head
            self.records.clear()
            self.announce()


class MoveGate:
    """Watchers write while no write request is being handled in this process, so the events of a
    move go out to its watchers after the move has been answered and between moves, never ahead
    of them (a watcher waits at most ``max_wait_s``, so that a process kept busy still streams)."""

    def __init__(self, max_wait_s: float = 0.25):
        self.max_wait_s = max_wait_s
        self._busy = 0
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()

    def enter(self) -> None:
        with self._lock:
            self._busy += 1
            self._idle.clear()

    def leave(self) -> None:
        with self._lock:
            self._busy -= 1
            if self._busy <= 0:
                self._busy = 0
                self._idle.set()

    def wait(self) -> None:
        """Until no write is in progress (or ``max_wait_s`` passed). Yields first, and again after
        each wake: woken watchers then take turns with the requests that arrive meanwhile (under
        gevent, one after the other as callbacks, with the sockets polled between them) instead of
        all writing in one burst that a move waits behind."""
        deadline = time.monotonic() + self.max_wait_s
        time.sleep(0)
        while not self._idle.is_set():
            left = deadline - time.monotonic()
            if left <= 0:
                return
            self._idle.wait(left)
            time.sleep(0)

    def install(self, app) -> None:
        """Count every write request of ``app`` from its start until its answer has been sent."""
        from flask import g, request

        @app.before_request
        def _enter():
            if request.method in ("POST", "PUT", "PATCH", "DELETE"):
                self.enter()
                g.move_gate = True

        @app.after_request
        def _hand_over(response):
            if g.pop("move_gate", False):
                response.call_on_close(self.leave)  # once the server has written the answer
            return response

        @app.teardown_request
        def _leave(_exc):
            if g.pop("move_gate", False):  # no answer was made (an error before after_request)
                self.leave()


class LiveLogs:
    """The feeds of the matches watched in this process, each with its listener."""

    def __init__(self, config: Config, block_s: float = 5.0, retry_s: float = 1.0, coalesce_s: float | None = None):
        self.block_s = block_s
        self.retry_s = retry_s
        # after waking a match's watchers, its listener waits this long before the next read, so a
        # busy match wakes them at most this often (the first event after a quiet spell goes at once)
        self.coalesce_s = config.stream_coalesce_s if coalesce_s is None else coalesce_s
        # Its own client: the listener's socket timeout must outlast a blocking read, and each
        # watched match holds one connection while it blocks.
        self.r = store_client(config, socket_timeout=2 * block_s + 1, socket_connect_timeout=5,
                              max_connections=MAX_WATCHED)
        self._lock = threading.Lock()
        self._feeds: dict[str, Feed] = {}
        self.gate = MoveGate()

    @contextmanager
    def watch(self, match_id: str, head: int, over: bool = False) -> Iterator[Feed]:
        """The match's feed while the caller watches it (``head``: the log's version as read now;
        ``over``: the match is finished)."""
        with self._lock:
            feed = self._feeds.get(match_id)
            if feed is None:
                feed = self._feeds[match_id] = Feed(match_id, head, over)
                threading.Thread(target=self._listen, args=(feed,), name=f"live-{match_id}", daemon=True).start()
            feed.watchers += 1
        try:
            yield feed
        finally:
            with self._lock:
                feed.watchers -= 1

    def watched(self) -> int:
        """How many matches have a listener in this process."""
        with self._lock:
            return len(self._feeds)

    def _listen(self, feed: Feed) -> None:
        log_key, meta_key = keys(feed.match_id)["log"], keys(feed.match_id)["meta"]
        while True:
            with self._lock:
                if feed.watchers == 0 or feed.over:
                    if self._feeds.get(feed.match_id) is feed:
                        del self._feeds[feed.match_id]
                    with feed.changed:
                        feed.announce()
                    return
            try:
                got = self.r.xread({log_key: f"0-{feed.latest}"}, count=READ_COUNT, block=int(self.block_s * 1000))
                if not got:  # a quiet match: check that Redis has not lost what this feed saw
                    head = int(self.r.hget(meta_key, "version") or 0)
                    if head < feed.latest:
                        feed.rewind(head)
            except redis.RedisError as err:  # an outage: watchers get keep-alives until it is back
                log.warning("live log of %s: %s; retrying in %.1fs", feed.match_id, err, self.retry_s)
                time.sleep(self.retry_s)
                continue
            for _key, entries in got or ():
                try:
                    feed.add([parse_entry(feed.match_id, entry_id, fields) for entry_id, fields in entries])
                except DamagedLog as err:
                    log.error("live log of %s: %s", feed.match_id, err.message)
                    feed.skip_damaged(int(entries[-1][0].decode().rpartition("-")[2]))
            if got and self.coalesce_s > 0:
                time.sleep(self.coalesce_s)
