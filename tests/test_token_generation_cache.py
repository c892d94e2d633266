"""``TOKEN_GENERATION_CACHE_S`` (shared/auth.py): a process trusts a token generation it read for a
bounded time, so a rotation elsewhere is refused within that bound, and at once where it happened.
Against fakeredis with a hand-driven monotonic clock: no timing, no server."""
from __future__ import annotations

import fakeredis

from shared.auth import Tokens, generation_key


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _pair(bound: float):
    r, clock = fakeredis.FakeRedis(), Clock()
    return r, clock, Tokens("s", r, generation_cache_s=bound, monotonic=clock)


def test_a_rotation_elsewhere_is_refused_once_the_bound_has_passed():
    r, clock, tokens = _pair(1.0)
    old = tokens.for_player("p")
    assert tokens.verify(old) is not None
    Tokens("s", r, generation_cache_s=0).rotate("p")  # another process rotates the token
    clock.now += 0.5
    assert tokens.verify(old) is not None  # still inside the bound: trusted
    clock.now += 0.6
    assert tokens.verify(old) is None  # past it: refused


def test_a_rotation_in_this_process_is_refused_at_once():
    _r, _clock, tokens = _pair(3600.0)
    old = tokens.for_player("p")
    assert tokens.verify(old) is not None
    new = tokens.rotate("p")
    assert tokens.verify(old) is None and tokens.verify(new) is not None


def test_within_the_bound_the_generation_is_read_once_and_zero_reads_it_every_time():
    r, clock, tokens = _pair(1.0)
    token = tokens.for_player("p")
    clock.now += 2  # what minting read has expired
    reads = []
    real_get = r.get
    r.get = lambda key: reads.append(key) or real_get(key)
    for _ in range(5):
        assert tokens.verify(token) is not None
    assert reads == [generation_key("p")]
    uncached = Tokens("s", r, generation_cache_s=0)
    for _ in range(3):
        assert uncached.verify(token) is not None
    assert len(reads) == 4


def test_a_signature_checked_once_still_has_its_expiry_and_generation_checked_every_time():
    """A process remembers the payloads of tokens whose signature it checked (shared/auth.py
    ``_payload``); what a payload says is still checked on every request."""
    r, clock, tokens = _pair(0)
    wall = [1000.0]
    tokens.clock = lambda: wall[0]
    token = tokens.for_player("p")
    assert tokens.verify(token) is not None
    assert tokens.verify(token) is not None  # from the remembered payload
    wall[0] += tokens.ttl_s + 1
    assert tokens.verify(token) is None  # expired, remembered or not
    wall[0] = 1000.0
    Tokens("s", r, generation_cache_s=0).rotate("p")
    assert tokens.verify(token) is None  # revoked, remembered or not
    forged = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
    assert tokens.verify(forged) is None
    assert Tokens("other-secret", r).verify(token) is None  # remembered per process and secret
