"""The lean path of ``POST …/moves`` (services/rules/fast_moves.py) answers exactly as the Flask
route does: the same requests, played once through the route alone and once with the lean path in
front, on the same fresh store, get the same status, headers and bodies; the rate limits count
each request once; the request metrics count the same; and the lean path does serve the accepted
moves itself (it is not handing everything to the route)."""
from __future__ import annotations

import json
import re

import pytest
import redis

from services.rules.app import create_app
from shared import localredis, metrics
from shared.auth import Tokens
from shared.config import Config
from shared.engine import registry
from tests.support.pile import PILE

SECRET = "fast-moves-secret"
MID = "fast-moves-match"
BOTS = "fast-moves-bot-match"  # a against a bot
LIMIT = 12  # writes per minute per player: b's 13th write, the scenario's last, is refused
CHAIN = {"at", "hash", "prev_hash", "hidden_digest", "created_at"}  # differ with the match's seed


@pytest.fixture
def servers(redis_url, tmp_path, monkeypatch):
    registry.register(PILE)  # no chance: both runs alike; installed for this test only
    queue = localredis.start(tmp_path / "queue")
    monkeypatch.setenv("RATE_LIMITS", "on")
    monkeypatch.setenv("RATE_LIMIT_WRITES_PER_TOKEN", f"{LIMIT}/minute")
    monkeypatch.setenv("TOKEN_GENERATION_CACHE_S", "0")
    monkeypatch.setenv("CORS_ORIGINS", "https://play.example")
    monkeypatch.delenv("RATE_LIMIT_REDIS_URL", raising=False)
    yield redis_url, queue
    queue.stop()
    registry._games.pop((PILE.id, PILE.version), None)
    registry._latest.pop(PILE.id, None)


