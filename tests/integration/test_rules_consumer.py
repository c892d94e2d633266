"""The rules service's consumer of "match formed" messages, on a real Redis."""
from dataclasses import replace

from services.rules.consumer import REJECTED, on_formed
from services.rules.runtime import Runtime
from shared.config import load
from shared.streams import MATCHES_FORMED, Consumer, publish


def runtime(redis_url) -> Runtime:
    return Runtime.build(replace(load(), redis_url=redis_url))


def test_a_formed_match_is_created_once_however_often_it_is_delivered(redis_url, r):
    rt = runtime(redis_url)
    message = {"match_id": "m1", "game": "duel", "options": {}, "seats": [{"player_id": "a"}, {"bot": "random"}]}
    on_formed(rt, message)
    on_formed(rt, message)
    assert rt.matches.store.version("m1") == 2
    assert r.llen("rq:queue:bots") == 1  # the bot seat's first turn was enqueued


def test_a_message_that_can_never_succeed_is_recorded_and_acknowledged(redis_url, r):
    rt = runtime(redis_url)
    publish(r, MATCHES_FORMED, {"match_id": "bad", "game": "no-such-game", "options": {}, "seats": [{"bot": "random"}]})
    consumer = Consumer(r, MATCHES_FORMED, "rules", lambda _id, m: on_formed(rt, m))
    assert consumer.poll(block_ms=10) == 1
    assert b"unknown game" in r.hget(REJECTED, "bad")
    assert r.xpending(MATCHES_FORMED, "rules")["pending"] == 0
    assert not rt.matches.store.exists("bad")
