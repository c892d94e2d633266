"""The event store on a real Redis server: atomic appends, idempotency, the hash chain, snapshots."""
import threading

import pytest

from shared.canonical import dumps, loads
from shared.eventstore import GENESIS, EventStore, verify_chain
from shared.eventstore.store import IDEMPOTENCY_TTL_S, PENDING_TTL_S, Conflict, idempotency_key, keys
from shared.matches import Matches

pytestmark = pytest.mark.store  # each test taking `r`: on a real Redis and on fakeredis

SEED = b"s" * 32


def rec(i):
    return {"type": "tick", "data": {"i": i}, "at": 0.0, "engine": "1"}


def test_append_assigns_sequence_numbers_and_chains_hashes(r):
    store = EventStore(r)
    a = store.append("m1", 0, GENESIS, [rec(1), rec(2)], SEED)
    b = store.append("m1", 2, a.records[-1]["hash"], [rec(3)], SEED)
    records = store.read("m1")
    assert [x["seq"] for x in records] == [1, 2, 3]
    assert b.version == 3 and store.meta("m1")["head_hash"] == records[-1]["hash"]
    assert verify_chain(records, SEED) == (True, None)


def test_append_on_a_stale_version_is_a_conflict(r):
    store = EventStore(r)
    first = store.append("m1", 0, GENESIS, [rec(1)], SEED)
    with pytest.raises(Conflict) as err:
        store.append("m1", 0, GENESIS, [rec(2)], SEED)
    assert err.value.current == 1
    with pytest.raises(Conflict):  # right version, wrong head hash
        store.append("m1", 1, "f" * 64, [rec(2)], SEED)
    assert len(store.read("m1")) == 1 and first.version == 1


def test_of_twenty_concurrent_appends_on_one_version_exactly_one_wins(r):
    store = EventStore(r)
    head = store.append("m1", 0, GENESIS, [rec(0)], SEED).records[-1]["hash"]
    outcomes, barrier = [], threading.Barrier(20)

    def racer(i):
        barrier.wait()
        try:
            store.append("m1", 1, head, [rec(i)], SEED)
            outcomes.append("ok")
        except Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=racer, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("ok") == 1 and outcomes.count("conflict") == 19
    assert len(store.read("m1")) == 2


def test_idempotent_retry_returns_the_first_response_and_appends_nothing(r):
    store = EventStore(r)
    first = store.append("m1", 0, GENESIS, [rec(1)], SEED, idempotency_field="0:key", fingerprint="f1",
                         response=lambda sealed: dumps({"version": sealed[-1]["seq"]}))
    again = store.append("m1", 0, GENESIS, [rec(99)], SEED, idempotency_field="0:key", fingerprint="f1",
                         response=lambda sealed: dumps({"version": -5}))
    assert first.version == 1 and loads(again.duplicate) == {"version": 1}
    assert len(store.read("m1")) == 1
    stored = store.idempotent_request("m1", "0:key")
    assert stored.done and stored.fingerprint == "f1" and loads(stored.response) == {"version": 1}


def test_each_idempotency_key_is_its_own_string_in_the_match_slot_and_expires_after_24_hours(r):
    """IETF Idempotency-Key draft: keys expire; per-key expiry, one hash slot per match."""
    store = EventStore(r)
    store.append("m1", 0, GENESIS, [rec(1)], SEED, idempotency_field="0:key", fingerprint="f1",
                 response=lambda sealed: dumps({"version": 1}))
    key = idempotency_key("m1", "0:key")
    assert key.startswith("{m:m1}:") and r.type(key) == b"string"
    assert IDEMPOTENCY_TTL_S - 60 < r.ttl(key) <= IDEMPOTENCY_TTL_S == 24 * 3600


def test_an_idempotency_key_is_claimed_once_and_a_released_claim_frees_it(r):
    store = EventStore(r)
    assert store.claim_idempotency("m1", "0:k", "f1", "t1") is None
    held = store.claim_idempotency("m1", "0:k", "f1", "t2")
    assert held is not None and not held.done and held.fingerprint == "f1"
    assert 0 < r.ttl(idempotency_key("m1", "0:k")) <= PENDING_TTL_S
    store.release_idempotency("m1", "0:k", "f1", "t2")  # not the holder: nothing happens
    assert store.claim_idempotency("m1", "0:k", "f1", "t3") is not None
    store.release_idempotency("m1", "0:k", "f1", "t1")
    assert store.claim_idempotency("m1", "0:k", "f2", "t4") is None


