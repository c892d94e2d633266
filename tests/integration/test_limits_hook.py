"""The rate limits' own hook (shared/limits.py) against a real Redis: the counters flask-limiter kept
(so a rolling upgrade keeps counting the same windows), several limits in one setting, and a
counters' Redis that fails (the request goes on, without the fields)."""
import redis

from shared.auth import Tokens
from shared.localredis import free_port


def test_the_counters_are_flask_limiters_keys(make_app, redis_url):
    c = make_app().test_client()
    r = redis.Redis.from_url(redis_url)
    me = {"Authorization": f"Bearer {Tokens('unit-secret', r).for_player('p1')}"}
    c.post("/v1/queue", json={"game": "nope", "players": 2}, headers=me)
    c.post("/v1/players", json={"name": "keyed"})
    keys = {k.decode(): int(r.get(k)) for k in r.scan_iter(match="LIMITS:*")}
    assert keys == {"LIMITS:LIMITER/ratelimit:matchmaking/player:p1/writes-token/3000/1/minute": 1,
                    "LIMITS:LIMITER/ratelimit:matchmaking/address:127.0.0.1/writes-address/60000/1/minute": 1}
    assert all(0 < r.ttl(k) <= 60 for k in keys)


def test_a_setting_of_several_limits_counts_each_shortest_window_first(make_app, redis_url):
    c = make_app(RATE_LIMIT_WRITES_PER_TOKEN="5/minute;2/second").test_client()
    me = {"Authorization": f"Bearer {Tokens('unit-secret', redis.Redis.from_url(redis_url)).for_player('p2')}"}
    first = c.post("/v1/queue", json={"game": "nope", "players": 2}, headers=me)
    assert first.status_code == 422
    assert first.headers["RateLimit-Policy"] == '"writes-token";q=2;w=1, "writes-token";q=5;w=60'
    assert first.headers["RateLimit"].startswith('"writes-token";r=1;t=')


def test_a_failing_counters_redis_lets_the_request_through_without_fields(make_app):
    # the counters on a Redis nobody listens on (the match store is up): the request goes on
    app = make_app(RATE_LIMIT_REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")
    r = app.test_client().post("/v1/players", json={"name": "unlimited"})
    assert r.status_code == 201 and "RateLimit" not in r.headers
