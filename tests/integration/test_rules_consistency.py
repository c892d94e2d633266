"""Several rules processes on one Redis, and a Redis that lost data or is down: a stale
``expected_version`` is always a 409 with the current version, no process serves or writes from a
cache ahead of Redis, and an outage is a 503 with Retry-After.

Each "process" is its own ``create_app`` (its own caches) behind a real HTTP server."""
import threading

import pytest
import redis
import requests
from werkzeug.serving import make_server

from services.rules.app import create_app
from shared import localredis
from shared.auth import Tokens
from shared.canonical import loads
from shared.config import Config
from shared.eventstore import EventStore
from shared.eventstore.store import Conflict, keys
from shared.matches import Matches

SECRET = "test-secret"
PROBLEM = "application/problem+json"


class RulesServer:
    def __init__(self, redis_url: str):
        self.app = create_app(Config(redis_url=redis_url, auth_secret=SECRET))
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.thread.join(10)


@pytest.fixture
def servers(redis_url):
    started = []

    def start():
        started.append(RulesServer(redis_url))
        return started[-1]

    yield start
    for s in started:
        s.stop()


def new_duel(redis_url, match_id="m1"):
    matches = Matches(EventStore(redis.Redis.from_url(redis_url)))
    matches.create(match_id, "duel", {"rounds": 3}, [{"player_id": "alice"}, {"player_id": "bob"}])
    return matches


def auth(player):
    return {"Authorization": f"Bearer {Tokens(SECRET).for_player(player)}"}


def move_of(base, player):
    moves = requests.get(f"{base}/legal-moves", headers=auth(player)).json()
    return moves["moves"][0], moves["version"]


def post(base, player, move, version):
    return requests.post(f"{base}/moves", json={"move": move, "expected_version": version}, headers=auth(player))


def test_a_stale_version_is_a_409_even_where_the_cache_says_the_seat_has_nothing_to_decide(redis_url, servers):
    """Process B's cache is at version v where alice has already committed; Redis has moved on
    (bob committed through A, a new round began). Alice posting with v must get 409, not 403."""
    new_duel(redis_url)
    a, b = servers(), servers()
    base_a, base_b = f"{a.url}/v1/matches/m1", f"{b.url}/v1/matches/m1"
    move, v0 = move_of(base_a, "alice")
    assert post(base_a, "alice", move, v0).status_code == 201
    cached = requests.get(base_b).json()  # B caches the state where only bob is to act
    assert cached["to_act"] == [1]
    bob_move, v1 = move_of(base_a, "bob")
    assert post(base_a, "bob", bob_move, v1).status_code == 201
    head = requests.get(base_a).json()
    assert 0 in head["to_act"] and head["version"] > v1
    # B's cache is still at v1, where alice has no decision: the answer must be 409 with the head.
    alice_move = requests.get(f"{base_a}/legal-moves", headers=auth("alice")).json()["moves"][0]
    resp = post(base_b, "alice", alice_move, v1)
    assert resp.status_code == 409, resp.text
    assert resp.headers["Content-Type"].startswith(PROBLEM)
    assert resp.json()["current_version"] == head["version"]
    # An illegal move refused from the stale cache is a 409 too.
    resp = post(base_b, "bob", {"type": "commit", "card": 999}, v1)
    assert resp.status_code == 409 and resp.json()["current_version"] == head["version"]
    # With the current version, B takes the move.
    assert post(base_b, "alice", alice_move, head["version"]).status_code == 201


def test_a_move_refused_at_the_head_stays_a_403_or_422(redis_url, servers):
    new_duel(redis_url)
    a = servers()
    base = f"{a.url}/v1/matches/m1"
    move, v = move_of(base, "alice")
    assert post(base, "alice", move, v).status_code == 201
    assert post(base, "alice", move, v + 1).status_code == 403
    assert post(base, "bob", {"type": "commit", "card": 999}, v + 1).status_code == 422


def _truncate(r, match_id, keep: int):
    """Simulate a Redis that lost the events after ``keep`` (a restart from an older file)."""
    k = keys(match_id)
    entries = r.xrange(k["log"])
    r.delete(k["log"])  # rebuilt: a restarted Redis knows nothing of the lost ids
    for entry_id, fields in entries[:keep]:
        r.xadd(k["log"], fields, id=entry_id)
    kept = [loads(fields[b"e"]) for _id, fields in entries[:keep]]
    r.hset(k["meta"], mapping={"version": keep, "head_hash": kept[-1]["hash"]})
    r.delete(k["snaps"], k["audit"])


