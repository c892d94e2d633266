"""Consumers acknowledge in batches: the entries of one read in one XACK, and with ``ack_delay_s``
the entries of several reads together (once ``batch`` wait or the oldest waited that long)."""
from __future__ import annotations

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
