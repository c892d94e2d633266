"""A fixed-window rate limit counter that counts a request and reads its window in one Redis call.

The ``limits`` library's fixed window hits a limit (an INCRBY-and-EXPIRE script) and then, for the
``RateLimit`` fields and a 429's ``Retry-After`` (``shared.limits``), reads the window again: a GET
and a TTL, two more round trips on every limited request. ``OneTripCounter.hit`` has its script
return the count and the seconds left together, so that a limited request costs the counters'
Redis one round trip. The counters' keys, values and expiry are the library's own (a counter
written by the library's fixed window is the same counter); on a storage other than Redis (e.g.
``memory://``) it is the library's fixed window.
"""
from __future__ import annotations

import time

from limits import RateLimitItem
from limits.storage import RedisStorage, Storage
from limits.strategies import FixedWindowRateLimiter
from limits.util import WindowStats

# KEYS: the counter. ARGV: the window's length (s), the cost. -> {count, seconds left}
_HIT = """
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
if current == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('TTL', KEYS[1])}
"""


class OneTripCounter:
    """Counts hits of fixed windows in a ``limits`` storage."""

    def __init__(self, storage: Storage):
        self.storage = storage
        self._hit = storage.get_connection().register_script(_HIT) if isinstance(storage, RedisStorage) else None
        self._fallback = FixedWindowRateLimiter(storage)

    def hit(self, item: RateLimitItem, *identifiers: str, cost: int = 1) -> tuple[bool, WindowStats]:
        """Count ``cost`` against ``item``'s window for ``identifiers``: (within the limit, the window
        after the hit)."""
        if self._hit is None:
            allowed = self._fallback.hit(item, *identifiers, cost=cost)
            return allowed, self._fallback.get_window_stats(item, *identifiers)
        key = self.storage.prefixed_key(item.key_for(*identifiers))
        count, left = (int(x) for x in self._hit([key], [item.get_expiry(), cost]))
        return count <= item.amount, WindowStats(time.time() + max(left, 0), max(0, item.amount - count))
