"""The event store's Lua scripts and one-round-trip reads, each behaviour on its own, on a real Redis
and on fakeredis (tests/support/backends.py): the order in which ``append`` checks an
Idempotency-Key, the version and the head; what it writes to the meta; the claim and release of a
key; the head reads; the seed; the damage mark. (test_eventstore.py covers the chain, races and
snapshots.)"""
import pytest

from shared.canonical import dumps, loads
from shared.eventstore import GENESIS, EventStore
from shared.eventstore.damage import DamagedLog
from shared.eventstore.store import PENDING_TTL_S, Conflict, idempotency_key, keys

pytestmark = pytest.mark.store  # each test taking `r`: on a real Redis and on fakeredis

SEED = b"s" * 32


def rec(i):
    return {"type": "tick", "data": {"i": i}, "at": 0.0, "engine": "1"}


def answer(sealed):
    return dumps({"version": sealed[-1]["seq"]})


def test_append_writes_the_meta_fields_and_the_head_with_the_records(r):
    store = EventStore(r)
    done = store.append("m", 0, GENESIS, [rec(1), rec(2)], SEED, meta={"status": "active", "game": "duel"})
    meta = store.meta("m")
    assert loads(meta.pop("tail")) == done.records == [loads(f[b"e"]) for _, f in r.xrange(keys("m")["log"])]
    assert meta == {"version": "2", "head_hash": done.records[-1]["hash"], "status": "active", "game": "duel"}
    assert store.head("m") == (2, done.records[-1]["hash"])
    assert [entry_id for entry_id, _ in r.xrange(keys("m")["log"])] == [b"0-1", b"0-2"]
    assert store.head("nobody") == (0, None)


def test_an_answered_key_is_replayed_before_the_version_is_checked(r):
    """A retry of an accepted move carries the version it was made at, now stale: it gets the
    first answer, never a conflict."""
    store = EventStore(r)
    store.append("m", 0, GENESIS, [rec(1)], SEED, idempotency_field="0:k", fingerprint="f", response=answer)
    head = store.append("m", 1, store.head("m")[1], [rec(2)], SEED).records[-1]["hash"]
    again = store.append("m", 0, GENESIS, [rec(9)], SEED, idempotency_field="0:k", fingerprint="f", response=answer)
    assert loads(again.duplicate) == {"version": 1} and again.version == -1
    assert store.head("m") == (2, head)


def test_a_conflicting_append_writes_nothing(r):
    store = EventStore(r)
    first = store.append("m", 0, GENESIS, [rec(1)], SEED)
    before = {name: r.dump(key) for name, key in keys("m").items() if r.exists(key)}
    with pytest.raises(Conflict):
        store.append("m", 1, "0" * 64, [rec(2)], SEED, meta={"status": "finished"}, idempotency_field="0:k",
                     fingerprint="f", response=answer)
    assert {name: r.dump(key) for name, key in keys("m").items() if r.exists(key)} == before
    assert store.idempotent_request("m", "0:k") is None and store.head("m") == (1, first.records[-1]["hash"])


def test_a_claim_expires_by_itself_and_is_freed_only_by_its_holder(r):
    store = EventStore(r)
    assert store.claim_idempotency("m", "0:k", "f", "mine") is None
    key = idempotency_key("m", "0:k")
    assert 0 < r.ttl(key) <= PENDING_TTL_S and r.get(key) == b"pending f mine"
    store.release_idempotency("m", "0:k", "f", "theirs")
    assert r.get(key) == b"pending f mine"
    store.release_idempotency("m", "0:k", "f", "mine")
    assert r.exists(key) == 0


def test_head_status_tells_a_match_a_damaged_one_and_none_apart_in_one_read(r):
    store = EventStore(r)
    assert store.head_status("m") == (0, None, None, False, False)
    store.put_seed("m", SEED)
    done = store.append("m", 0, GENESIS, [rec(1)], SEED)
    assert store.head_status("m") == (1, done.records[-1]["hash"], None, True, True)
    damage = DamagedLog("m", 1, "does not parse")
    store.mark_damaged("m", damage)
    assert store.head_status("m")[2] == damage.marker()
    store.clear_damaged("m")
    r.delete(keys("m")["meta"])  # the meta lost, the stream still there
    assert store.head_status("m") == (0, None, None, True, True)
    store.mark_damaged("m", damage)  # only while a meta exists: no meta is made up
    assert not r.exists(keys("m")["meta"])


