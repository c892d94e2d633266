"""Exports and the offline verifier (issue 13): a genuine export of every game verifies with no
server and no Redis; each kind of tampering is caught and the first bad record named.

The matches are played at the ``Matches`` level on a real Redis; the export is the one the rules
service streams (``shared.export.export_match``); the HTTP endpoint is checked on the stack.
"""
import subprocess
import sys

import pytest
import requests

from shared.canonical import encode, loads
from shared.engine import registry
from shared.eventstore import EventStore
from shared.eventstore.chain import GENESIS, seal
from shared.export import StillActive, export_match, parse
from shared.matches import Matches
from shared.verify import verify_lines
from tests.support.playout import play_random
from tests.support.stack import ROOT, Client, finished_bot_match

GAMES = ["arkon", "battlefields-of-olympus", "duel", "fate-of-akalon", "fellowships-of-fate", "rise-of-tribes"]


def export_lines(r, match_id) -> list[bytes]:
    return b"".join(export_match(EventStore(r), match_id)).splitlines(keepends=True)


@pytest.fixture
def duel_export(r):
    """The export of a finished 3-seat Duel (its lines)."""
    matches = Matches(EventStore(r))
    assert play_random(matches, "tamper", "duel", 3)["status"] == "finished"
    return export_lines(r, "tamper")


def records_of(lines):
    return [loads(x) for x in lines[1:-1]]


def with_records(lines, records):
    return [lines[0]] + [encode(rec) + b"\n" for rec in records] + [lines[-1]]


def reseal(records, seed: bytes):
    """Re-seal the whole chain consistently, as a forger holding the seed would."""
    prev = GENESIS
    for rec in records:
        seal(rec, prev, seed)
        prev = rec["hash"]
    return records


def with_trailer(lines, records, **changes):
    trailer = loads(lines[-1])["trailer"]
    header = loads(lines[0])["header"]
    trailer.update(records=len(records), head_hash=records[-1]["hash"], **changes)
    header.update(records=len(records), head_hash=records[-1]["hash"])
    return [encode({"header": header}) + b"\n"] + [encode(rec) + b"\n" for rec in records] + \
        [encode({"trailer": trailer}) + b"\n"]


@pytest.mark.store  # reads the store: on a real Redis and on fakeredis
@pytest.mark.parametrize("game_id", GAMES)
def test_a_genuine_export_of_every_game_verifies_offline(r, game_id):
    registry.load_all()
    players = min(3, registry.get(game_id).max_players)
    matches = Matches(EventStore(r), snapshot_every=25)
    final = play_random(matches, f"export-{game_id}", game_id, players, seed=3)
    lines = export_lines(r, f"export-{game_id}")
    log = parse(lines)
    assert log.header["match_id"] == f"export-{game_id}" and log.header["status"] == final["status"]
    assert log.header["head_hash"] == final["head_hash"] and len(log.records) == final["version"]
    assert log.trailer["seed"] == matches.audit(f"export-{game_id}")["seed"]
    assert any(rec.get("secret") or rec.get("private") for rec in log.records), "hidden parts are exported"
    report = verify_lines(lines, head_hash=final["head_hash"])
    assert report.ok, report.lines()
    assert report.checks == {"format": True, "chain": True, "seed": True, "chance": True, "replay": True}


