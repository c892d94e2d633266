"""Deterministic randomness.

``SeededRng`` is the generator behind every chance outcome of a live match. It is keyed by the
match's secret seed and by a *label* (the log version a decision is made at), and draws its
bits from HMAC-SHA256(seed, f"{label}:{counter}"), so an auditor can re-derive each outcome from
the revealed seed with nothing but SHA-256:

* ``randbelow(n)``: take 8 bytes of the next block as a big-endian integer ``x``; reject while
  ``x >= 2**64 - 2**64 % n`` (no modulo bias); answer ``x % n``. Each call consumes one block.
* ``shuffle(items)``: Fisher-Yates from the end, ``j = randbelow(i + 1)`` for i = n-1 .. 1.

``FastRng`` has the same interface over ``random.Random`` for simulations (bots, benchmarks),
where speed matters and nothing is audited.
"""
from __future__ import annotations

import hashlib
import hmac
import random
from typing import Protocol, Sequence, TypeVar

T = TypeVar("T")


class Rng(Protocol):
    def randbelow(self, n: int) -> int: ...


class _RngMixin:
    def randbelow(self, n: int) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in [lo, hi]."""
        return lo + self.randbelow(hi - lo + 1)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("choice from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in a uniformly random order."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self.shuffled(items)[:k]


class SeededRng(_RngMixin):
    """Audit-grade generator: HMAC-SHA256(seed, "label:counter") blocks."""

    __slots__ = ("_key", "_label", "_counter")

    def __init__(self, seed: bytes, label: str | int):
        self._key = seed
        self._label = str(label)
        self._counter = 0

    def _block(self) -> int:
        msg = f"{self._label}:{self._counter}".encode()
        self._counter += 1
        return int.from_bytes(hmac.new(self._key, msg, hashlib.sha256).digest()[:8], "big")

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self._block()
            if x < limit:
                return x % n


class FastRng(_RngMixin):
    """Unaudited generator for simulations."""

    __slots__ = ("_r",)

    def __init__(self, seed: int | str | None = None):
        self._r = random.Random(seed)

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        return self._r.randrange(n)