def _play(matches, match_id, n):
    """Play ``n`` moves; the states after each (Redis loses whole appends, so data is lost back to one of these)."""
    mstate = matches.state(match_id)
    states = [mstate]
    for _ in range(n):
        game = matches.game_of(mstate)
        seat = game.to_act(mstate["game"])[0]
        mstate = matches.submit(match_id, seat, game.legal_moves(mstate["game"], seat)[0], mstate["version"]).state
        states.append(mstate)
    return states


def test_a_cache_ahead_of_a_redis_that_lost_events_is_dropped(redis_url, r):
    matches = new_duel(redis_url)
    played = _play(matches, "m1", 4)
    ahead, lost_at = played[-1], played[-3]["version"]
    _truncate(r, "m1", lost_at)
    # A write decided on the cache (which is ahead) is refused with Redis's version; nothing appended.
    game = matches.game_of(ahead)
    seat = game.to_act(ahead["game"])[0]
    with pytest.raises(Conflict) as err:
        matches.submit("m1", seat, game.legal_moves(ahead["game"], seat)[0], ahead["version"])
    assert err.value.current == lost_at and matches.store.version("m1") == lost_at
    served = matches.state("m1")
    assert served["version"] == lost_at and served["head_hash"] == matches.store.meta("m1")["head_hash"]
    # The match goes on from what Redis has, and its log still audits clean.
    assert _play(matches, "m1", 1)[-1]["version"] > lost_at
    assert matches.audit("m1")["chain_valid"] is True


def test_reads_never_serve_a_cache_ahead_of_redis(redis_url, r):
    matches = new_duel(redis_url)
    played = _play(matches, "m1", 4)
    lost_at = played[-3]["version"]
    _truncate(r, "m1", lost_at)
    assert matches.view("m1", 0)["version"] == lost_at
    assert matches.legal_moves("m1", 0)["version"] == lost_at


def test_a_cache_on_another_history_at_the_same_version_is_dropped(redis_url, r):
    first, second = new_duel(redis_url), Matches(EventStore(redis.Redis.from_url(redis_url)))
    played = _play(first, "m1", 3)
    before = played[-1]
    _truncate(r, "m1", played[-2]["version"])
    # Another process appends a different event at the lost version (its timestamp differs).
    mstate = second.state("m1")
    game = second.game_of(mstate)
    seat = game.to_act(mstate["game"])[-1]
    redone = second.submit("m1", seat, game.legal_moves(mstate["game"], seat)[-1], mstate["version"]).state
    assert redone["version"] == before["version"] and redone["head_hash"] != before["head_hash"]
    # The first process's cache is at that version with the old hash: it must not serve it.
    assert first.state("m1")["head_hash"] == redone["head_hash"]
    assert first.view("m1", seat) == second.view("m1", seat)


def test_a_write_from_a_cache_on_a_lost_history_is_refused_and_the_cache_dropped(redis_url, r):
    first, second = new_duel(redis_url), Matches(EventStore(redis.Redis.from_url(redis_url)))
    played = _play(first, "m1", 3)
    before = played[-1]
    _truncate(r, "m1", played[-2]["version"])
    _play(second, "m1", 1)  # a new history reaches the version the first process has cached
    game = first.game_of(before)
    seat = game.to_act(before["game"])[0]
    with pytest.raises(Conflict):  # decided on the cache, refused by the append's hash check
        first.submit("m1", seat, game.legal_moves(before["game"], seat)[0], before["version"])
    assert first.state("m1")["head_hash"] == second.state("m1")["head_hash"]


def test_a_redis_outage_is_a_503_with_retry_after(tmp_path):
    server = localredis.start(tmp_path / "redis")
    try:
        new_duel(server.url)
        rules = RulesServer(server.url)
        try:
            base = f"{rules.url}/v1/matches/m1"
            assert requests.get(base).status_code == 200
            server.stop()
            for path in ("", "/view", "/events", "/audit", "/turn"):
                resp = requests.get(f"{base}{path}", headers=auth("alice"), timeout=30)
                assert resp.status_code == 503, (path, resp.text)
                assert resp.headers["Content-Type"].startswith(PROBLEM)
                assert int(resp.headers["Retry-After"]) > 0
            resp = requests.post(f"{base}/moves", json={"move": {"type": "commit", "card": 1}, "expected_version": 3},
                                 headers=auth("alice"), timeout=30)
            assert resp.status_code == 503 and resp.headers["Retry-After"]
            resp = requests.get(f"{rules.url}/readyz", timeout=30)
            assert resp.status_code == 503 and resp.headers["Retry-After"]
        finally:
            rules.stop()
    finally:
        server.stop()
