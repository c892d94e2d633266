"""shared/lru.py: the least recently used entry goes first, and threads reading, writing and
dropping at once never fail nor leave more than ``size`` entries (reads take no lock). No server."""
from __future__ import annotations

import threading

from shared.lru import Lru


def test_the_least_recently_used_goes_first():
    lru = Lru(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # a is now the most recent
    lru.put("c", 3)
    assert lru.get("b") is None and lru.get("a") == 1 and lru.get("c") == 3
    lru.drop("a")
    assert lru.get("a") is None and lru.get("missing") is None


def test_threads_reading_writing_and_dropping_at_once():
    lru, errors = Lru(50), []

    def work(offset: int) -> None:
        try:
            for i in range(20_000):
                key = f"k{(i * 7 + offset) % 120}"
                if i % 3 == 0:
                    lru.put(key, i)
                elif i % 11 == 0:
                    lru.drop(key)
                else:
                    lru.get(key)
        except Exception as err:  # noqa: BLE001 - what the test looks for
            errors.append(err)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(lru._d) <= 50
