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
        with self._lock:
            value = self._d.get(key)
            if value is not None:
                self._d.move_to_end(key)
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
