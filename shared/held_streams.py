"""The streams a process holds open: a cap per client, and their tokens checked again while held.

Every stream (the per-player stream, a match's stream, a seat's state stream) is held through
``HeldStreams.hold`` before its answer starts:

* A cap per client and service, over all its processes: at most ``MAX_STREAMS_PER_PLAYER`` held
  at once with one player's tokens (all its tokens together; a bot seat's token counts as its
  match and seat), and ``MAX_STREAMS_PER_ADDRESS`` without a token from one address. One more
  answers 429 problem+json with ``Retry-After`` (the cap is said in ``detail``); the rate limits
  of ``shared/limits.py`` bound how fast streams are opened, this bounds how many are held. The
  held streams of a client are a sorted set in Redis (``streams:held:<service>:{<client>}``, one
  member per stream, scored by when its lease ends): a stream takes its place atomically (a Lua
  script), gives it back when it ends, and its process renews the leases of all its streams
  every ``LEASE_S`` / 3 in one pipeline, so the places of a process that died lapse by themselves.
* Tokens are checked again every ``STREAM_RECHECK_S`` seconds, for all held streams at once (one
  ``MGET`` of the token generations of their players): a stream whose token was rotated, revoked
  or has expired is marked ``ended`` and its loop ends it, within about that many seconds.

No stream holds a Redis connection: the re-check borrows one from the service's pool for one
round trip.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import redis

from .auth import Principal, generation_key
from .config import is_cluster
from .web import ApiError

log = logging.getLogger("held-streams")

RETRY_AFTER_S = 5  # what a refused stream is told to wait (a held stream may end meanwhile)
LEASE_S = 30       # a held stream's place lapses this long after its process last renewed it

# KEYS[1]: the client's held set; ARGV: now, lease end, member, cap, key lifetime (ms)
CLAIM = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


class Held:
    """One held stream: its client and whether it must end (``ended``, with ``reason``)."""

    __slots__ = ("client", "who", "ended", "reason", "member")

    def __init__(self, client: str, who: Principal | None):
        self.client, self.who = client, who
        self.ended, self.reason = False, ""
        self.member = uuid.uuid4().hex

    def end(self, reason: str) -> None:
        self.ended, self.reason = True, reason


def client_of(who: Principal | None, address: str | None) -> str:
    """The key a stream counts against: its player, its bot seat, or its address."""
    if who is None:
        return f"address:{address or 'unknown'}"
    if who.is_bot:
        return f"bot:{who.bot_match}:{who.bot_seat}"
    return f"player:{who.player_id}"


class HeldStreams:
    def __init__(self, client: redis.Redis, service: str, *, per_player: int, per_address: int, recheck_s: float,
                 clock: Callable[[], float] = time.time):
        self.r = client
        self.service = service
        self._claim = client.register_script(CLAIM)
        self._renewed = 0.0
        self.per_player, self.per_address, self.recheck_s = per_player, per_address, recheck_s
        self.clock = clock
        self._lock = threading.Lock()
        self._held: set[Held] = set()
        self._count: Counter[str] = Counter()
        self._checker: threading.Thread | None = None

    def count(self, client: str | None = None) -> int:
        with self._lock:
            return len(self._held) if client is None else self._count[client]

    def counts(self) -> dict[str, int]:
        """Client -> how many streams it holds in this process now."""
        with self._lock:
            return dict(self._count)

    def claim(self, who: Principal | None, address: str | None) -> Held:
        """A place for one more stream of this client; 429 when it holds its cap already."""
        client = client_of(who, address)
        cap, name = (self.per_address, "MAX_STREAMS_PER_ADDRESS") if who is None \
            else (self.per_player, "MAX_STREAMS_PER_PLAYER")
        held = Held(client, who)
        now = self.clock()
        if not self._claim(keys=[self.key(client)], args=[now, now + LEASE_S, held.member, cap, int(LEASE_S * 2000)]):
            raise ApiError(429, "Too Many Requests",
                           f"at most {cap} streams may be held at once by one "
                           f"{'address without a token' if who is None else 'player'} ({name}); "
                           f"close one first", "too-many-streams", retry_after=RETRY_AFTER_S)
        with self._lock:
            self._held.add(held)
            self._count[client] += 1
            if self._checker is None:
                self._checker = threading.Thread(target=self._run, name="held-streams", daemon=True)
                self._checker.start()
        return held

    def key(self, client: str) -> str:
        return f"streams:held:{self.service}:{{{client}}}"

    def release(self, held: Held) -> None:
        """The stream is over (idempotent); its place is given back (or lapses, if Redis is down)."""
        with self._lock:
            if held not in self._held:
                return
            self._held.discard(held)
            self._count[held.client] -= 1
            if not self._count[held.client]:
                del self._count[held.client]
        try:
            self.r.zrem(self.key(held.client), held.member)
        except redis.RedisError as err:
            log.warning("giving back a stream's place: %s (it lapses within %s s)", err, LEASE_S)

    def renew(self) -> None:
        """Push on the lease of every stream held here (one pipeline)."""
        with self._lock:
            held = list(self._held)
        if not held:
            return
        until = self.clock() + LEASE_S
        pipe = self.r.pipeline(transaction=False)
        for h in held:
            pipe.zadd(self.key(h.client), {h.member: until}, xx=True)
            pipe.pexpire(self.key(h.client), int(LEASE_S * 2000))
        pipe.execute()

    @contextmanager
    def hold(self, who: Principal | None, address: str | None) -> Iterator[Held]:
        held = self.claim(who, address)
        try:
            yield held
        finally:
            self.release(held)

    def recheck(self) -> int:
        """One pass over every held stream's token; returns how many were ended."""
        with self._lock:
            held = [h for h in self._held if h.who is not None and not h.ended]
        now, ended = self.clock(), 0
        players = sorted({h.who.player_id for h in held if not h.who.is_bot})
        keys = [generation_key(p) for p in players]
        # on a Redis Cluster the keys lie in many slots: one MGET per slot, pipelined
        values = (self.r.mget_nonatomic(keys) if is_cluster(self.r) else self.r.mget(keys)) if keys else []
        current = dict(zip(players, values))
        for h in held:
            who = h.who
            if who.expires_at is not None and who.expires_at <= now:
                h.end("the token expired")
            elif not who.is_bot and who.generation is not None \
                    and int(current.get(who.player_id) or 0) != who.generation:
                h.end("the token was rotated or revoked")
            else:
                continue
            ended += 1
        return ended

    def _run(self) -> None:
        while True:
            time.sleep(self.recheck_s)
            try:
                self.recheck()
                if time.monotonic() - self._renewed >= LEASE_S / 3:
                    self.renew()
                    self._renewed = time.monotonic()
            except redis.RedisError as err:  # an outage: held streams go on; checked again next time
                log.warning("re-checking the tokens of held streams: %s", err)
            except Exception:
                log.exception("re-checking the tokens of held streams")



class Pacing:
    """When a held stream next wakes: in slices no longer than ``slice_s`` (so that an ended token
    is noticed), with a keep-alive once ``keepalive_s`` passed without anything sent."""

    def __init__(self, keepalive_s: float, slice_s: float):
        self.keepalive_s, self.slice_s = keepalive_s, slice_s
        self._sent = time.monotonic()

    def sent(self) -> None:
        self._sent = time.monotonic()

    def wait_s(self) -> float:
        """How long to wait for news before looking again."""
        return max(0.05, min(self.slice_s, self.keepalive_s - (time.monotonic() - self._sent)))

    def keepalive_due(self) -> bool:
        return time.monotonic() - self._sent >= self.keepalive_s
