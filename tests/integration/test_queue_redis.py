"""Bot turns queue on a Redis of their own (``QUEUE_REDIS_URL``), apart from the match store."""
from __future__ import annotations

import pytest
import redis
import requests

from shared import localredis
from tests.support.stack import Client, start_stack, wait_for

pytestmark = pytest.mark.slow


def test_bot_jobs_live_on_the_queue_redis_and_the_match_store_holds_none(tmp_path):
    store, queue = localredis.start(tmp_path / "store"), localredis.start(tmp_path / "queue")
    stack = start_stack(store.url, tmp_path, QUEUE_REDIS_URL=queue.url)
    try:
        host = Client.register(stack, "host")
        r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"bot": "random"}, {"bot": "greedy"}]})
        assert r.status_code == 201, r.text
        match_id = r.json()["match_id"]
        wait_for(lambda: requests.get(f"{stack.rules}/v1/matches/{match_id}").json()["status"] == "finished", 120,
                 0.2, "the bot match to finish")
        store_keys = [k.decode() for k in redis.Redis.from_url(store.url).keys("rq:*")]
        queue_keys = [k.decode() for k in redis.Redis.from_url(queue.url).keys("rq:job:turn-*")]
        assert store_keys == []
        assert any(match_id in k for k in queue_keys)
    finally:
        stack.stop()
        store.stop()
        queue.stop()