@pytest.mark.store  # reads the store: on a real Redis and on fakeredis
def test_an_active_match_has_no_export(r):
    matches = Matches(EventStore(r))
    matches.create("live", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    with pytest.raises(StillActive):
        export_match(matches.store, "live")
    with pytest.raises(KeyError):
        export_match(matches.store, "nobody")


@pytest.mark.store  # reads the store: on a real Redis and on fakeredis
def test_an_aborted_match_exports_and_verifies(r):
    matches = Matches(EventStore(r))
    matches.create("stopped", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    matches.abort("stopped", "operator")
    report = verify_lines(export_lines(r, "stopped"))
    assert report.ok and report.status == "aborted", report.lines()


def test_altered_data_is_caught_at_its_record(duel_export):
    records = records_of(duel_export)
    target = next(rec for rec in records if rec["type"] == "committed" or rec["type"] == "revealed")
    target["data"] = dict(target["data"], tampered=True)
    report = verify_lines(with_records(duel_export, records))
    assert not report.ok and report.problem.check == "chain" and report.problem.seq == target["seq"]
    assert "hash does not match" in report.problem.reason


def test_a_dropped_record_is_caught(duel_export):
    records = records_of(duel_export)
    del records[4]
    report = verify_lines(with_records(duel_export, records))
    assert not report.ok and report.problem.check == "chain" and report.problem.seq == 5


def test_a_dropped_last_record_is_caught_by_the_trailer(duel_export):
    records = records_of(duel_export)[:-1]
    report = verify_lines(with_records(duel_export, records))
    assert not report.ok and report.problem.seq == len(records) + 1 and "missing" in report.problem.reason


def test_two_reordered_records_are_caught(duel_export):
    records = records_of(duel_export)
    records[3], records[4] = records[4], records[3]
    report = verify_lines(with_records(duel_export, records))
    assert not report.ok and report.problem.check == "chain" and report.problem.seq == 4


def test_a_redealt_hidden_card_in_a_resealed_chain_is_caught_by_the_chance_check(duel_export):
    """A forger with the seed changes the dealt deck and re-seals the whole chain consistently:
    the chain and the digests hold, but the seed does not deal that deck."""
    log = parse(duel_export)
    records = records_of(duel_export)
    dealt = next(rec for rec in records if rec["type"] == "dealt")
    dealt["secret"]["deck"].reverse()
    reseal(records, log.seed)
    report = verify_lines(with_trailer(duel_export, records))
    assert report.checks["chain"] and report.checks["seed"], report.lines()
    assert not report.ok and report.problem.check == "chance" and report.problem.seq == dealt["seq"]
    # a head hash held from elsewhere exposes the re-sealed chain at once
    genuine_head = log.header["head_hash"]
    assert verify_lines(with_trailer(duel_export, records), head_hash=genuine_head).problem.check == "chain"


def test_a_rewritten_move_in_a_resealed_chain_is_caught(duel_export):
    log = parse(duel_export)
    records = records_of(duel_export)
    move = next(rec for rec in records if (rec.get("cause") or {}).get("seat") is not None)
    move["data"] = dict(move["data"], seat=(move["data"].get("seat", 0) + 1) % 3)
    reseal(records, log.seed)
    report = verify_lines(with_trailer(duel_export, records))
    assert not report.ok and report.problem.check == "chance" and report.problem.seq == move["seq"]


def test_a_changed_outcome_in_a_resealed_chain_is_caught(duel_export):
    log = parse(duel_export)
    records = records_of(duel_export)
    ended = records[-1]
    assert ended["type"] == "match.ended"
    ranks = ended["data"]["outcome"]["ranks"]
    changed = list(reversed(ranks))
    if changed == ranks:  # a tie reads the same backwards: demote everyone instead
        changed = [r + 1 for r in ranks]
    ended["data"]["outcome"]["ranks"] = changed
    reseal(records, log.seed)
    report = verify_lines(with_trailer(duel_export, records))
    assert not report.ok and report.problem.seq == ended["seq"]


def test_a_wrong_seed_is_caught(duel_export):
    records = records_of(duel_export)
    report = verify_lines(with_trailer(duel_export, records, seed="ab" * 32))
    assert not report.ok and report.problem.check == "seed" and report.problem.seq == 1
    assert "commitment" in report.problem.reason


def test_a_file_that_is_not_an_export_fails_the_format_check(duel_export):
    assert verify_lines(duel_export[:-1]).problem.check == "format"  # no trailer
    assert verify_lines([b"not json\n"] + duel_export[1:]).problem.check == "format"
    assert verify_lines([]).problem.check == "format"


@pytest.fixture
def genuine_and_forged(duel_export, tmp_path):
    """Two export files: the genuine Duel, and the same with record 3 altered."""
    genuine = tmp_path / "genuine.ndjson"
    genuine.write_bytes(b"".join(duel_export))
    records = records_of(duel_export)
    records[2]["data"] = dict(records[2]["data"], x=1)
    forged = tmp_path / "forged.ndjson"
    forged.write_bytes(b"".join(with_records(duel_export, records)))
    return genuine, forged


def test_the_command_line_verifier_exits_0_only_for_a_genuine_log(genuine_and_forged, tmp_path):
    genuine, forged = genuine_and_forged
    env_run = dict(cwd=ROOT, capture_output=True, text=True, timeout=120)
    ok = subprocess.run([sys.executable, "-m", "shared.verify", str(genuine)], **env_run)
    assert ok.returncode == 0 and "GENUINE" in ok.stdout, ok.stdout + ok.stderr
    bad = subprocess.run([sys.executable, "-m", "shared.verify", str(forged)], **env_run)
    assert bad.returncode == 1 and "record 3" in bad.stdout and "NOT GENUINE" in bad.stdout, bad.stdout
    unreadable = subprocess.run([sys.executable, "-m", "shared.verify", str(tmp_path / "missing.ndjson")], **env_run)
    assert unreadable.returncode == 2 and "cannot read" in unreadable.stderr


def test_scripts_verify_keeps_the_verifiers_exit_status_and_make_verify_exits_0_or_2(genuine_and_forged, tmp_path):
    """What README.md and docs/api.md promise: ``scripts/verify`` exits 0 / 1 / 2 (and 3, in
    test_engine_versions); ``make verify`` exits 0 for a genuine log and 2 otherwise, its last line
    naming the verifier's status."""
    genuine, forged = genuine_and_forged
    env_run = dict(cwd=tmp_path, capture_output=True, text=True, timeout=120)  # FILE relative to the caller
    script = str(ROOT / "scripts" / "verify")
    for name, status, verdict in (("genuine.ndjson", 0, "GENUINE"), ("forged.ndjson", 1, "NOT GENUINE")):
        out = subprocess.run([script, name], **env_run)
        assert out.returncode == status and out.stdout.strip().endswith(verdict), out.stdout + out.stderr
    missing = subprocess.run([script, "missing.ndjson"], **env_run)
    assert missing.returncode == 2 and "cannot read missing.ndjson" in missing.stderr
    make = ["make", "-s", "-C", str(ROOT), "-o", ".venv/.installed", "verify"]  # the stamp: never reinstall here
    ok = subprocess.run([*make, f"FILE={genuine}"], **env_run)
    assert ok.returncode == 0 and ok.stdout.strip().endswith("GENUINE"), ok.stdout + ok.stderr
    bad = subprocess.run([*make, f"FILE={forged}"], **env_run)
    assert bad.returncode == 2 and "record 3" in bad.stdout and bad.stdout.strip().endswith("NOT GENUINE")
    assert bad.stderr.strip().endswith("verify] Error 1"), bad.stderr
    gone = subprocess.run([*make, f"FILE={tmp_path / 'missing.ndjson'}"], **env_run)
    assert gone.returncode == 2 and gone.stderr.strip().endswith("verify] Error 2"), gone.stderr


# ----- the HTTP endpoint, on the stack --------------------------------------------------------
def test_the_export_endpoint_serves_ndjson_that_verifies(stack):
    match_id = finished_bot_match(stack, "exporter")
    resp = requests.get(f"{stack.rules}/v1/matches/{match_id}/export")
    assert resp.status_code == 200 and resp.headers["Content-Type"].startswith("application/x-ndjson")
    head = requests.get(f"{stack.rules}/v1/matches/{match_id}").json()["head_hash"]
    report = verify_lines(resp.content.splitlines(keepends=True), head_hash=head)
    assert report.ok, report.lines()


def test_the_export_endpoint_refuses_an_active_or_unknown_match(stack):
    alice = Client.register(stack, "alice-export")
    match_id = alice.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
        {"player_id": alice.player_id}, {"bot": "random"}]}).json()["match_id"]
    active = requests.get(f"{stack.rules}/v1/matches/{match_id}/export")
    assert active.status_code == 409 and active.headers["Content-Type"].startswith("application/problem+json")
    assert "active" in active.json()["detail"]
    unknown = requests.get(f"{stack.rules}/v1/matches/no-such-match/export")
    assert unknown.status_code == 404 and unknown.json()["status"] == 404


