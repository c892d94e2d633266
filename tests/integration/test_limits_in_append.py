"""A move's rate limits counted by its append (``shared.limits.Deferred``, ``SideWrites.count``).

On a single match store the rules service keeps its counters in the store, and the counters of a
``POST …/moves`` go into the append's own script call: an accepted move costs one round trip and one
durable write, its counter included. What a client sees is what the before_request hook gave it:
the same counter keys, the same ``RateLimit`` fields, a 429 with ``Retry-After`` and nothing appended
once the window is used up, and a request refused before its append counted all the same.
Two app instances on one store stand for two worker processes.
"""
from __future__ import annotations

import re
import uuid

import pytest
import redis

import tests.support.duel  # noqa: F401  (registers the test game)
from services.rules.app import create_app
from shared import localredis
from shared.auth import Tokens
from shared.config import Config

SECRET = "limits-in-append"


def field(value: str) -> tuple[str, int, int]:
    m = re.fullmatch(r'"([a-z-]+)";r=(\d+);t=(\d+)', value)
    assert m, value
    return m[1], int(m[2]), int(m[3])


def calls(client: redis.Redis) -> dict[str, int]:
    return {k.removeprefix("cmdstat_"): v["calls"] for k, v in client.info("commandstats").items()}


def spent(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    used = {k: n - before.get(k, 0) for k, n in after.items() if n != before.get(k, 0)}
    used.pop("info", None)
    return used


@pytest.fixture
def rules(redis_url, tmp_path, monkeypatch):
    """make(**env) -> a rules app on the session's store and a queue Redis of its own."""
    queue = localredis.start(tmp_path / "queue")
    monkeypatch.setenv("RATE_LIMITS", "on")
    monkeypatch.setenv("TOKEN_GENERATION_CACHE_S", "0")
    monkeypatch.delenv("RATE_LIMIT_REDIS_URL", raising=False)

    def make(**env):
        for k, v in env.items():
            monkeypatch.setenv(k, str(v))
        app = create_app(Config(redis_url=redis_url, queue_redis_url=queue.url, auth_secret=SECRET))
        app.config["TESTING"] = True
        return app

    make.queue = redis.Redis.from_url(queue.url)
    yield make
    make.queue.close()
    queue.stop()


def _match(app) -> str:
    match_id = f"la-{uuid.uuid4().hex[:8]}"
    app.extensions["runtime"].create_match({"match_id": match_id, "game": "duel", "turn_seconds": None,
                                           "seats": [{"player_id": f"{match_id}-a"}, {"player_id": f"{match_id}-b"}]})
    return match_id


def _player(r, match_id: str, seat: int) -> dict:
    player = f"{match_id}-{'ab'[seat]}"
    return {"Authorization": f"Bearer {Tokens(SECRET, r).for_player(player)}"}


def _move(c, r, match_id: str, seat: int, **headers):
    me = {**_player(r, match_id, seat), **headers}
    turn = c.get(f"/v1/matches/{match_id}/turn", headers=me).get_json()
    return c.post(f"/v1/matches/{match_id}/moves", headers=me,
                  json={"move": turn["moves"][0], "expected_version": turn["version"]})


def test_a_move_s_counter_is_in_the_store_and_counted_by_the_append_alone(rules, r):
    app = rules(RATE_LIMIT_WRITES_PER_TOKEN="50/minute")
    mid = _match(app)
    c = app.test_client()
    c.get(f"/v1/matches/{mid}/turn", headers=_player(r, mid, 0))  # cached, scripts loaded
    me = {**_player(r, mid, 0), "Idempotency-Key": "k1"}
    turn = c.get(f"/v1/matches/{mid}/turn", headers=me).get_json()
    store_before, queue_before = calls(r), calls(rules.queue)
    answer = c.post(f"/v1/matches/{mid}/moves", headers=me, json={"move": turn["moves"][0], "expected_version": turn["version"]})
    store_used, queue_used = spent(store_before, calls(r)), spent(queue_before, calls(rules.queue))
    assert answer.status_code == 201, answer.get_json()
    assert answer.headers["RateLimit-Policy"] == '"writes-token";q=50;w=60'
    name, remaining, reset = field(answer.headers["RateLimit"])
    assert (name, remaining) == ("writes-token", 49) and 59 <= reset <= 60
    assert queue_used == {}, queue_used  # nothing on the queue Redis
    # one script call from the client (the append), with the counter's INCRBY, EXPIRE and TTL in it
    assert store_used["evalsha"] == 1 and store_used["incrby"] == 1 and store_used["ttl"] == 1, store_used
    key = f"LIMITS:LIMITER/ratelimit:rules/player:{mid}-a/writes-token/50/1/minute"  # the hook's own key
    assert int(r.get(key)) == 1 and 59 <= r.ttl(key) <= 60
    retry = c.post(f"/v1/matches/{mid}/moves", headers=me, json={"move": turn["moves"][0], "expected_version": turn["version"]})
    assert retry.status_code == 201 and field(retry.headers["RateLimit"])[1] == 48  # a replay counts too
    assert int(r.get(key)) == 2


def test_the_fields_count_down_to_a_429_that_appends_nothing(rules, r):
    worker_1, worker_2 = rules(RATE_LIMIT_WRITES_PER_TOKEN="2/minute"), rules(RATE_LIMIT_WRITES_PER_TOKEN="2/minute")
    mid = _match(worker_1)
    one, two = worker_1.test_client(), worker_2.test_client()
    remaining = []
    for _round in range(2):
        for seat in (0, 1):
            answer = _move(one, r, mid, seat)
            assert answer.status_code == 201, answer.get_json()
            if seat == 0:
                remaining.append(field(answer.headers["RateLimit"])[1])
    assert remaining == [1, 0]
    version = int(r.hget(f"{{m:{mid}}}:meta", "version"))
    # the second worker has not seen the window used up: its append counts and refuses
    refused = _move(two, r, mid, 0)
    assert refused.status_code == 429 and refused.get_json()["type"] == "urn:problem:rate-limited"
    name, left, reset = field(refused.headers["RateLimit"])
    assert (name, left) == ("writes-token", 0) and 1 <= reset <= 60 and int(refused.headers["Retry-After"]) == reset
    assert int(r.hget(f"{{m:{mid}}}:meta", "version")) == version  # nothing appended
    # the first worker saw the window used up: it refuses before any work, as the hook does
    again = _move(one, r, mid, 0)
    assert again.status_code == 429 and int(r.hget(f"{{m:{mid}}}:meta", "version")) == version


def test_a_move_refused_before_its_append_is_counted_all_the_same(rules, r):
    app = rules(RATE_LIMIT_WRITES_PER_TOKEN="2/minute")
    mid = _match(app)
    c = app.test_client()
    me = _player(r, mid, 0)
    version = c.get(f"/v1/matches/{mid}/turn", headers=me).get_json()["version"]
    illegal = c.post(f"/v1/matches/{mid}/moves", headers=me, json={"move": {"card": 99}, "expected_version": version})
    assert illegal.status_code == 422 and field(illegal.headers["RateLimit"])[1] == 1
    bad = c.post(f"/v1/matches/{mid}/moves", headers=me, data="{", content_type="application/json")
    assert bad.status_code == 400 and field(bad.headers["RateLimit"])[1] == 0
    assert _move(c, r, mid, 0).status_code == 429  # the window was used up by the two refusals


def test_without_a_single_store_the_hook_counts_as_before(rules, r, tmp_path):
    # the counters on a Redis of their own: the append counts nothing, the hook counts first
    own = localredis.start(tmp_path / "counters")
    try:
        app = rules(RATE_LIMIT_REDIS_URL=own.url, RATE_LIMIT_WRITES_PER_TOKEN="1/minute")
        assert not app.extensions["tabletop_limiter"].in_store
        mid = _match(app)
        c = app.test_client()
        assert _move(c, r, mid, 0).status_code == 201
        assert not list(r.scan_iter(match=f"LIMITS:*{mid}*"))
        assert [int(v) for v in (redis.Redis.from_url(own.url).get(k) for k in
                                 redis.Redis.from_url(own.url).scan_iter(match=f"LIMITS:*{mid}-a*"))] == [1]
        assert _move(c, r, mid, 1).status_code == 201
        assert _move(c, r, mid, 0).status_code == 429
    finally:
        own.stop()
