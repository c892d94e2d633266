"""What the move path and the read path cost the match store, counted (issue #24).

The rules app runs in this process against a real Redis (the session's server, its match store)
and a queue Redis of its own (bot turns, rate-limit counters). ``MONITOR`` on the store lists
every command its clients send, and the commands a script runs are told apart (``client_type``
lua): the counts below are what a request sends, so they do not depend on the machine's speed.

Goals: an accepted move is exactly one write command to the store (the append's script call,
which carries the idempotency answer, the notice, the clocks and the follow-up watch); a read of
a cached match is one call for the match (plus the token's revocation check for a caller with a
token); a human move cycle costs at most 12 store commands.
"""
from __future__ import annotations

import threading
import uuid
from collections import Counter

import pytest
import redis

import tests.support.duel  # noqa: F401  (registers the test game)
from services.rules.app import create_app
from services.rules.deadlines import DUE, deadlines_key
from services.rules.followups import FOLLOWUPS
from shared import localredis
from shared.auth import Tokens
from shared.config import Config
from shared.notices import PLAYER_NOTICES

SECRET = "round-trips-secret"
READS = {"GET", "HGET", "HMGET", "HGETALL", "EXISTS", "XRANGE", "ZREVRANGEBYSCORE", "ZRANGE", "TTL"}


