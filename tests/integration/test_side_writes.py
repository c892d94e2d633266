"""The side writes of an append (``SideWrites``): made by the append's own script call when it
appends, and never otherwise (a conflict, a replayed Idempotency-Key, a bad side write)."""
from __future__ import annotations

import pytest
import redis

from shared.eventstore import GENESIS, EventStore
from shared.eventstore.store import Conflict, SideWrites, keys

SEED = b"\x01" * 32


def rec(i):
    return {"type": "t", "data": {"i": i}, "at": 0.0, "engine": "1"}


def writes(clocks_key="{m:m1}:deadlines"):
    w = SideWrites()
    w.zadd("due:a", "m1|watch", 100.0)
    w.zrem("due:a", "gone")
    w.xadd("notices", "m", '{"v": 1}', maxlen=1000)
    w.clock(clocks_key, "due:clocks", moved=None, over=False, due=50.5, waiting={0: "m1|0|1", 2: "m1|2|1"})
    return w


def test_an_append_makes_its_side_writes_in_the_same_call(r):
    store = EventStore(r)
    r.zadd("due:a", {"gone": 1})
    store.append("m1", 0, GENESIS, [rec(1)], SEED, side=writes())
    assert r.zrange("due:a", 0, -1, withscores=True) == [(b"m1|watch", 100.0)]
    assert [f[b"m"] for _id, f in r.xrange("notices")] == [b'{"v": 1}']
    assert r.hgetall(keys("m1")["deadlines"]) == {b"0": b"50.5", b"2": b"50.5"}
    assert r.zrange("due:clocks", 0, -1, withscores=True) == [(b"m1|0|1", 50.5), (b"m1|2|1", 50.5)]


def test_clocks_keep_their_time_drop_the_seat_that_moved_and_go_when_the_match_is_over(r):
    store = EventStore(r)
    first = store.append("m1", 0, GENESIS, [rec(1)], SEED, side=writes())
    w = SideWrites()  # seat 0 moved; seats 1 and 2 now wait: 2 keeps its clock, 1 gets one
    w.clock(keys("m1")["deadlines"], "due:clocks", moved=0, over=False, due=80.0, waiting={1: "m1|1|2", 2: "m1|2|2"})
    second = store.append("m1", 1, first.records[-1]["hash"], [rec(2)], SEED, side=w)
    assert r.hgetall(keys("m1")["deadlines"]) == {b"1": b"80.0", b"2": b"50.5"}
    assert r.zscore("due:clocks", "m1|1|2") == 80.0 and r.zscore("due:clocks", "m1|2|2") is None
    w = SideWrites()
    w.clock(keys("m1")["deadlines"], "due:clocks", moved=1, over=True, due=90.0, waiting={})
    store.append("m1", 2, second.records[-1]["hash"], [rec(3)], SEED, side=w)
    assert not r.exists(keys("m1")["deadlines"])


def test_a_conflict_or_a_replayed_key_makes_no_side_write(r):
    store = EventStore(r)
    first = store.append("m1", 0, GENESIS, [rec(1)], SEED, idempotency_field="0:k", fingerprint="f",
                         response=lambda sealed: '{"version": 1, "events": []}')
    with pytest.raises(Conflict):
        store.append("m1", 0, GENESIS, [rec(2)], SEED, side=writes())
    again = store.append("m1", 1, first.records[-1]["hash"], [rec(2)], SEED, idempotency_field="0:k",
                         fingerprint="f", response=lambda sealed: "{}", side=writes())
    assert again.duplicate == '{"version": 1, "events": []}' and again.duplicate_fingerprint == "f"
    assert not r.exists("due:a", "notices", "due:clocks", keys("m1")["deadlines"])
    assert store.version("m1") == 1


def test_an_unknown_side_write_is_refused_before_anything_is_written(r):
    store = EventStore(r)
    w = writes()
    w.ops.append(["hdel", 4, "x"])
    with pytest.raises(redis.ResponseError, match="unknown side write"):
        store.append("m1", 0, GENESIS, [rec(1)], SEED, side=w)
    assert store.version("m1") == 0 and not r.exists(keys("m1")["log"], "due:a", "notices")
