"""Consumers acknowledge in batches: the entries of one read in one XACK, and with ``ack_delay_s``
the entries of several reads together (once ``batch`` wait or the oldest waited that long)."""
from __future__ import annotations

import time

from shared.streams import Consumer, publish

STREAM = "stream:test:acks"


def test_one_read_is_acknowledged_with_one_xack(r):
    for i in range(5):
        publish(r, STREAM, {"i": i})
    seen = []
    consumer = Consumer(r, STREAM, "g", lambda _id, m: seen.append(m["i"]))
    before = r.info("commandstats").get("cmdstat_xack", {}).get("calls", 0)
    assert consumer.poll(block_ms=10) == 5
    assert r.info("commandstats")["cmdstat_xack"]["calls"] - before == 1
    assert seen == [0, 1, 2, 3, 4] and r.xpending(STREAM, "g")["pending"] == 0


def test_delayed_acknowledgements_wait_for_a_batch_or_their_time(r):
    consumer = Consumer(r, STREAM, "g", lambda _id, m: None, batch=3, ack_delay_s=3600)
    publish(r, STREAM, {"i": 0})
    assert consumer.poll(block_ms=10) == 1
    assert r.xpending(STREAM, "g")["pending"] == 1  # handled, not yet acknowledged
    publish(r, STREAM, {"i": 1})
    consumer.poll(block_ms=10)
    assert r.xpending(STREAM, "g")["pending"] == 2
    publish(r, STREAM, {"i": 2})
    consumer.poll(block_ms=10)  # three wait: one XACK for all
    assert r.xpending(STREAM, "g")["pending"] == 0
    publish(r, STREAM, {"i": 3})
    consumer.poll(block_ms=10)
    consumer.flush_acks()  # at shutdown
    assert r.xpending(STREAM, "g")["pending"] == 0


def test_a_crash_before_the_acknowledgement_delivers_the_entries_again(r):
    publish(r, STREAM, {"i": 0})
    Consumer(r, STREAM, "g", lambda _id, m: None, name="dies", ack_delay_s=3600).poll(block_ms=10)
    again = []
    survivor = Consumer(r, STREAM, "g", lambda _id, m: again.append(m["i"]), name="survivor", claim_idle_ms=0)
    survivor.poll(block_ms=10)
    assert again == [0] and r.xpending(STREAM, "g")["pending"] == 0


def _calls(r, command: str) -> int:
    return r.info("commandstats").get(f"cmdstat_{command}", {}).get("calls", 0)


def test_consumers_of_one_process_read_their_streams_in_one_xreadgroup(r):
    from shared.streams import poll_together

    other = f"{STREAM}:other"
    seen = []
    first = Consumer(r, STREAM, "g", lambda _id, m: seen.append(("first", m["i"])), name="one")
    second = Consumer(r, other, "g", lambda _id, m: seen.append(("second", m["i"])), name="one")
    publish(r, STREAM, {"i": 1})
    publish(r, other, {"i": 2})
    poll_together([first, second], block_ms=10)  # the groups are created, the first reclaim done
    assert sorted(seen) == [("first", 1), ("second", 2)]
    publish(r, other, {"i": 3})
    reads = _calls(r, "xreadgroup")
    assert poll_together([first, second], block_ms=10) == 1
    assert _calls(r, "xreadgroup") - reads == 1 and seen[-1] == ("second", 3)
    assert r.xpending(STREAM, "g")["pending"] == 0 and r.xpending(other, "g")["pending"] == 0


def test_pending_entries_are_looked_for_every_half_claim_idle_not_every_poll(r):
    consumer = Consumer(r, STREAM, "g", lambda _id, m: None)  # claim_idle_ms 30 s: a look every 5 s
    consumer.poll(block_ms=1)
    looks = _calls(r, "xpending")
    for _ in range(5):
        consumer.poll(block_ms=1)
    assert _calls(r, "xpending") == looks
    eager = Consumer(r, STREAM, "g", lambda _id, m: None, name="eager", claim_idle_ms=0)
    for _ in range(3):
        eager.poll(block_ms=1)
    assert _calls(r, "xpending") - looks == 3  # idle 0: every poll looks, as before


def test_a_read_handled_together_acknowledges_what_succeeded_and_reclaims_one_by_one(r):
    """``handle_many`` gets the messages of one read at once; the entries it says failed stay
    pending (delivered again), and a reclaimed entry goes through the one-by-one handler."""
    for i in range(4):
        publish(r, STREAM, {"i": i})
    batches, singles = [], []

    def many(entries):
        batches.append([m["i"] for _id, m in entries])
        return [m["i"] != 2 for _id, m in entries]

    consumer = Consumer(r, STREAM, "g", lambda _id, m: singles.append(m["i"]), handle_many=many, claim_idle_ms=1)
    consumer._next_reclaim = float("inf")  # the first poll reads new entries only
    assert consumer.poll(block_ms=10) == 3
    assert batches == [[0, 1, 2, 3]] and singles == []
    pending = r.xpending_range(STREAM, "g", min="-", max="+", count=10)
    assert [r.xrange(STREAM, p["message_id"], p["message_id"])[0][1] for p in pending] == [{b"m": b'{"i":2}'}]
    while r.xpending_range(STREAM, "g", min="-", max="+", count=1)[0]["time_since_delivered"] <= 1:
        time.sleep(0.002)  # reclaimable only once idle longer than claim_idle_ms (Redis's clock)
    consumer._next_reclaim = 0.0
    assert consumer.poll(block_ms=10) == 1  # entry 2, reclaimed once idle
    assert singles == [2] and r.xpending(STREAM, "g")["pending"] == 0