# ----- the framework's own decisions are re-derived too ---------------------------------------
def test_a_resigned_match_verifies_and_its_outcome_is_rederived(r):
    matches = Matches(EventStore(r))
    matches.create("resigned", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    matches.resign("resigned", 1)
    lines = export_lines(r, "resigned")
    assert verify_lines(lines).ok
    log = parse(lines)
    records = records_of(lines)
    records[-1]["data"]["outcome"]["ranks"] = [2, 1]  # the resigning seat "wins"
    reseal(records, log.seed)
    report = verify_lines(with_trailer(lines, records))
    assert report.problem.check == "chance" and report.problem.seq == records[-1]["seq"]


def test_a_handed_over_seat_verifies(r):
    matches = Matches(EventStore(r))
    matches.create("timeout", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    matches.hand_over("timeout", 0, "greedy", "timeout")
    final = play_random(matches, "timeout", "duel", 2, seed=4)
    assert final["status"] == "finished"
    assert verify_lines(export_lines(r, "timeout")).ok


def test_a_game_event_smuggled_into_a_system_decision_is_caught(r):
    """A forger adds a hand-over batch carrying a game event (say, extra points) and re-seals."""
    matches = Matches(EventStore(r))
    play_random(matches, "smuggle", "duel", 2, seed=6)
    lines = export_lines(r, "smuggle")
    log = parse(lines)
    records = records_of(lines)
    forged = {"type": "revealed", "data": {"cards": [12, 1], "winner": 0}, "at": records[2]["at"],
              "engine": records[2]["engine"], "cause": {"system": "timeout"}}
    records.insert(2, forged)
    for i, rec in enumerate(records, start=1):
        rec["seq"] = i
    reseal(records, log.seed)
    report = verify_lines(with_trailer(lines, records))
    assert report.problem.check == "chance" and report.problem.seq == forged["seq"], report.lines()