def masked(value):
    if isinstance(value, dict):
        return {k: ("…" if k in CHAIN else masked(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [masked(v) for v in value]
    return value


def answer_of(response) -> tuple:
    """What a client gets, the chain's hashes and times masked (the seed differs between runs)."""
    data = response.get_data()
    response.close()  # the server has sent it (what lets the watchers go)
    try:
        body = masked(json.loads(data))
    except ValueError:
        body = None
    raw = re.sub(rb'"(%s)":("[^"]*"|[0-9.]+)' % "|".join(sorted(CHAIN)).encode(), rb'"\1":"-"', data)
    headers = sorted((k, v if k != "RateLimit" else v.rsplit(";t=", 1)[0]) for k, v in response.headers.items()
                     if k not in ("Content-Length", "Date"))
    return response.status_code, headers, body, raw


def request_counts() -> dict:
    """The request metrics of the moves route, and the moves appended (``tabletop_moves_appended``)."""
    counts = {tuple(sorted(s.labels.items())): s.value for m in metrics.REQUESTS.collect() for s in m.samples
              if s.name.endswith("_total") and s.labels.get("route", "").endswith("/moves")}
    counts.update({("appended", s.labels["game"]): s.value for m in metrics.MOVES.collect() for s in m.samples
                   if s.name.endswith("_total")})
    return counts


def fresh_app(redis_url: str, queue, fast: bool):
    """A rules app on emptied servers with one pile match between a and b, and one between a and a bot."""
    r = redis.Redis.from_url(redis_url)
    r.flushall()
    redis.Redis.from_url(queue.url).flushall()
    app = create_app(Config(redis_url=redis_url, queue_redis_url=queue.url, auth_secret=SECRET))
    app.config["TESTING"] = True
    app.extensions["fast_moves"].enabled = fast
    app.extensions["matches"].clock = lambda: 1_800_000_000.0
    app.extensions["runtime"].create_match({"match_id": MID, "game": "pile", "seats": [
        {"player_id": "a"}, {"player_id": "b"}], "options": {"stones": 40}, "turn_seconds": None})
    app.extensions["runtime"].create_match({"match_id": BOTS, "game": "pile", "seats": [
        {"player_id": "a"}, {"bot": "random"}], "options": {"stones": 40}, "turn_seconds": None})
    return app, r


def play(redis_url: str, queue, fast: bool) -> tuple[list[tuple], dict, object]:
    """The scenario through a fresh app on freshly emptied servers: every answer, the request
    metrics' increase and the lean path's own counts."""
    app, r = fresh_app(redis_url, queue, fast)
    tokens = Tokens(SECRET, r)
    a, b, c = ({"Authorization": f"Bearer {tokens.for_player(p)}"} for p in "abc")
    bot = {"Authorization": f"Bearer {tokens.for_bot(MID, 1, 'random')}"}
    client = app.test_client()
    url = f"/v1/matches/{MID}/moves"
    turn = client.get(f"/v1/matches/{MID}/turn", headers=a).get_json()
    move, v = {"type": "take", "n": 1}, turn["version"]
    assert move in turn["moves"]
    before = request_counts()
    answers = []

    def post(headers, body=None, path=url, **kw):
        kw.setdefault("json", body)
        answers.append(answer_of(client.post(path, headers=headers, **kw)))
        return answers[-1]

    assert post({**a, "Idempotency-Key": "k1"}, {"move": move, "expected_version": v})[0] == 201
    post({**a, "Idempotency-Key": "k1"}, {"move": move, "expected_version": v})  # the retry: replayed
    post({**a, "Idempotency-Key": "k1"}, {"move": move, "expected_version": v + 5})  # the key reused: 422
    post({**a}, {"move": move, "expected_version": v + 1})  # not a's decision now: 403
    post(b, {"move": move, "expected_version": v})  # stale: 409
    post(b, {"move": {"type": "take", "n": 9}, "expected_version": v + 1})  # illegal: 422
    post(b, {"move": move, "expected_version": v + 1}, path="/v1/matches/nope/moves")  # 404
    post({}, {"move": move, "expected_version": v + 1})  # 401
    post({"Authorization": "Bearer forged"}, {"move": move, "expected_version": v + 1})  # 401
    post(c, {"move": move, "expected_version": v + 1})  # no seat: 403
    post(bot, {"move": move, "expected_version": v + 1})  # a bot token for a person's seat: 403
    post(b, {"move": move, "expected_version": v + 1, "extra": 1})  # 422
    post(b, {"move": move, "expected_version": True})  # 422
    post(b, {"move": move, "expected_version": -1})  # 422
    post(b, {"move": "take", "expected_version": v + 1})  # 422
    post(b, None, data="{", content_type="application/json")  # 400
    post(b, None, data=json.dumps({"move": move, "expected_version": 10 ** 30}),
         content_type="application/json")  # 400: a number too large
    post(b, None, data=json.dumps({"move": move, "expected_version": v + 1}), content_type="text/plain")
    post(a, None, data=b"\xef\xbb\xbf" + json.dumps({"move": move, "expected_version": v + 1}).encode(),
         content_type="application/json")  # a byte-order mark: the app's answer
    post(a, None, data=json.dumps({"move": move, "expected_version": v + 1}).encode("utf-16"),
         content_type="application/json")  # UTF-16: the app's answer
    post({**b, "Idempotency-Key": "x" * 201}, {"move": move, "expected_version": v + 1})  # 400
    post({**b, "Origin": "https://play.example"}, {"move": move, "expected_version": v + 1})  # cross-origin: 201
    post(a, {"move": move, "expected_version": v + 2}, path=f"{url}?x=1")  # a query string: 201
    post(b, {"move": move, "expected_version": v + 1})  # b's writes reach the limit: 429
    against_bot = f"/v1/matches/{BOTS}/moves"
    its_bot = {"Authorization": f"Bearer {tokens.for_bot(BOTS, 1, 'random')}"}
    post(a, {"move": move, "expected_version": v}, path=against_bot)  # 201
    post(its_bot, {"move": move, "expected_version": v + 1}, path=against_bot)  # the bot's move: 201
    post(its_bot, {"move": move, "expected_version": v + 2}, path=against_bot)  # not its turn: 403
    post({"Authorization": f"Bearer {tokens.for_bot(BOTS, 0, 'random')}"},
         {"move": move, "expected_version": v + 2}, path=against_bot)  # seat 0 is a person's: 403
    counted = int(r.get("LIMITS:LIMITER/ratelimit:rules/player:b/writes-token/%d/1/minute" % LIMIT) or 0) + \
        int(redis.Redis.from_url(queue.url).get(
            "LIMITS:LIMITER/ratelimit:rules/player:b/writes-token/%d/1/minute" % LIMIT) or 0)
    after = request_counts()
    increase = {k: after[k] - before.get(k, 0) for k in after if after[k] != before.get(k, 0)}
    assert app.extensions["live"].gate._idle.is_set()  # every write let the watchers go again
    return answers, {"metrics": increase, "b_counted": counted}, app.extensions["fast_moves"]


def test_the_lean_path_answers_every_outcome_as_the_route_does(servers):
    redis_url, queue = servers
    route, route_counts, route_fast = play(redis_url, queue, fast=False)
    lean, lean_counts, lean_fast = play(redis_url, queue, fast=True)
    statuses = [a[0] for a in route]
    assert statuses == [201, 201, 422, 403, 409, 422, 404, 401, 401, 403, 403, 422, 422, 422, 422, 400, 400, 422,
                        400, 400, 400, 201, 201, 429, 201, 201, 403, 403], statuses
    for i, (expected, got) in enumerate(zip(route, lean)):
        assert got == expected, f"request {i}: the lean path answered {got}, the route {expected}"
    assert lean_counts == route_counts
    assert route_counts["metrics"][("appended", "pile")] == 5  # the six 201s less the replay
    assert route_counts["b_counted"] == LIMIT + 1  # b's 13 writes, each counted once (the 429 too)
    # a's accepted move and its replay, a's and the bot's moves against each other
    assert route_fast.served == 0 and lean_fast.served == 4


def test_an_error_after_the_append_is_answered_as_the_route_answers_it(servers):
    """The follow-ups outside the store failing (the queue Redis down) after the move is written:
    the same 503 on both paths, and the move stays written."""
    redis_url, queue = servers
    answers = []
    for fast in (False, True):
        app, r = fresh_app(redis_url, queue, fast)

        def down(_state):
            raise redis.ConnectionError("the queue Redis is down")

        app.extensions["followups"].after_commit = down
        me = {"Authorization": f"Bearer {Tokens(SECRET, r).for_player('a')}", "Idempotency-Key": "k"}
        client = app.test_client()
        version = client.get(f"/v1/matches/{MID}").get_json()["version"]
        answers.append(answer_of(client.post(f"/v1/matches/{MID}/moves", headers=me,
                                             json={"move": {"type": "take", "n": 1}, "expected_version": version})))
        assert client.get(f"/v1/matches/{MID}").get_json()["version"] == version + 1
        assert app.extensions["live"].gate._idle.is_set()
    assert answers[0][0] == 503 and answers[1] == answers[0]


def test_a_store_outage_before_the_move_is_the_route_s_503(servers, tmp_path):
    """The match store down when the move comes (the token's generation cannot be read): the lean
    path hands the request to the route, which answers 503 with Retry-After, not a crash."""
    redis_url, queue = servers
    store = localredis.start(tmp_path / "store")
    try:
        app, r = fresh_app(store.url, queue, fast=True)
        me = {"Authorization": f"Bearer {Tokens(SECRET, r).for_player('a')}"}
        client = app.test_client()
        version = client.get(f"/v1/matches/{MID}").get_json()["version"]
        store.stop()
        answer = client.post(f"/v1/matches/{MID}/moves", headers=me,
                             json={"move": {"type": "take", "n": 1}, "expected_version": version})
        assert answer.status_code == 503 and int(answer.headers["Retry-After"]) > 0, answer.get_data()
        assert app.extensions["fast_moves"].handed_over == 1
    finally:
        store.stop()
