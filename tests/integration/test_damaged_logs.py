"""An audit that is never fooled and never crashes: every kind of damage to a stored log, on a
plain (stream) match and on a compacted one.

* an edit of a record in the middle of a finished log is reported by the audit, even after the
  audit was cached (the chain is checked again on every call; the cached part is keyed by the
  content it checked);
* a damaged log — a record that does not parse, a compacted blob cut short, edited, with a wrong
  magic header or gone, a record missing, a missing seed or meta — is a verdict on the audit
  (chain_valid false, the first damaged record named) and the problem ``urn:problem:damaged-log``
  (503, with the seq) on every other read; the export refuses before its first line;
* no cache keeps a damaged state: once the data is restored, the same process answers again.
"""
import zlib

import pytest
import redis
import requests

from shared.auth import Tokens
from shared.canonical import dumps, loads
from shared.eventstore import EventStore
from shared.eventstore.compaction import COMPACTED, Compactor
from shared.eventstore.damage import DamagedLog
from shared.eventstore.packed import MAGIC
from shared.eventstore.store import keys
from shared.export import export_match
from shared.matches import Matches
from shared.verify import verify_lines
from tests.support.playout import play_random

pytestmark = pytest.mark.store  # each test taking `r`: on a real Redis and on fakeredis

MIDDLE = 5  # the record damaged in the middle of the log


def new_match(r, match_id: str, compacted: bool) -> Matches:
    matches = Matches(EventStore(r))
    assert play_random(matches, match_id, "duel", 3, seed=4)["status"] == "finished"
    if compacted:
        assert Compactor(matches.store).compact(match_id) == COMPACTED
    return matches


def rewrite_stream(r, match_id, seq, raw: bytes | None):
    """Replace record ``seq`` of the stream by ``raw`` (None: drop it), behind the service's back."""
    key = keys(match_id)["log"]
    entries = r.xrange(key)
    r.delete(key)
    for entry_id, fields in entries:
        if entry_id.decode() == f"0-{seq}":
            if raw is None:
                continue
            fields = {b"e": raw}
        r.xadd(key, fields, id=entry_id)


def blob_body(r, match_id) -> bytes:
    return zlib.decompress(r.get(keys(match_id)["packed"])[len(MAGIC):])


def set_blob_lines(r, match_id, change):
    lines = blob_body(r, match_id).split(b"\n")
    change(lines)
    r.set(keys(match_id)["packed"], MAGIC + zlib.compress(b"\n".join(lines)))


def edit_record(r, match_id):
    rec = loads(r.xrange(keys(match_id)["log"], f"0-{MIDDLE}", f"0-{MIDDLE}")[0][1][b"e"])
    rec["at"] += 1
    rewrite_stream(r, match_id, MIDDLE, dumps(rec).encode())


# damage name -> (compacted?, what it does, the seq the damage names or None, the words it uses)
def _not_json(r, m):
    rewrite_stream(r, m, MIDDLE, b'{"seq": 5, "type": "x", "da')


def _dropped(r, m):
    rewrite_stream(r, m, MIDDLE, None)


def _no_seed(r, m):
    r.delete(keys(m)["seed"])


def _no_meta(r, m):
    r.delete(keys(m)["meta"])


