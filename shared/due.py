"""A sorted set of things that fall due at a time, each taken by one worker at a time.

``claim`` takes the members whose time has come and, in the same step, pushes their time forward by
a lease: several processes sweeping the same set never take the same member at once, and a member
whose taker died falls due again when the lease runs out. The taker removes it when done.
"""
from __future__ import annotations

import redis

_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return due
"""


class DueSet:
    def __init__(self, client: redis.Redis, key: str):
        self.r, self.key = client, key
        self._claim = client.register_script(_CLAIM)

    def claim(self, now: float, lease_s: float, limit: int = 100) -> list[str]:
        """The members due by ``now`` (at most ``limit``), each now leased for ``lease_s``."""
        return [m.decode() for m in self._claim(keys=[self.key], args=[now, now + lease_s, limit])]
