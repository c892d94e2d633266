"""The migration framework and each migration on hand-made data of older releases (no stack)."""
from __future__ import annotations

import json
import random
import threading
import time

import pytest
from itsdangerous import URLSafeSerializer

from shared import migrations
from shared.auth import LEGACY_EXPIRY, Tokens, auth_migrations
from shared.canonical import dumps, loads
from shared.migrations import Migration, SchemaTooNew, ensure

pytestmark = pytest.mark.store  # each test taking `r`: on a real Redis and on fakeredis (the lock scripts too)


# ----- the framework -------------------------------------------------------------------------------
def test_runs_each_step_once_in_order_and_logs_it(r):
    calls = []
    steps = [Migration(1, "one", lambda c: calls.append(1) or {"n": 1}),
             Migration(2, "two", lambda c: calls.append(2) or {"n": 2})]
    applied = ensure(r, "demo", steps)
    assert [e["version"] for e in applied] == [1, 2] and calls == [1, 2]
    assert migrations.current_version(r, "demo") == 2
    assert [(e["version"], e["name"], e["report"]) for e in migrations.history(r, "demo")] == \
        [(1, "one", {"n": 1}), (2, "two", {"n": 2})]
    assert ensure(r, "demo", steps) == [] and calls == [1, 2]  # current: nothing runs
    steps.append(Migration(3, "three", lambda c: calls.append(3)))
    ensure(r, "demo", steps)
    assert calls == [1, 2, 3]


