"""Matches are read with the rules that wrote them (issue 19), on a real Redis and the real stack:

* a snapshot or cached audit made by other code (an earlier release, another version) is passed
  over and the state rebuilt from the log, never served and never a 500;
* a log that names rules this server does not have answers a problem+json naming the game and
  the version (not a 500), and the offline verifier says it cannot check it (exit 3), never that
  it is forged.
"""
from __future__ import annotations

import subprocess
import sys

import pytest
import requests

from shared.canonical import dumps, encode, loads
from shared.envelope import event_core, state_layout
from shared.eventstore import EventStore
from shared.eventstore.chain import GENESIS
from shared.eventstore.store import keys
from shared.export import export_match
from shared.matches import Matches
from shared.verify import verify_lines
from tests.support.playout import play_random
from tests.support.stack import ROOT


def relabelled(store: EventStore, source: str, target: str, engine: str) -> None:
    """Copy the log of ``source`` to ``target`` as if engine ``engine`` had written it (sealed anew)."""
    records = []
    for rec in store.read(source):
        core = dict(event_core(rec), at=rec["at"], engine=engine)
        if rec.get("cause") is not None:
            core["cause"] = rec["cause"]
        if rec["type"] == "match.created":
            core["data"] = dict(rec["data"], match_id=target, engine=engine)
        records.append(core)
    meta = dict(store.meta(source), engine=engine)
    meta.pop("head_hash", None)
    seed = store.put_seed(target, store.seed(source))
    store.append(target, 0, GENESIS, records, seed, meta=meta)


def test_a_snapshot_made_by_other_code_is_passed_over_and_the_state_rebuilt_from_the_log(r):
    store = EventStore(r)
    matches = Matches(store, snapshot_every=4)
    final = play_random(matches, "snap", "duel", 2, seed=5)
    assert store.snapshots("snap", state_layout(matches.game_of(final))), "the match wrote snapshots"
    truth = {v: encode(Matches(store, snapshot_every=0).state("snap", at=v)) for v in range(1, final["version"] + 1)}
    # an earlier release's snapshots: no layout at all, and one with another layout, both wrong
    bogus = dict(final, game={"not": "this code's state"})
    for version in (4, 8):
        r.zadd(keys("snap")["snaps"], {dumps({"v": version, "s": bogus}): version})
        r.zadd(keys("snap")["snaps"], {dumps({"v": version, "layout": "duel@1:older", "s": bogus}): version})
    fresh = Matches(store, snapshot_every=4)
    for version, expected in truth.items():
        assert encode(fresh.state("snap", at=version)) == expected, version
    audit = fresh.audit("snap")
    assert audit["replay_valid"] and audit["chain_valid"] and audit["chance_valid"], audit
    assert "problems" not in audit


def test_a_cached_audit_made_by_other_code_is_computed_again(r):
    store = EventStore(r)
    matches = Matches(store)
    final = play_random(matches, "aud", "duel", 2, seed=6)
    r.set(keys("aud")["audit"], dumps({"head_hash": final["head_hash"], "audit": {"replay_valid": False,
                                                                                   "stale": True}}))
    audit = Matches(store).audit("aud")
    assert audit["replay_valid"] and audit["chance_valid"] and "stale" not in audit
    stored = loads(r.get(keys("aud")["audit"]))
    assert stored["layout"] == state_layout(matches.game_of(final))


@pytest.fixture
def unknown_version_export(r):
    """The export of a finished Duel whose log says engine "99" (not installed here)."""
    store = EventStore(r)
    play_random(Matches(store), "known", "duel", 2, seed=7)
    relabelled(store, "known", "future", "99")
    return b"".join(export_match(store, "future")).splitlines(keepends=True)


def test_the_verifier_cannot_check_a_log_of_rules_it_lacks_and_does_not_call_it_forged(unknown_version_export, tmp_path):
    report = verify_lines(unknown_version_export)
    assert report.verdict == "cannot check" and not report.ok
    assert report.checks == {"format": True, "chain": True, "seed": True, "chance": None, "replay": None}
    assert "game 'duel' at engine '99' is not installed here" in report.problem.reason
    path = tmp_path / "future.ndjson"
    path.write_bytes(b"".join(unknown_version_export))
    run = subprocess.run([sys.executable, "-m", "shared.verify", str(path)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 3, run.stdout + run.stderr
    assert run.stdout.strip().endswith("CANNOT CHECK") and "NOT GENUINE" not in run.stdout
    as_json = subprocess.run([sys.executable, "-m", "shared.verify", "--json", str(path)], cwd=ROOT,
                             capture_output=True, text=True)
    assert as_json.returncode == 3 and loads(as_json.stdout)["verdict"] == "cannot check"
    script = subprocess.run([str(ROOT / "scripts" / "verify"), str(path)], capture_output=True, text=True)
    assert script.returncode == 3 and script.stdout.strip().endswith("CANNOT CHECK"), script.stdout + script.stderr
    make = subprocess.run(["make", "-s", "-C", str(ROOT), "-o", ".venv/.installed", "verify", f"FILE={path}"],
                          capture_output=True, text=True)
    assert make.returncode == 2 and make.stderr.strip().endswith("verify] Error 3"), make.stderr


def test_a_forged_log_of_installed_rules_is_still_not_genuine(unknown_version_export):
    """The cannot-check verdict is only for rules this checkout lacks: a log whose chain breaks
    is not genuine, whatever version it names."""
    lines = list(unknown_version_export)
    rec = loads(lines[3])
    rec["data"] = {"tampered": True}
    lines[3] = encode(rec) + b"\n"
    report = verify_lines(lines)
    assert report.verdict == "not genuine" and report.checks["chain"] is False


def test_reads_of_a_match_whose_rules_are_not_installed_answer_a_problem_naming_game_and_version(stack):
    import redis

    client = redis.Redis.from_url(stack.redis_url)
    store = EventStore(client)
    play_random(Matches(store), "old-known", "duel", 2, seed=8)
    relabelled(store, "old-known", "old-future", "99")
    base = f"{stack.rules}/v1/matches/old-future"
    from shared.auth import Tokens

    token = {"Authorization": f"Bearer {Tokens('test-secret', client).for_player('someone')}"}  # legal-moves needs one
    for url in (base, f"{base}/events", f"{base}/view?at=3", f"{base}/audit", f"{base}/legal-moves?seat=0"):
        answer = requests.get(url, timeout=30, headers=token if "legal-moves" in url else None)
        assert answer.status_code == 501, (url, answer.status_code, answer.text)
        assert answer.headers["Content-Type"].startswith("application/problem+json")
        body = answer.json()
        assert body["type"] == "urn:problem:engine-not-installed"
        assert (body["game"], body["engine"]) == ("duel", "99") and "1" in body["installed"]
        assert "'duel' at engine '99' is not installed" in body["detail"]
    assert requests.get(f"{stack.rules}/v1/matches/old-known", timeout=30).status_code == 200
    client.close()


def test_the_games_list_gives_the_newest_version_and_every_installed_one(stack):
    games = {g["id"]: g for g in requests.get(f"{stack.mm}/v1/games", timeout=30).json()["games"]}
    assert (games["arkon"]["version"], games["arkon"]["versions"]) == ("4", ["1", "2", "3", "4"])
    assert games["battlefields-of-olympus"]["versions"] == ["1", "2", "3"]
    assert games["rise-of-tribes"]["versions"] == ["1", "2"]