def writes_of(app, sent: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The commands of ``sent`` that may write (all but plain reads and the head script)."""
    head = app.extensions["matches"].store._head.sha
    return [cmd for cmd in sent if cmd[0].upper() not in READS
            and not (cmd[0].upper() == "EVALSHA" and cmd[1].strip('"') == head)]


class StoreCommands:
    """The commands clients send to one Redis between ``start`` and ``stop`` (MONITOR)."""

    def __init__(self, url: str):
        self.url = url
        self.seen: list[tuple[str, ...]] = []
        self.stopped = False
        self._marks = Counter()
        self._cond = threading.Condition()
        self._client = redis.Redis.from_url(url)
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        self._mark("ready", repeat=True)  # MONITOR shows only what comes after it started

    def _watch(self) -> None:
        try:
            self._listen()
        except (redis.ConnectionError, OSError):  # the server went away at the end of the session
            pass

    def _listen(self) -> None:
        with redis.Redis.from_url(self.url, socket_timeout=None).monitor() as m:
            for cmd in m.listen():
                if self.stopped:
                    return
                words = tuple(cmd["command"].split())
                if cmd.get("client_type") == "lua" or not words:
                    continue
                with self._cond:
                    if words[0].upper() == "ECHO" and len(words) == 2 and words[1].startswith("mark-"):
                        self._marks[words[1]] += 1
                        self._cond.notify_all()
                    else:
                        self.seen.append(words)

    def _mark(self, name: str, *, repeat: bool = False) -> None:
        """Wait until MONITOR has shown everything sent before this point (commands reach it in
        the order the server runs them). ``repeat``: send the mark until it is seen."""
        tag = f"mark-{name}-{uuid.uuid4().hex[:8]}"
        for _ in range(600 if repeat else 1):
            self._client.echo(tag)
            with self._cond:
                if self._cond.wait_for(lambda: self._marks[tag], timeout=0.1 if repeat else 60):
                    return
        raise AssertionError("MONITOR fell silent")

    def stop(self) -> None:
        self.stopped = True
        self._client.echo("mark-stop")  # wakes the listener, which then ends
        self._thread.join(10)
        self._client.close()

    def during(self, action) -> list[tuple[str, ...]]:
        """The commands sent while ``action()`` ran; its answer is in ``self.answer``."""
        self._mark("before")
        with self._cond:
            start = len(self.seen)
        self.answer = action()
        self._mark("after")
        with self._cond:
            return [c for c in self.seen[start:] if c[0].upper() not in ("PING",)]


@pytest.fixture
def rules(redis_url, tmp_path, monkeypatch):
    queue = localredis.start(tmp_path / "queue")
    monkeypatch.setenv("RATE_LIMITS", "on")
    # exact counts: the token generation read for every request (a test below sets the cache)
    monkeypatch.setenv("TOKEN_GENERATION_CACHE_S", "0")
    monkeypatch.delenv("RATE_LIMIT_REDIS_URL", raising=False)
    app = create_app(Config(redis_url=redis_url, queue_redis_url=queue.url, auth_secret=SECRET))
    app.config["TESTING"] = True
    store = StoreCommands(redis_url)
    client = redis.Redis.from_url(redis_url)
    yield app, store, client
    store.stop()
    client.close()
    queue.stop()


def _match(app, seats, turn_seconds=None) -> str:
    match_id = f"rt-{uuid.uuid4().hex[:8]}"
    app.extensions["runtime"].create_match({"match_id": match_id, "game": "duel", "seats": seats,
                                           "turn_seconds": turn_seconds})
    return match_id


def _auth(r, player: str) -> dict:
    return {"Authorization": f"Bearer {Tokens(SECRET, r).for_player(player)}"}


def _script_shas(app) -> dict[str, str]:
    store = app.extensions["matches"].store
    return {"append": store._append.sha, "head": store._head.sha}


def test_an_accepted_move_is_one_write_command_to_the_store(rules):
    app, store, r = rules
    mid = _match(app, [{"player_id": "a"}, {"player_id": "b"}], turn_seconds=600)
    c = app.test_client()
    turn = c.get(f"/v1/matches/{mid}/turn", headers=_auth(r, "a")).get_json()  # the process caches the match
    headers = {**_auth(r, "a"), "Idempotency-Key": "k-1"}
    sent = store.during(lambda: c.post(f"/v1/matches/{mid}/moves", headers=headers,
                                       json={"move": turn["moves"][0], "expected_version": turn["version"]}))
    assert store.answer.status_code == 201, store.answer.get_json()
    version = store.answer.get_json()["version"]
    writes = writes_of(app, sent)
    assert len(writes) == 1 and writes[0][0].upper() == "EVALSHA", sent
    assert writes[0][1].strip('"') == _script_shas(app)["append"], sent
    assert [cmd[:2] for cmd in sent if cmd not in writes] == [("GET", "auth:token-gen:a")], sent
    # everything the move changes in the store came with that one call
    notices = [e for e in r.xrange(PLAYER_NOTICES) if f'"version":{version}'.encode() in e[1][b"m"]]
    assert len(notices) == 1
    assert r.hexists(deadlines_key(mid), "1") and not r.hexists(deadlines_key(mid), "0")  # seat 0 acted
    assert r.zscore(DUE, f"{mid}|1|{turn['version']}") is not None  # armed when the match began, still running
    assert r.zscore(FOLLOWUPS, f"{mid}|watch") is None  # nothing outside the store must follow
    assert r.get(f"{{m:{mid}}}:idem:0:k-1").startswith(b"done ")
    # the retry is answered from the store and changes nothing
    again = store.during(lambda: c.post(f"/v1/matches/{mid}/moves", headers=headers,
                                        json={"move": turn["moves"][0], "expected_version": turn["version"]}))
    assert store.answer.status_code == 201 and store.answer.get_json()["version"] == version
    assert r.hget(f"{{m:{mid}}}:meta", "version") == str(version).encode()
    assert writes_of(app, again) == [] and len(again) <= 4, again  # token, head (stale version), the answer


def test_a_cached_read_is_one_call_for_the_match(rules):
    app, store, r = rules
    mid = _match(app, [{"player_id": "a"}, {"player_id": "b"}], turn_seconds=600)
    c = app.test_client()
    c.get(f"/v1/matches/{mid}")  # cached from here on
    head_sha = _script_shas(app)["head"]
    for path, headers in [("", {}), ("/view", {}), ("/turn", _auth(r, "a")), ("/legal-moves", _auth(r, "b")),
                          ("/view", _auth(r, "b"))]:
        sent = store.during(lambda path=path, headers=headers: c.get(f"/v1/matches/{mid}{path}", headers=headers))
        assert store.answer.status_code == 200, (path, store.answer.get_json())
        match_calls = [cmd for cmd in sent if cmd[0].upper() == "EVALSHA"]
        assert len(match_calls) == 1 and match_calls[0][1].strip('"') == head_sha, (path, sent)
        others = [cmd for cmd in sent if cmd not in match_calls]
        # a caller with a token: its revocation check (the player's token generation), nothing else
        assert len(others) == (1 if headers else 0) and all(cmd[0].upper() == "GET" for cmd in others), (path, sent)
    body = c.get(f"/v1/matches/{mid}/turn", headers=_auth(r, "a")).get_json()
    assert set(body["deadlines"]) == {"0", "1"}  # the clocks come with the head, from the same call


@pytest.mark.parametrize("reads", [("/turn",), ("", "/legal-moves")], ids=["turn", "summary+legal-moves"])
def test_a_human_move_cycle_costs_at_most_twelve_store_commands(rules, reads):
    app, store, r = rules
    mid = _match(app, [{"player_id": "a"}, {"player_id": "b"}], turn_seconds=600)
    c = app.test_client()
    c.get(f"/v1/matches/{mid}")
    cycles, total, kinds = 0, 0, Counter()
    over = False
    while not over:
        for seat, player in ((0, "a"), (1, "b")):
            headers = _auth(r, player)

            def cycle(headers=headers):
                answers = [c.get(f"/v1/matches/{mid}{path}", headers=headers).get_json() for path in reads]
                legal = answers[-1]
                if not legal["moves"]:
                    return None
                return c.post(f"/v1/matches/{mid}/moves", headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
                              json={"move": legal["moves"][0], "expected_version": legal["version"]})

            sent = store.during(cycle)
            if store.answer is None:
                over = True
                break
            assert store.answer.status_code == 201, store.answer.get_json()
            cycles += 1
            total += len(sent)
            kinds.update(cmd[0].upper() for cmd in sent)
            assert len(sent) <= 12, sent
            over = store.answer.get_json()["events"][-1]["type"] == "match.ended"
            if over:
                break
    assert cycles >= 6  # three rounds, both seats
    assert kinds["EVALSHA"] == cycles * (len(reads) + 1), kinds  # one head read per GET, one append per move
    others = sum(n for k, n in kinds.items() if k not in ("EVALSHA", "GET"))
    assert others <= 6, kinds  # only the finishing move's transaction (MULTI, publish, flag, compaction, watch, EXEC)


def test_a_move_that_hands_the_turn_to_a_bot_leaves_the_watch_in_the_same_write(rules):
    app, store, r = rules
    mid = _match(app, [{"player_id": "a"}, {"bot": "random"}])
    c = app.test_client()
    turn = c.get(f"/v1/matches/{mid}/turn", headers=_auth(r, "a")).get_json()
    r.zrem(FOLLOWUPS, f"{mid}|watch")  # the creation's own watch: the move must write its own
    sent = store.during(lambda: c.post(f"/v1/matches/{mid}/moves", headers=_auth(r, "a"),
                                       json={"move": turn["moves"][0], "expected_version": turn["version"]}))
    assert store.answer.status_code == 201
    writes = writes_of(app, sent)
    assert len(writes) == 1 and writes[0][1].strip('"') == _script_shas(app)["append"], sent
    assert r.zscore(FOLLOWUPS, f"{mid}|watch") is not None  # a lost bot job is noticed by the sweep


def test_a_process_one_move_behind_reads_the_head_and_nothing_more(rules, redis_url):
    """Two processes, one per player (as two gunicorn workers): each one's read after the other's
    move is the head read alone, whose tail brings the move (no XRANGE of the log); a meta without
    a tail (the last move made by an older release) costs the read of the log, same answer."""
    app, store, r = rules
    other = create_app(Config(redis_url=redis_url, queue_redis_url=app.extensions["config"].queue_redis_url,
                              auth_secret=SECRET))
    mid = _match(app, [{"player_id": "a"}, {"player_id": "b"}])
    clients = {"a": app.test_client(), "b": other.test_client()}
    for player in ("a", "b"):  # each process has folded the match and decided once (it holds the seed)
        clients[player].get(f"/v1/matches/{mid}/turn", headers=_auth(r, player))

    def move(player):
        c, me = clients[player], _auth(r, player)
        turn = c.get(f"/v1/matches/{mid}/turn", headers=me).get_json()
        assert turn["moves"], turn
        answer = c.post(f"/v1/matches/{mid}/moves", headers=me,
                        json={"move": turn["moves"][0], "expected_version": turn["version"]})
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()["version"]

    move("a"), move("b")  # both processes have made a move
    version = move("a")
    sent = store.during(lambda: clients["b"].get(f"/v1/matches/{mid}/turn", headers=_auth(r, "b")))
    assert store.answer.get_json()["version"] == version
    assert [cmd[0].upper() for cmd in sent if cmd[:2] != ("GET", "auth:token-gen:b")] == ["HMGET"], sent
    move("b")
    r.hdel(f"{{m:{mid}}}:meta", "tail")  # as an older release's append leaves the meta
    sent = store.during(lambda: clients["a"].get(f"/v1/matches/{mid}/turn", headers=_auth(r, "a")))
    fresh = create_app(Config(redis_url=redis_url, queue_redis_url=app.extensions["config"].queue_redis_url,
                              auth_secret=SECRET)).test_client()
    assert store.answer.get_json() == fresh.get(f"/v1/matches/{mid}/turn", headers=_auth(r, "a")).get_json()
    assert "XRANGE" in [cmd[0].upper() for cmd in sent], sent


def test_a_bot_move_cycle_is_a_head_read_and_one_write(rules):
    """The bot worker's cycle (``GET /turn``, ``POST /moves`` with the seat's bot token): the
    store sees the head read and the append, nothing else (a bot token needs no revocation check)."""
    app, store, _r = rules
    mid = _match(app, [{"player_id": "a"}, {"bot": "random"}])
    c = app.test_client()
    c.get(f"/v1/matches/{mid}")
    bot = {"Authorization": f"Bearer {Tokens(SECRET).for_bot(mid, 1, 'random')}"}

    def cycle():
        turn = c.get(f"/v1/matches/{mid}/turn", headers=bot).get_json()
        return c.post(f"/v1/matches/{mid}/moves", headers={**bot, "Idempotency-Key": "bot-1"},
                      json={"move": turn["moves"][0], "expected_version": turn["version"]})

    sent = store.during(cycle)
    assert store.answer.status_code == 201, store.answer.get_json()
    shas = _script_shas(app)
    # a match without a turn clock: its cached head is one HMGET (the seed is checked only where a
    # state is folded from the log)
    assert [cmd[0].upper() for cmd in sent] == ["HMGET", "EVALSHA"], sent
    assert sent[1][1].strip('"') == shas["append"], sent


def test_a_player_s_requests_within_the_generation_cache_read_the_generation_once(rules, monkeypatch):
    """``TOKEN_GENERATION_CACHE_S``: a process trusts a generation it read for that long, so the
    POST right after a ``/turn`` sends no revocation read; a rotation in this process is seen at once."""
    app, store, r = rules
    tokens = app.extensions["tokens"]
    tokens.generation_cache_s = 3600.0
    mid = _match(app, [{"player_id": "a"}, {"player_id": "b"}])
    c = app.test_client()
    headers = _auth(r, "a")
    turn = c.get(f"/v1/matches/{mid}/turn", headers=headers).get_json()
    sent = store.during(lambda: c.post(f"/v1/matches/{mid}/moves", headers=headers,
                                       json={"move": turn["moves"][0], "expected_version": turn["version"]}))
    assert store.answer.status_code == 201, store.answer.get_json()
    assert not [cmd for cmd in sent if cmd[0].upper() == "GET"], sent
    tokens.rotate("a")
    assert c.get(f"/v1/matches/{mid}/turn", headers=headers).status_code == 401