def test_a_head_read_asks_for_the_seed_only_when_told_and_a_fold_reads_it_with_the_records(r):
    """A cached read asks nothing of the seed (``seed=False``: one HMGET, or the head script
    without its EXISTS); the read a state is folded from brings the seed in the same round trip."""
    store = EventStore(r)
    store.put_seed("m", SEED)
    done = store.append("m", 0, GENESIS, [rec(1), rec(2)], SEED)
    for clocks in (False, True):
        assert store.head_read("m", clocks=clocks, seed=False)[:6] == (2, done.records[-1]["hash"], None, None, True, {})
        assert store.head_read("m", clocks=clocks).has_seed is True
    records, seed_hex = store.read_with_seed("m", after=1)
    assert [x["seq"] for x in records] == [2] and seed_hex == SEED.hex().encode()
    r.delete(keys("m")["seed"])
    assert store.read_with_seed("m") == ([], None)
    for clocks in (False, True):
        assert store.head_read("m", clocks=clocks).has_seed is False
        assert store.head_read("m", clocks=clocks, seed=False).has_seed is None


def test_the_first_seed_stays_and_a_lost_or_broken_seed_is_a_damaged_log(r):
    store = EventStore(r)
    assert store.put_seed("m", SEED) == SEED
    assert store.put_seed("m", b"x" * 32) == SEED  # a second writer gets the seed in force
    with pytest.raises(KeyError):
        store.seed("nobody")
    store.append("m", 0, GENESIS, [rec(1)], SEED)
    r.set(keys("m")["seed"], "not hex")
    with pytest.raises(DamagedLog, match="not hex"):
        store.seed("m")
    r.delete(keys("m")["seed"])
    with pytest.raises(DamagedLog, match="missing"):
        store.seed("m")


def test_reads_page_by_sequence_number_and_ends_are_the_first_and_last_records(r):
    store = EventStore(r)
    store.append("m", 0, GENESIS, [rec(i) for i in range(1, 8)], SEED)
    assert [x["seq"] for x in store.read("m", after=2, limit=3)] == [3, 4, 5]
    assert [x["seq"] for x in store.read("m", after=5, until=6)] == [6]
    assert store.read("m", after=7) == []
    first, last = store.ends("m")
    assert (first["seq"], last["seq"]) == (1, 7) and store.ends("nobody") is None
    assert sorted(store.match_ids()) == ["m"]


def test_a_head_read_brings_the_last_append_s_records_for_a_reader_one_append_behind(r):
    """The meta's ``tail`` (the last append's records, as the stream holds them) comes with every
    head read; ``tail_records`` gives them to a reader exactly one append behind, and nothing to
    one further behind, to a meta without a tail (an older release's append) or to one whose tail
    does not end at the head."""
    store = EventStore(r)
    first = store.append("m", 0, GENESIS, [rec(1)], SEED)
    second = store.append("m", 1, first.records[-1]["hash"], [rec(2), rec(3)], SEED)
    for clocks in (False, True):
        read = store.head_read("m", clocks=clocks, seed=False)
        assert read.tail_records(1) == second.records == store.read("m", after=1)
        assert read.tail_records(0) is None and read.tail_records(2) is None
        assert read.tail_records(3) is None  # at the head: nothing to fold
    r.hset(keys("m")["meta"], "head_hash", "another history")
    assert store.head_read("m", seed=False).tail_records(1) is None
    r.hdel(keys("m")["meta"], "tail")
    assert store.head_read("m", seed=False).tail_records(1) is None
    r.hset(keys("m")["meta"], "tail", b"not json")
    assert store.head_read("m", seed=False).tail_records(1) is None