def _truncated_blob(r, m):
    blob = r.get(keys(m)["packed"])
    r.set(keys(m)["packed"], blob[: len(blob) * 2 // 3])


def _blob_line_not_json(r, m):
    set_blob_lines(r, m, lambda lines: lines.__setitem__(MIDDLE, lines[MIDDLE][:-7]))


def _blob_edited(r, m):
    set_blob_lines(r, m, lambda lines: lines.__setitem__(MIDDLE, lines[MIDDLE].replace(b'"at":', b'"at":1', 1)))


def _blob_record_dropped(r, m):
    set_blob_lines(r, m, lambda lines: lines.pop())


def _wrong_magic(r, m):
    r.set(keys(m)["packed"], b"TTz9" + r.get(keys(m)["packed"])[4:])


def _blob_gone(r, m):
    r.delete(keys(m)["packed"])


DAMAGE = {
    "stream-record-not-json": (False, _not_json, MIDDLE, "does not parse"),
    "stream-record-missing": (False, _dropped, MIDDLE, "missing"),
    "stream-seed-missing": (False, _no_seed, None, "seed"),
    "stream-meta-missing": (False, _no_meta, None, "meta"),
    "compacted-blob-truncated": (True, _truncated_blob, "some", "cut short"),
    "compacted-line-not-json": (True, _blob_line_not_json, MIDDLE, "does not parse"),
    "compacted-blob-edited": (True, _blob_edited, None, "re-seal"),
    "compacted-record-missing": (True, _blob_record_dropped, "last", "missing"),
    "compacted-wrong-magic": (True, _wrong_magic, 1, "magic"),
    "compacted-blob-gone": (True, _blob_gone, 1, "gone"),
    "compacted-seed-missing": (True, _no_seed, None, "seed"),
    "compacted-meta-missing": (True, _no_meta, None, "meta"),
}


def saved(r, match_id) -> dict:
    return {name: r.dump(key) for name, key in keys(match_id).items() if r.exists(key)}


def restore(r, match_id, dumped: dict) -> None:
    for name, key in keys(match_id).items():
        r.delete(key)
    for name, value in dumped.items():
        r.restore(keys(match_id)[name], 0, value)


def check_seq(found, expected, records: int):
    if expected == "some":
        assert isinstance(found, int) and 1 <= found <= records
    elif expected == "last":
        assert found == records
    else:
        assert found == expected


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_every_damage_is_a_verdict_of_the_audit_and_a_damaged_log_elsewhere(r, kind):
    compacted, damage, seq, words = DAMAGE[kind]
    matches = new_match(r, "m", compacted)
    head = matches.state("m")
    records = head["version"]
    genuine = matches.audit("m")
    assert genuine["chain_valid"] and genuine["replay_valid"] and genuine["chance_valid"]
    good_export = b"".join(export_match(matches.store, "m"))
    dumped = saved(r, "m")
    damage(r, "m")

    for reader in (matches, Matches(EventStore(r))):  # the warm process and a fresh one
        audit = reader.audit("m")
        assert audit["chain_valid"] is False and audit["replay_valid"] is False, audit
        assert audit["damaged"]["reason"] and words in audit["problems"][0], audit
        check_seq(audit["damaged"]["seq"], seq, records)
        for read in (lambda: reader.state("m"), lambda: reader.state("m", 3), lambda: reader.events("m", None),
                     lambda: reader.view("m", 0, 2), lambda: export_match(reader.store, "m")):
            with pytest.raises(DamagedLog) as err:
                read()
            assert err.value.match_id == "m"
            check_seq(err.value.seq, seq, records)

    restore(r, "m", dumped)  # an operator restores the match: nothing damaged was kept
    r.hdel(keys("m")["meta"], "damaged")  # (or the audit clears the mark, below)
    assert matches.state("m")["head_hash"] == head["head_hash"]
    assert matches.view("m", 0, 3)["version"] == 3
    assert b"".join(export_match(matches.store, "m")) == good_export
    assert matches.audit("m") == genuine


def test_the_audit_clears_the_mark_once_the_log_reads_back_whole(r):
    matches = new_match(r, "m", compacted=True)
    dumped = saved(r, "m")
    _truncated_blob(r, "m")
    with pytest.raises(DamagedLog):  # a read that meets the damage marks the match
        Matches(EventStore(r)).state("m")
    with pytest.raises(DamagedLog):  # so a process whose cached head never touched the blob answers it too
        matches.state("m")
    assert r.hexists(keys("m")["meta"], "damaged")
    restore(r, "m", dumped)
    r.hset(keys("m")["meta"], "damaged", dumps({"seq": 3, "reason": "was damaged"}))
    with pytest.raises(DamagedLog):  # every process answers the mark at once ...
        Matches(EventStore(r)).state("m")
    assert matches.audit("m")["chain_valid"] is True  # ... until the audit reads it back whole
    assert not r.hexists(keys("m")["meta"], "damaged")
    assert matches.state("m")["status"] == "finished"


@pytest.mark.parametrize("compacted", [False, True], ids=["stream", "compacted"])
def test_an_edit_in_the_middle_is_reported_even_after_the_audit_was_cached(r, compacted):
    matches = new_match(r, "m", compacted)
    assert matches.audit("m")["chain_valid"] is True
    assert r.exists(keys("m")["audit"])  # cached, and left in place by the forger
    if compacted:
        _blob_edited(r, "m")  # parses, but no longer re-seals to the head
    else:
        edit_record(r, "m")
    for reader in (matches, Matches(EventStore(r))):
        audit = reader.audit("m")
        assert audit["chain_valid"] is False, audit
        if not compacted:
            assert audit["problems"][0].startswith(f"record {MIDDLE}: hash does not match"), audit
    if not compacted:  # the export still carries it, and the offline verifier agrees
        verdict = verify_lines(b"".join(export_match(matches.store, "m")).splitlines())
        assert not verdict.ok


def test_a_changed_card_in_a_compacted_log_is_located_by_the_seed(r):
    matches = new_match(r, "m", compacted=True)
    records = matches.store.read("m")
    dealt = next(rec["seq"] for rec in records if rec.get("secret"))

    def redeal(lines):
        rec = loads(lines[dealt])
        rec["secret"]["deck"].reverse()
        lines[dealt] = dumps(rec).encode()

    set_blob_lines(r, "m", redeal)
    audit = Matches(EventStore(r)).audit("m")
    assert audit["chain_valid"] is False and audit["damaged"]["seq"] is None
    assert audit["problems"][1].startswith(f"the re-derivation from the seed first differs at record {dealt}:"), audit


def test_a_damaged_log_is_not_compacted(r):
    matches = Matches(EventStore(r))
    play_random(matches, "m", "duel", 2, seed=1)
    _not_json(r, "m")
    from shared.eventstore.compaction import CompactionRefused
    with pytest.raises(CompactionRefused, match="damaged log"):
        Compactor(matches.store).compact("m")
    assert r.exists(keys("m")["log"]) and not r.exists(keys("m")["packed"])


# ----- over HTTP, on the whole stack ------------------------------------------------------------
HTTP_DAMAGE = ["stream-record-not-json", "stream-seed-missing", "stream-meta-missing", "compacted-blob-truncated",
               "compacted-wrong-magic", "compacted-blob-gone", "compacted-blob-edited", "compacted-seed-missing"]


def assert_damaged_problem(resp, seq, records):
    assert resp.status_code == 503, (resp.status_code, resp.text)
    assert resp.headers["Content-Type"].startswith("application/problem+json")
    assert "Retry-After" not in resp.headers
    body = resp.json()
    assert body["type"] == "urn:problem:damaged-log" and body["status"] == 503 and body["reason"], body
    check_seq(body["seq"], seq, records)


@pytest.mark.parametrize("kind", HTTP_DAMAGE)
def test_every_read_over_http_answers_a_verdict_or_a_damaged_log_problem(stack, kind):
    compacted, damage, seq, _words = DAMAGE[kind]
    r = redis.Redis.from_url(stack.redis_url)
    match_id = f"damaged-{kind}"
    matches = Matches(EventStore(r))
    play_random(matches, match_id, "duel", 2, seed=2,
                seats=[{"player_id": "p0", "name": "P0"}, {"bot": "random", "name": "bot:random"}])
    if compacted:
        assert Compactor(matches.store).compact(match_id) == COMPACTED
    base = f"{stack.rules}/v1/matches/{match_id}"
    records = matches.state(match_id)["version"]
    # warm the rules service's caches first: a damaged read must not be served from them, nor poison them
    for path in ("", "/view?at=3", "/events", "/audit", "/export"):
        assert requests.get(base + path, timeout=30).status_code == 200
    dumped = saved(r, match_id)
    damage(r, match_id)

    audit = requests.get(f"{base}/audit", timeout=30)
    assert audit.status_code == 200, audit.text
    assert audit.json()["chain_valid"] is False and audit.json()["problems"]
    check_seq(audit.json()["damaged"]["seq"], seq, records)
    seat0 = {"Authorization": f"Bearer {Tokens(stack.env['AUTH_SECRET'], r).for_player('p0')}"}
    for path in ("", "/view", "/view?at=3", "/events", "/events?after=2", "/legal-moves", "/turn", "/export",
                 "/stream"):
        for _ in range(3):  # each of the service's workers
            # (legal-moves and turn need the seat's token: it is checked first, then the state is read)
            resp = requests.get(base + path, timeout=30, headers=seat0 if path in ("/legal-moves", "/turn") else {})
            assert_damaged_problem(resp, seq, records)
    listed = requests.get(f"{stack.rules}/v1/matches", params={"player": "p0"}, timeout=30)
    assert listed.status_code == 200  # the index still answers

    restore(r, match_id, dumped)
    requests.get(f"{base}/audit", timeout=30)  # the audit reads it back whole and clears the mark
    for _ in range(4):
        view = requests.get(f"{base}/view?at=3", timeout=30)
        assert view.status_code == 200 and view.json()["version"] == 3, view.text
        assert requests.get(f"{base}/export", timeout=30).status_code == 200
    assert requests.get(f"{base}/audit", timeout=30).json()["chain_valid"] is True


def test_a_lost_seed_is_met_by_every_read_that_folds_and_not_by_a_warm_head(r):
    """The seed is checked where a state is built or advanced from the log, not on a cached
    read: the warm process at the head's version answers from its state (which needs nothing of
    the seed); a fresh process, or the warm one folding another version, answers DamagedLog, and
    the mark it leaves is then answered by every process."""
    warm = Matches(EventStore(r))
    mstate = warm.create("m", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    seat = warm.to_act(mstate)[0]
    mstate = warm.submit("m", seat, warm.legal_moves("m", seat)["moves"][0], mstate["version"]).state
    r.delete(keys("m")["seed"])
    assert warm.state("m")["head_hash"] == mstate["head_hash"]  # the cached head: one HMGET, no seed asked
    with pytest.raises(DamagedLog, match="seed"):
        Matches(EventStore(r)).state("m")  # a fresh process folds the log: the seed is missing
    with pytest.raises(DamagedLog, match="seed"):
        warm.state("m")  # the mark the fold left is answered by the warm process too
    r.hdel(keys("m")["meta"], "damaged")
    with pytest.raises(DamagedLog, match="seed"):
        warm.state("m", 2)  # an earlier version is folded from the log: the seed is checked