def test_altering_any_stored_event_breaks_the_chain(r):
    store = EventStore(r)
    store.append("m1", 0, GENESIS, [rec(1), rec(2), rec(3)], SEED)
    records = store.read("m1")
    records[1]["data"]["i"] = 42
    ok, reason = verify_chain(records, SEED)
    assert not ok and "record 2" in reason


def test_hidden_parts_are_bound_by_a_salted_digest(r):
    store = EventStore(r)
    hidden = dict(rec(1), private={"0": {"card": 7}})
    store.append("m1", 0, GENESIS, [hidden], SEED)
    stored = store.read("m1")
    assert stored[0]["hidden_digest"]
    stored[0]["private"]["0"]["card"] = 8
    assert verify_chain(stored, SEED)[0] is False
    assert verify_chain(stored, None)[0] is True  # without the seed only the public chain is checked


def test_keys_share_one_hash_tag_per_match():
    tags = {k.split("}")[0] for k in keys("abc").values()}
    assert tags == {"{m:abc"}


def test_state_at_any_version_and_snapshots_are_only_a_cache(r):
    matches = Matches(EventStore(r), snapshot_every=2)
    matches.create("m1", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    version = matches.state("m1")["version"]
    for _ in range(5):
        st = matches.state("m1")
        game = matches.game_of(st)
        seat = game.to_act(st["game"])[0]
        move = game.legal_moves(st["game"], seat)[0]
        version = matches.submit("m1", seat, move, version).version
    answers = {v: dumps(matches.view("m1", 0, at=v)) for v in range(1, version + 1)}
    assert r.zcard(keys("m1")["snaps"]) > 0
    fresh = Matches(EventStore(r), snapshot_every=2)
    fresh.store.delete_snapshots("m1")
    assert {v: dumps(fresh.view("m1", 0, at=v)) for v in range(1, version + 1)} == answers
    assert fresh.audit("m1")["replay_valid"] is True


def test_a_match_without_a_result_is_aborted_at_the_event_limit(r):
    matches = Matches(EventStore(r), max_events=5)
    matches.create("m1", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    mstate = matches.state("m1")
    while mstate["status"] == "active":
        game = matches.game_of(mstate)
        seat = game.to_act(mstate["game"])[0]
        mstate = matches.submit("m1", seat, game.legal_moves(mstate["game"], seat)[0], mstate["version"]).state
    assert mstate["status"] == "aborted" and mstate["outcome"] is None
    last = matches.store.read("m1")[-1]
    assert last["type"] == "match.aborted" and "5 events" in last["data"]["reason"]
    audit = matches.audit("m1")
    assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"]


def _finished_duel(matches):
    matches.create("m1", "duel", {"rounds": 1}, [{"player_id": "a"}, {"player_id": "b"}])
    mstate = matches.state("m1")
    while mstate["status"] == "active":
        game = matches.game_of(mstate)
        seat = game.to_act(mstate["game"])[0]
        mstate = matches.submit("m1", seat, game.legal_moves(mstate["game"], seat)[0], mstate["version"]).state
    return mstate


def _counting_audits(matches):
    calls = []
    compute = matches._audit
    matches._audit = lambda *args: calls.append(args[0]) or compute(*args)
    return calls


def test_a_finished_matchs_audit_is_computed_once_per_content_and_then_read_back(r):
    matches = Matches(EventStore(r))
    head = _finished_duel(matches)
    calls = _counting_audits(matches)
    first = matches.audit("m1")
    assert first["chain_valid"] and first["replay_valid"] and first["chance_valid"] and calls == ["m1"]
    assert matches.audit("m1") == first and calls == ["m1"]
    other = Matches(EventStore(r))  # another process reads the stored result
    other_calls = _counting_audits(other)
    assert other.audit("m1") == first and other_calls == []
    stored = loads(r.get(keys("m1")["audit"]))  # the replay and chance checks, kept under the content's digest
    assert len(stored["digest"]) == 64 and stored["layout"] == matches.layout_of(head)
    assert set(stored["audit"]) == {"replay", "chance"} and keys("m1")["audit"].startswith("{m:m1}:")


def test_a_new_head_gets_a_new_audit(r):
    matches = Matches(EventStore(r))
    matches.create("m1", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    calls = _counting_audits(matches)
    before = matches.audit("m1")
    mstate = matches.state("m1")
    game = matches.game_of(mstate)
    matches.submit("m1", 0, game.legal_moves(mstate["game"], 0)[0], mstate["version"])
    after = matches.audit("m1")
    assert len(calls) == 2 and after["version"] == before["version"] + 1 and after["head_hash"] != before["head_hash"]
