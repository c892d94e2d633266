"""Compaction of finished matches (issue 14) on a real Redis: the compact form round-trips every
game's log byte for byte, every read of a compacted match answers exactly as before, compaction
is idempotent, and a process killed between its steps loses nothing.
"""
import os
import random
import subprocess
import sys

import pytest

from shared.canonical import dumps, encode
from shared.eventstore import EventStore
from shared.eventstore.compaction import ACTIVE, ALREADY, COMPACTED, MISSING, Compactor
from shared.eventstore.packed import CorruptLog, pack, unpack
from shared.eventstore.store import keys
from shared.export import export_match
from shared.matches import Matches
from shared.verify import verify_lines
from services.rules.index import MatchIndex
from tests.support.playout import play_random
from tests.support.stack import ROOT

pytestmark = pytest.mark.store  # each test taking `r`: on a real Redis and on fakeredis

GAMES = ["arkon", "battlefields-of-olympus", "duel", "fate-of-akalon", "fellowships-of-fate", "rise-of-tribes"]


def memory(r, match_id: str) -> int:
    """Bytes of Redis memory the match's own keys take."""
    return sum(r.memory_usage(k, samples=0) or 0 for k in keys(match_id).values())


def contents(r, match_id: str) -> dict:
    """Every key of the match that exists, serialized (``DUMP``): equal when nothing changed."""
    return {name: r.dump(key) for name, key in keys(match_id).items() if r.exists(key)}


