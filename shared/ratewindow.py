"""A fixed-window rate limit that counts a request and reads its window in one Redis call.

flask-limiter's fixed window hits a limit (``limits``' INCRBY-and-EXPIRE script) and then, for the
``RateLimit`` fields and a 429's ``Retry-After`` (``shared.limits``), reads the window again: a GET
and a TTL, two more round trips on every limited request. ``OneTripFixedWindow`` has its hit's
script return the count and the seconds left together and keeps them for the rest of the request
(``flask.g``), so that a limited request costs the counters' Redis one round trip. It is the
strategy ``fixed-window-one-trip`` (registered with ``limits`` on import); the counters' keys,
values and expiry are the library's own, and outside a request or on a storage other than Redis it
is the library's fixed window unchanged.
"""
from __future__ import annotations

import time

from flask import g, has_request_context
from limits.storage import RedisStorage
from limits.strategies import STRATEGIES, FixedWindowRateLimiter
from limits.util import WindowStats

NAME = "fixed-window-one-trip"

# KEYS: the counter. ARGV: the window's length (s), the cost. -> {count, seconds left}
_HIT = """
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
if current == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('TTL', KEYS[1])}
"""


class OneTripFixedWindow(FixedWindowRateLimiter):
    def __init__(self, storage):
        super().__init__(storage)
        self._hit = storage.get_connection().register_script(_HIT) if isinstance(storage, RedisStorage) else None

    def hit(self, item, *identifiers: str, cost: int = 1) -> bool:
        if self._hit is None or not has_request_context():
            return super().hit(item, *identifiers, cost=cost)
        key = self.storage.prefixed_key(item.key_for(*identifiers))
        count, left = (int(x) for x in self._hit([key], [item.get_expiry(), cost]))
        windows = g.setdefault("_rate_windows", {})
        windows[key] = WindowStats(time.time() + max(left, 0), max(0, item.amount - count))
        return count <= item.amount

    def get_window_stats(self, item, *identifiers: str) -> WindowStats:
        if self._hit is not None and has_request_context():
            known = g.get("_rate_windows", {}).get(self.storage.prefixed_key(item.key_for(*identifiers)))
            if known is not None:
                return known
        return super().get_window_stats(item, *identifiers)


STRATEGIES[NAME] = OneTripFixedWindow
