"""The API conventions that need settings of their own (CORS off, any origin, a tight rate limit):
the Flask apps against a real Redis. The real stack's side is tests/integration/test_api_conventions.py."""
import re

import pytest
import redis

from shared.auth import Tokens
from shared.cors import CorsConfigError, origins
from shared.web import validation_detail, validation_errors

PROBLEM = "application/problem+json"
PREFLIGHT = {"Origin": "https://client.example", "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type"}



def auth(redis_url, player="p1"):
    return {"Authorization": f"Bearer {Tokens('unit-secret', redis.Redis.from_url(redis_url)).for_player(player)}"}


def test_no_origin_is_allowed_by_default(make_app):
    c = make_app().test_client()
    r = c.options("/v1/tables", headers=PREFLIGHT)
    assert not [h for h in r.headers.keys() if h.lower().startswith("access-control-")]
    r = c.get("/v1/games", headers={"Origin": "https://client.example"})
    assert r.status_code == 200 and "Access-Control-Allow-Origin" not in r.headers


def test_any_origin_with_a_star(make_app):
    c = make_app(CORS_ORIGINS="*").test_client()
    r = c.options("/v1/tables", headers=PREFLIGHT)
    assert r.status_code == 200 and r.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in r.headers


def test_cors_origins_are_checked_at_start(make_app):
    assert origins(" https://a.example , http://localhost:5173/ ,, ") == ["https://a.example", "http://localhost:5173"]
    assert origins("") == [] and origins("https://a.example,*") == ["*"]
    for bad in ("a.example", "https://a.example/path"):
        with pytest.raises(CorsConfigError):
            origins(bad)
    with pytest.raises(CorsConfigError):
        make_app(CORS_ORIGINS="example.org")


def field(value):
    m = re.fullmatch(r'"([a-z-]+)";r=(\d+);t=(\d+)', value)
    assert m, value
    return m[1], int(m[2]), int(m[3])


def test_the_ratelimit_fields_count_down_to_a_429_with_retry_after(make_app, redis_url):
    c = make_app(RATE_LIMIT_WRITES_PER_TOKEN="2/minute").test_client()
    me = auth(redis_url)
    answers = [c.post("/v1/queue", json={"game": "nope", "players": 2}, headers=me) for _ in range(3)]
    assert [a.status_code for a in answers] == [422, 422, 429]
    for a in answers:
        assert a.headers["RateLimit-Policy"] == '"writes-token";q=2;w=60'
    assert [field(a.headers["RateLimit"])[1] for a in answers] == [1, 0, 0]
    limited = answers[2]
    assert limited.mimetype == PROBLEM and limited.get_json()["type"] == "urn:problem:rate-limited"
    name, _, reset = field(limited.headers["RateLimit"])
    assert name == "writes-token" and 1 <= reset <= 60 and int(limited.headers["Retry-After"]) == reset
    assert "Retry-After" not in answers[0].headers  # only the refusal says when to retry


def test_streams_carry_the_stream_policy_and_reads_none(make_app, redis_url):
    c = make_app(SSE_KEEPALIVE_S="0.05").test_client()
    r = c.get("/v1/players/me/stream", headers=auth(redis_url), buffered=False)
    assert r.status_code == 200 and r.headers["RateLimit-Policy"] == '"streams-token";q=120;w=60'
    r.close()
    assert "RateLimit" not in c.get("/v1/games").headers


def test_bad_bodies_are_counted_too(make_app, redis_url):
    c = make_app(RATE_LIMIT_WRITES_PER_TOKEN="1/minute").test_client()
    me = auth(redis_url)
    first = c.post("/v1/queue", data="{", content_type="application/json", headers=me)
    assert first.status_code == 400 and field(first.headers["RateLimit"])[1] == 0
    assert c.post("/v1/queue", data="{", content_type="application/json", headers=me).status_code == 429


def test_the_token_is_checked_before_the_body(make_app):
    c = make_app().test_client()
    for headers in ({}, {"Authorization": "Bearer nonsense"}):
        r = c.post("/v1/tables", data="{not json", content_type="application/json", headers=headers)
        assert r.status_code == 401 and r.headers["WWW-Authenticate"].startswith('Bearer realm="tabletop"')
    assert 'error="invalid_token"' in c.post("/v1/tables", json={}, headers={"Authorization": "Bearer x"}) \
        .headers["WWW-Authenticate"]


def test_the_bearer_scheme_name_is_case_insensitive(make_app, redis_url):
    c = make_app().test_client()
    token = auth(redis_url, "p2")["Authorization"].split(" ", 1)[1]
    for scheme in ("Bearer", "bearer", "BEARER"):
        r = c.post("/v1/queue", json={"game": "nope", "players": 2}, headers={"Authorization": f"{scheme} {token}"})
        assert r.status_code == 422, (scheme, r.get_json())


def test_validation_messages_are_flattened_to_fields():
    messages = {"json": {"seats": {1: {"bot": ["Must be one of: random, greedy, search."]}},
                         "turn_seconds": ["Not a valid number."], "options": {"rounds": {"value": ["Bad."]}}},
                "query": {"limit": ["Must be at least 1."], "_schema": ["Unknown field."]}}
    errors = validation_errors(messages)
    assert errors == {"seats.1.bot": ["Must be one of: random, greedy, search."],
                      "turn_seconds": ["Not a valid number."], "options.rounds.value": ["Bad."],
                      "limit": ["Must be at least 1."], "query": ["Unknown field."]}
    assert validation_errors({"json": {"_schema": ["Invalid input type."]}}) == {"body": ["Invalid input type."]}
    detail = validation_detail(errors)
    assert detail.startswith("5 fields of the request are invalid: seats.1.bot (Must be one of") \
        and detail.endswith("and 2 more.")
    assert validation_detail({"name": ["Missing data for required field."]}) == \
        "1 field of the request is invalid: name (Missing data for required field)."


def test_the_documented_example_of_a_validation_problem(make_app, redis_url):
    c = make_app().test_client()
    r = c.post("/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"bot": "nope"}],
                                   "turn_seconds": "soon"}, headers=auth(redis_url))
    body = r.get_json()
    assert r.status_code == 422 and body["type"] == "urn:problem:unprocessable-entity"
    assert set(body["errors"]) == {"seats.1.bot", "turn_seconds"}, body


def test_a_limited_request_costs_the_counters_redis_one_round_trip(make_app, redis_url):
    """The count and the window for the RateLimit fields come from one script call
    (``shared.ratewindow``), not a hit followed by a GET and a TTL."""
    c = make_app(RATE_LIMIT_WRITES_PER_TOKEN="5/minute").test_client()
    me = auth(redis_url)
    c.post("/v1/queue", json={"game": "nope", "players": 2}, headers=me)  # the scripts are loaded
    r = redis.Redis.from_url(redis_url)

    def calls():
        return {k.removeprefix("cmdstat_"): v["calls"] for k, v in r.info("commandstats").items()}

    before = calls()
    answer = c.post("/v1/queue", json={"game": "nope", "players": 2}, headers=me)
    after = calls()
    assert field(answer.headers["RateLimit"])[1] == 3
    used = {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}
    used.pop("info", None)
    limiter = {k: n for k, n in used.items() if k in ("get", "ttl", "pttl", "incrby", "evalsha", "expire")}
    # besides the counter's script (INCRBY and PTTL inside it) only the token's generation GET
    assert limiter == {"evalsha": 1, "incrby": 1, "pttl": 1, "get": 1}, used
