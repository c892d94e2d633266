"""A fixed-window rate limit counter that counts a request without a Redis call most of the time.

The ``limits`` library's fixed window hits a limit (an INCRBY-and-EXPIRE script) and then, for the
``RateLimit`` fields and a 429's ``Retry-After`` (``shared.limits``), reads the window again: a GET
and a TTL, two more round trips on every limited request. Here one script counts and returns the
count and the seconds left together, and a process counts a busy caller's hits in *leases*: it
takes several hits of the window from the shared counter at once (one ``INCRBY``) and spends
them locally, so that a player making many writes costs the counters' Redis one round trip per
lease instead of one per write.

Leases keep the limit exact where it matters:

* The first hit of a window in a process takes one hit; each following lease doubles, up to
  ``LEASE_MAX`` and to at most ``1/LEASE_SHARE`` of what the window had left when the lease was
  taken. A limit of fewer than ``2 * LEASE_SHARE`` writes a window is therefore counted one hit
  per call, as the library counts it; near the end of a large window leases shrink back to one.
* A lease never hands out a hit beyond the limit: the requests allowed in a window are at most
  the limit, over all processes together.
* What a process holds unused counts as spent for the others, so a caller may be refused a
  little early: at most what the processes hold, each at most ``LEASE_MAX`` and a
  ``LEASE_SHARE``-th of what was left. A process that dies loses what it held until the window
  ends (the same bound).
* A lease ends with its window (the counter's PTTL when it was taken); the next window starts
  again with one hit.

The ``remaining`` of a window (the ``RateLimit`` field's ``r``) is, for a process holding a
lease, the window's count at its last call less what it holds unused: exact for a caller served
by one process, and behind by the other processes' hits since for one served by several.

The counters' keys, values and expiry are the library's own (a counter written by the library's
fixed window is the same counter; a lease adds its size to it); on a storage other than Redis
(e.g. ``memory://``, which is the process's own) it is the library's fixed window, one hit per call.
"""
from __future__ import annotations

import functools
import threading
import time
from dataclasses import dataclass

from limits import RateLimitItem
from limits.storage import RedisStorage, Storage
from limits.strategies import FixedWindowRateLimiter
from limits.util import WindowStats

from .lru import Lru

LEASE_MAX = 16      # hits one lease takes at most
LEASE_SHARE = 32    # a lease takes at most this fraction (1/32) of what its window had left
LEASES_KEPT = 10_000  # callers' leases one process keeps at most (the least recently used go)

# KEYS: the counter. ARGV: the window's length (s), the hits taken. -> {count, milliseconds left}
_HIT = """
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
if current == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}
"""


@dataclass
class Lease:
    """Hits of one window that this process took from the shared counter."""
    ends: float    # the window's end (``time.time()``), as the counter's TTL gave it
    held: int      # hits taken and not yet spent
    size: int      # hits the last call took (the next lease doubles it)
    counted: int   # the shared counter after the last call (this process's held hits included)

    def remaining(self, amount: int) -> int:
        return max(0, amount - self.counted) + self.held


class OneTripCounter:
    """Counts hits of fixed windows in a ``limits`` storage, in leases where it is Redis."""

    def __init__(self, storage: Storage):
        self.storage = storage
        self._hit = storage.get_connection().register_script(_HIT) if isinstance(storage, RedisStorage) else None
        self._fallback = FixedWindowRateLimiter(storage)
        self._leases = Lru(LEASES_KEPT)
        self._lock = threading.Lock()
        # the storage's key of a limit's window for a caller (the library's key, made once per pair)
        self._counter_key = functools.lru_cache(maxsize=LEASES_KEPT)(
            lambda item, identifiers: storage.prefixed_key(item.key_for(*identifiers)))

    def hit(self, item: RateLimitItem, *identifiers: str, cost: int = 1) -> tuple[bool, WindowStats]:
        """Count ``cost`` against ``item``'s window for ``identifiers``: (within the limit, the window
        after the hit)."""
        if self._hit is None:
            allowed = self._fallback.hit(item, *identifiers, cost=cost)
            return allowed, self._fallback.get_window_stats(item, *identifiers)
        key = self._counter_key(item, identifiers)
        now = time.time()
        with self._lock:
            lease = self._leases.get(key)
            if lease is not None and now >= lease.ends:
                lease = None  # its window is over
            if lease is not None and lease.held >= cost:
                lease.held -= cost
                return True, WindowStats(lease.ends, lease.remaining(item.amount))
        size = cost if lease is None else \
            max(cost, min(LEASE_MAX, 2 * lease.size, (item.amount - lease.counted) // LEASE_SHARE))
        count, left_ms = (int(x) for x in self._hit([key], [item.get_expiry(), size]))
        within = item.amount - (count - size)  # how many of the hits just taken the limit allows
        taken = Lease(ends=now + max(left_ms, 0) / 1000, held=max(0, min(size, within) - cost), size=size, counted=count)
        with self._lock:
            self._leases.put(key, taken)
        if within < cost:
            return False, WindowStats(taken.ends, 0)
        return True, WindowStats(taken.ends, taken.remaining(item.amount))