def test_several_processes_starting_at_once_migrate_once(r):
    ran = []

    def slow(client):
        ran.append(threading.get_ident())
        time.sleep(0.5)
        return {}

    steps = [Migration(1, "slow", slow)]
    errors = []

    def start():
        try:
            ensure(r, "race", steps)
        except Exception as err:  # noqa: BLE001
            errors.append(err)

    threads = [threading.Thread(target=start) for _ in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(ran) == 1
    assert migrations.current_version(r, "race") == 1


def test_a_step_that_fails_is_run_again_next_start(r):
    state = {"fail": True}

    def flaky(client):
        if state["fail"]:
            raise RuntimeError("boom")
        return {}

    steps = [Migration(1, "ok", lambda c: {}), Migration(2, "flaky", flaky)]
    with pytest.raises(RuntimeError):
        ensure(r, "flaky", steps)
    assert migrations.current_version(r, "flaky") == 1 and not r.exists(migrations.lock_key("flaky"))
    state["fail"] = False
    ensure(r, "flaky", steps)
    assert migrations.current_version(r, "flaky") == 2


def test_newer_data_than_the_code_is_refused(r):
    r.set(migrations.version_key("demo"), 5)
    with pytest.raises(SchemaTooNew):
        ensure(r, "demo", [Migration(1, "one", lambda c: {})])


def test_steps_must_be_numbered_in_order(r):
    with pytest.raises(ValueError):
        ensure(r, "demo", [Migration(2, "two", lambda c: {})])


# ----- auth: tokens issued without an expiry -----------------------------------------------------
def legacy_player_token(player_id: str, secret: str = "s") -> str:
    return URLSafeSerializer(secret, salt="bearer-v1").dumps({"p": player_id})


def test_tokens_without_expiry_get_the_configured_lifetime_from_the_upgrade(r, monkeypatch):
    monkeypatch.setenv("TOKEN_TTL_S", "1000")
    old = legacy_player_token("p1")
    clock = [10_000.0]
    tokens = Tokens("s", r, clock=lambda: clock[0])
    assert tokens.verify(old) is None  # before the migration: no lifetime known, refused
    upgrade_at = time.time()
    ensure(r, "auth", auth_migrations())
    expiry = float(r.hget(LEGACY_EXPIRY, "player"))
    assert upgrade_at + 1000 - 1 <= expiry <= time.time() + 1000
    tokens = Tokens("s", r, clock=lambda: clock[0])
    clock[0] = expiry - 1
    who = tokens.verify(old)
    assert who.player_id == "p1" and who.expires_at == expiry
    clock[0] = expiry + 1
    assert tokens.verify(old) is None  # until its (new) expiry only
    # running the migration again (another process, a later release) keeps the first moment
    migrations_again = auth_migrations()[0].apply(r)
    assert migrations_again["player"] == expiry
    assert Tokens("t", r, clock=lambda: expiry - 1).verify(old) is None  # another secret: refused


def test_rotation_revokes_a_token_issued_without_expiry(r):
    ensure(r, "auth", auth_migrations())
    tokens = Tokens("s", r)
    old = legacy_player_token("p2")
    assert tokens.verify(old).player_id == "p2"
    new = tokens.rotate("p2")
    assert tokens.verify(old) is None and tokens.verify(new).player_id == "p2"


def test_bot_tokens_without_expiry_get_the_bot_lifetime(r, monkeypatch):
    monkeypatch.setenv("BOT_TOKEN_TTL_S", "60")
    ensure(r, "auth", auth_migrations())
    old = URLSafeSerializer("s", salt="bearer-v1").dumps({"b": "random", "m": "m1", "s": 1})
    assert Tokens("s", r).verify(old).bot_match == "m1"
    assert Tokens("s", r, clock=lambda: time.time() + 61).verify(old) is None


# ----- matchmaking: names ----------------------------------------------------------------------------
def test_every_old_name_is_claimed_the_oldest_registration_first(r):
    from services.matchmaking.migrations import MIGRATIONS
    from services.matchmaking.players import NAMES, Players

    r.hset("mm:player:a", mapping={"name": "Alice", "created_at": 1.0})
    r.hset("mm:player:b", mapping={"name": "ALICE", "created_at": 2.0})  # a duplicate the old release allowed
    r.hset("mm:player:c", mapping={"name": "x" * 40, "created_at": 3.0})  # too long for today's rules
    r.set("mm:ticket:t1", "{}")
    ensure(r, "matchmaking", MIGRATIONS)
    assert r.hget(NAMES, "alice") == b"a" and r.hget(NAMES, "x" * 40) == b"c"
    assert r.exists("{mm}:ticket:t1") and not r.exists("mm:ticket:t1")
    with pytest.raises(Exception) as err:
        Players(r).create("alice")
    assert getattr(err.value, "status", None) == 409


# ----- rules: Idempotency-Key hashes ------------------------------------------------------------------
def test_idempotency_hash_becomes_expiring_strings_with_the_request_fingerprint(r):
    from services.rules.migrations import MIGRATIONS
    from shared.eventstore.store import EventStore
    from shared.matches import request_fingerprint

    mid = "m1"
    move = {"type": "pass"}
    r.hset("{m:m1}:meta", mapping={"version": 3, "status": "active"})
    for seq, rec in ((1, {"type": "match.created", "data": {}}), (2, {"type": "x", "data": {}}),
                     (3, {"type": "passed", "data": {}, "cause": {"seat": 0, "move": move}})):
        r.xadd("{m:m1}:log", {"e": dumps({**rec, "seq": seq, "at": 1.0})}, id=f"0-{seq}")
    answer = dumps({"version": 3, "events": [{"seq": 3, "type": "passed"}]})
    r.hset("{m:m1}:idem", "0:key-1", answer)
    ensure(r, "rules", MIGRATIONS)
    assert not r.exists("{m:m1}:idem")
    stored = EventStore(r).idempotent_request(mid, "0:key-1")
    assert stored.done and stored.fingerprint == request_fingerprint(move, 2)
    assert loads(stored.response) == loads(answer)
    assert 0 < r.ttl("{m:m1}:idem:0:key-1") <= 24 * 3600
    # every active match got a follow-up intent, so its bots and deadlines are taken up again
    assert r.zscore("rules:followups", "m1|upgrade") is not None


def test_snapshots_of_older_releases_are_dropped_and_todays_kept(r):
    from services.rules.migrations import MIGRATIONS

    r.hset("{m:s1}:meta", mapping={"version": 60, "status": "active"})
    old = [dumps({"v": v, "s": {"game": {"v": v}}}) for v in (10, 20)]
    today = dumps({"v": 30, "layout": "arkon@3:abc:def", "s": {"game": {}}})
    r.zadd("{m:s1}:snaps", {old[0]: 10, old[1]: 20, today: 30})
    ensure(r, "rules", MIGRATIONS)
    assert [x.decode() for x in r.zrange("{m:s1}:snaps", 0, -1)] == [today]


# ----- scoring: inputs for every result ---------------------------------------------------------------
def _finished(match_id: str, seats: list[dict], ranks: list[int]) -> dict:
    return {"match_id": match_id, "game": "arkon", "status": "finished", "seats": seats,
            "outcome": {"ranks": ranks, "scores": [10 - x for x in ranks]}, "abandoned": []}


def test_rebuild_keeps_every_result_scored_before_inputs_existed(r):
    from services.scoring.migrations import MIGRATIONS
    from services.scoring.rebuild import rebuild
    from services.scoring.store import INPUTS, RESULTS, ScoringStore
    from shared.streams import MATCHES_FINISHED, publish

    rng = random.Random(3)
    people = [{"player_id": f"p{i}", "name": f"P{i}"} for i in range(4)] + [{"bot": "random", "name": "bot:random"}]
    store = ScoringStore(r)
    messages = []
    for i in range(12):
        seats = rng.sample(people, 2)
        m = _finished(f"m{i}", seats, rng.choice([[1, 2], [2, 1], [1, 1]]))
        messages.append(m)
        publish(r, MATCHES_FINISHED, m)
        store.record(m)
    before = {k: v for k, v in r.hgetall(RESULTS).items()}
    # as an old release left it: no inputs; half the stream trimmed away by a release in between
    r.delete(INPUTS)
    r.xtrim(MATCHES_FINISHED, maxlen=6, approximate=False)
    ensure(r, "scoring", MIGRATIONS)
    assert len(r.lrange(INPUTS, 0, -1)) == 12
    report = {}
    assert rebuild(r, report=report) == 12
    assert report == {"before": 12, "lost": [], "differ": []}
    assert r.hgetall(RESULTS) == before


def test_inputs_are_ordered_as_scored_even_when_the_hints_disagree(r):
    from services.scoring.migrations import order_as_scored
    from services.scoring.store import RESULTS, ScoringStore

    seats = [{"player_id": "a", "name": "A"}, {"player_id": "b", "name": "B"}]
    store = ScoringStore(r)
    messages = [_finished(f"m{i}", seats, [1, 2] if i % 3 else [2, 1]) for i in range(8)]
    for m in messages:
        store.record(m)
    results = {k.decode(): json.loads(v) for k, v in r.hgetall(RESULTS).items()}
    shuffled = list(reversed(messages))
    ordered, unfit = order_as_scored(shuffled, results)
    assert unfit == 0 and [m["match_id"] for m in ordered] == [m["match_id"] for m in messages]


def test_an_open_table_of_an_old_release_asks_its_seated_players_and_is_listed(r):
    from services.matchmaking.migrations import MIGRATIONS
    from services.matchmaking.tables import by_game, by_host, by_invitee, table_key

    old = {"table_id": "t1", "game": "arkon", "host": "h", "options": {}, "turn_seconds": None,
           "seats": [{"player_id": "h", "name": "H"}, {"player_id": "g", "name": "G"}, {"open": True}],
           "status": "open", "created_at": 5.0}
    r.set("mm:table:t1", dumps(old))
    r.zadd("mm:tables:open", {"t1": 5.0})
    ensure(r, "matchmaking", MIGRATIONS)
    table = loads(r.get(table_key("t1")))
    assert table["seats"][0] == {"player_id": "h", "name": "H"}
    assert table["seats"][1]["invited"] == "g" and table["seats"][1]["expires_at"] > time.time()
    assert "updated_at" in table
    for key in (by_game("arkon"), by_host("h"), by_invitee("g")):
        assert r.zscore(key, "t1") == 5.0
    assert r.xlen("mm:inbox:g") == 1
