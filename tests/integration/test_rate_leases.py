"""Rate limit counters in leases (shared/ratewindow.py) on a real Redis and on fakeredis: a busy
caller's writes cost the counters' Redis one call per lease, a small limit is counted one call
per hit, no window allows more than its limit over all processes together, and a lease ends with
its window."""
import time

import pytest
from limits import parse
from limits.storage import RedisStorage

from shared.ratewindow import LEASE_MAX, LEASE_SHARE, OneTripCounter

pytestmark = pytest.mark.store
KEY = "LIMITS:LIMITER/ratelimit:t/player:p/writes-token/{}/1/{}"


def counter(r) -> OneTripCounter:
    """A process's counter on ``r`` (each call: another process with leases of its own)."""
    return OneTripCounter(RedisStorage("redis://unused", connection_pool=r.connection_pool))


def hit(c: OneTripCounter, limit: str):
    return c.hit(parse(limit), "ratelimit:t", "player:p", "writes-token")


def test_a_limit_of_fewer_than_two_lease_shares_a_window_is_counted_at_each_hit(r):
    c, limit = counter(r), f"{2 * LEASE_SHARE - 1}/minute"
    for n in range(1, 2 * LEASE_SHARE + 2):
        allowed, window = hit(c, limit)
        assert int(r.get(KEY.format(2 * LEASE_SHARE - 1, "minute"))) == n  # one hit per call: no lease
        assert allowed == (n <= 2 * LEASE_SHARE - 1)
        assert window.remaining == max(0, 2 * LEASE_SHARE - 1 - n)


def test_a_busy_caller_costs_the_counters_one_call_per_lease_and_its_remaining_counts_down_by_one(r):
    c, key = counter(r), KEY.format(3000, "minute")
    seen, remaining = [], []
    for _ in range(40):
        allowed, window = hit(c, "3000/minute")
        assert allowed
        remaining.append(window.remaining)
        value = int(r.get(key))
        if not seen or seen[-1] != value:
            seen.append(value)
    # leases of 1, 2, 4, 8, 16 and 16 hits: six calls for forty writes
    assert seen == [1, 3, 7, 15, 31, 47] and LEASE_MAX == 16
    assert remaining == list(range(2999, 2959, -1))  # one process: exact


def test_no_window_allows_more_than_its_limit_over_all_processes_and_refuses_little_early(r):
    processes, amount = [counter(r) for _ in range(3)], 1000
    allowed = sum(hit(processes[i % 3], f"{amount}/minute")[0] for i in range(3 * amount))
    assert allowed <= amount
    # what the others held unused at the end: near the limit leases shrink to one hit
    assert allowed >= amount - 2 * len(processes)


def test_a_lease_ends_with_its_window(r):
    c, key = counter(r), KEY.format(100_000, "second")
    for _ in range(8):
        assert hit(c, "100000/second")[0]
    assert int(r.get(key)) == 15  # leases of 1, 2, 4 and 8: 7 hits held
    deadline = time.monotonic() + 30
    while r.exists(key):  # the one-second window ends
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert hit(c, "100000/second")[0]
    assert int(r.get(key)) == 1  # the new window is counted from its first hit, not from a held lease