def answers(r, match_id: str) -> dict:
    """Every read of a match, each through a fresh runtime (no process cache), as JSON text."""
    store = EventStore(r)
    matches = Matches(store)
    head = matches.state(match_id)
    version = head["version"]
    seats = [None, *range(len(head["seats"]))]
    out = {
        "records": [dumps(x) for x in store.read(match_id)],
        "summary": encode(matches.summary(head)),
        "events": [encode(Matches(store).events(match_id, seat, after, 37)) for seat in seats
                   for after in range(0, version + 1, max(1, version // 5))],
        "views": [encode(Matches(store).view(match_id, seat, at)) for seat in seats
                  for at in sorted({1, 2, version // 3, version // 2, version - 1, version} - {0})],
        "export": b"".join(export_match(store, match_id)),
        "ends": encode(store.ends(match_id)),
        "index": encode(MatchIndex(r).refresh(match_id)),
    }
    r.delete(keys(match_id)["audit"])  # computed afresh from the log
    out["audit"] = encode(Matches(store).audit(match_id))
    return out


def play(r, game: str) -> Matches:
    matches = Matches(EventStore(r), snapshot_every=5)
    play_random(matches, "m", game, 3 if game in ("arkon", "duel") else 2, seed=7)
    assert r.exists(keys("m")["snaps"])
    return matches


@pytest.mark.parametrize("game", GAMES)
def test_every_read_of_a_compacted_match_is_as_before(r, game):
    matches = play(r, game)
    before = answers(r, "m")

    assert Compactor(matches.store).compact("m") == COMPACTED

    assert not r.exists(keys("m")["log"]) and not r.exists(keys("m")["snaps"])
    assert r.exists(keys("m")["packed"]) and matches.store.meta("m")["compacted"]
    assert answers(r, "m") == before
    assert verify_lines(before["export"].splitlines()).ok
    assert Compactor(matches.store).compact("m") == ALREADY
    assert answers(r, "m") == before


@pytest.mark.real_redis("fakeredis has no MEMORY USAGE")
@pytest.mark.parametrize("game", GAMES)
def test_a_compacted_match_takes_less_than_half_the_memory(r, game):
    matches = play(r, game)
    bytes_before = memory(r, "m")
    assert Compactor(matches.store).compact("m") == COMPACTED
    print(game, matches.store.version("m"), "events:", bytes_before, "->", memory(r, "m"), "bytes")
    assert memory(r, "m") < bytes_before / 2


def test_the_compact_form_round_trips_and_refuses_a_tampered_log(r):
    matches = Matches(EventStore(r))
    play_random(matches, "m", "fellowships-of-fate", 2, seed=3)
    records, seed = matches.store.read("m"), matches.store.seed("m")
    blob = pack(records)
    assert [dumps(x) for x in unpack(blob, seed)] == [dumps(x) for x in records]
    with pytest.raises(CorruptLog):
        unpack(blob, b"x" * 32)  # another seed: the hidden digests, hence the chain, differ
    import zlib
    from shared.eventstore.packed import MAGIC
    body = zlib.decompress(blob[len(MAGIC):]).replace(b'"seat":0', b'"seat":1', 1)
    with pytest.raises(CorruptLog):
        unpack(MAGIC + zlib.compress(body), seed)
    with pytest.raises(CorruptLog):
        unpack(b"junk", seed)


def test_an_active_or_unknown_match_is_left_alone(r):
    matches = Matches(EventStore(r))
    seats = [{"player_id": "a"}, {"player_id": "b"}]
    matches.create("live", "duel", {}, seats)
    before = contents(r, "live")
    assert Compactor(matches.store).compact("live") == ACTIVE
    assert Compactor(matches.store).compact("nobody") == MISSING
    assert r.exists(keys("live")["log"]) and not r.exists(keys("live")["packed"]) and contents(r, "live") == before
    assert contents(r, "nobody") == {}


def compact_cli(redis_url: str, *args: str, crash_at: str = "") -> subprocess.CompletedProcess:
    """``python -m services.rules.compact`` (``make compact``) in its own process, killed at ``crash_at``."""
    env = dict(os.environ, REDIS_URL=redis_url, FAULT_CRASH_AT=crash_at, PYTHONPATH=str(ROOT))
    env.pop("FAULT_ONCE_DIR", None)
    return subprocess.run([sys.executable, "-m", "services.rules.compact", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def compact_in_a_process(redis_url: str, match_id: str, crash_at: str = "") -> int:
    return compact_cli(redis_url, "--match", match_id, crash_at=crash_at).returncode


def test_make_compact_compacts_the_backlog_of_finished_matches_only(r, redis_url):
    matches = Matches(EventStore(r))
    for i in range(3):
        play_random(matches, f"done-{i}", "duel", 2, seed=i)
    matches.create("live", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    done = compact_cli(redis_url)
    assert done.returncode == 0 and "3 compacted" in done.stdout, done.stdout + done.stderr
    assert all(r.exists(keys(f"done-{i}")["packed"]) and not r.exists(keys(f"done-{i}")["log"]) for i in range(3))
    assert r.exists(keys("live")["log"]) and not r.exists(keys("live")["packed"])
    again = compact_cli(redis_url)
    assert again.returncode == 0 and "nothing to compact" in again.stdout, again.stdout


@pytest.mark.parametrize("point", ["compaction-after-write", "compaction-after-switch"])
def test_a_compaction_killed_between_its_steps_loses_nothing_and_finishes_when_run_again(r, redis_url, point):
    matches = Matches(EventStore(r), snapshot_every=20)
    play_random(matches, "m", "rise-of-tribes", 2, seed=5)
    before = answers(r, "m")

    assert compact_in_a_process(redis_url, "m", crash_at=point) == 137  # os._exit at the fail point
    assert r.exists(keys("m")["packed"])
    assert r.exists(keys("m")["log"])  # not deleted yet: both forms are there, each complete
    assert answers(r, "m") == before

    assert compact_in_a_process(redis_url, "m") == 0
    assert not r.exists(keys("m")["log"]) and not r.exists(keys("m")["snaps"])
    assert answers(r, "m") == before


def test_a_viewer_stepping_through_a_compacted_log_sees_what_a_fresh_reader_sees(r):
    store = EventStore(r)
    play_random(Matches(store), "m", "fate-of-akalon", 2, seed=11)
    assert Compactor(store).compact("m") == COMPACTED
    version = store.version("m")
    stepper = Matches(store)  # keeps the last state it read at an earlier version
    order = [*range(1, version + 1), *range(version, 0, -7), *random.Random(1).sample(range(1, version + 1), 30)]
    for at in order:
        assert encode(stepper.view("m", 0, at)) == encode(Matches(store).view("m", 0, at)), at


def test_a_state_kept_from_another_history_is_not_built_on(r):
    store = EventStore(r)
    stepper = Matches(store)
    play_random(Matches(store), "m", "duel", 2, seed=1)
    stepper.view("m", None, 5)
    r.flushdb()  # Redis lost the match; the same id is played again, differently
    play_random(Matches(store), "m", "duel", 2, seed=2)
    at = min(store.version("m"), 9)
    assert encode(stepper.view("m", None, at)) == encode(Matches(store).view("m", None, at))
