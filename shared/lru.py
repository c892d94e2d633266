"""A small thread-safe LRU map (process caches: match states, decoded compacted logs)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class Lru:
    """At most ``size`` entries; the least recently used goes first."""

    def __init__(self, size: int):
        self.size = size
        self._d: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        # without the lock: each OrderedDict call is one step under the GIL, and a key another
        # thread drops between the two is simply not moved (a lock here is gevent's under the
        # rules service's workers, several times the cost of the lookup)
        value = self._d.get(key)
        if value is not None:
            try:
                self._d.move_to_end(key)
            except KeyError:
                pass
        return value

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self.size:
                self._d.popitem(last=False)

    def drop(self, key: str) -> None:
        with self._lock:
            self._d.pop(key, None)
