"""Tampering is detected by the audit; a lost bot job is noticed and the turn is played anyway."""
import os
import signal
import subprocess
import sys

import redis
import requests

from shared.canonical import dumps, loads
from shared.eventstore.store import keys
from tests.support.stack import ROOT, Client, finished_bot_match, start_stack, wait_for


def rewrite_log(r, match_id, change):
    """Alter stored events behind the service's back. The audit is computed once per head hash and
    kept beside the log; whoever can rewrite the log can rewrite that too, so the rewrite drops it."""
    key = keys(match_id)["log"]
    entries = r.xrange(key)
    r.delete(key, keys(match_id)["audit"])
    for entry_id, fields in entries:
        record = loads(fields[b"e"])
        change(record)
        r.xadd(key, {"e": dumps(record)}, id=entry_id)


def test_altering_a_stored_event_is_detected_by_the_audit(stack):
    match_id = finished_bot_match(stack)
    assert requests.get(f"{stack.rules}/v1/matches/{match_id}/audit").json()["chain_valid"] is True
    r = redis.Redis.from_url(stack.redis_url)

    def cheat(record):
        if record["type"] == "revealed":
            record["data"]["winner"] = 1 - (record["data"]["winner"] or 0)

    rewrite_log(r, match_id, cheat)
    audit = requests.get(f"{stack.rules}/v1/matches/{match_id}/audit").json()
    assert audit["chain_valid"] is False and audit["problems"]


def test_a_hidden_part_altered_after_the_fact_is_detected(stack):
    match_id = finished_bot_match(stack)
    r = redis.Redis.from_url(stack.redis_url)

    def cheat(record):
        if record["type"] == "dealt":
            record["secret"]["deck"].reverse()

    rewrite_log(r, match_id, cheat)
    assert requests.get(f"{stack.rules}/v1/matches/{match_id}/audit").json()["chain_valid"] is False


def test_chance_outcomes_are_rederived_from_the_revealed_seed(stack):
    match_id = finished_bot_match(stack)
    audit = requests.get(f"{stack.rules}/v1/matches/{match_id}/audit").json()
    assert audit["chance_valid"] is True
    import hashlib

    assert hashlib.sha256(bytes.fromhex(audit["seed"])).hexdigest() == audit["seed_commitment"]
    events = requests.get(f"{stack.rules}/v1/matches/{match_id}/events", params={"limit": 1000}).json()["events"]
    assert events[0]["data"]["seed_commitment"] == audit["seed_commitment"]
    assert events[-1]["type"] == "match.ended" and events[-1]["data"]["seed"] == audit["seed"]
    assert "secret" in events[1]  # after the end, the whole log is open


def test_a_lost_bot_job_is_noticed_and_the_turn_is_played(tmp_path):
    from shared import localredis

    server = localredis.start(tmp_path / "redis")
    procfile = tmp_path / "Procfile.nobots"
    lines = [line for line in (ROOT / "deploy/Procfile").read_text().splitlines() if not line.startswith("bot_worker")]
    procfile.write_text("\n".join(lines) + "\n")
    stack = start_stack(server.url, tmp_path, procfile=str(procfile), BOT_RETRY_AFTER_S="2")
    worker = None
    try:
        host = Client.register(stack, "host")
        match_id = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
            {"bot": "random"}, {"bot": "random"}]}).json()["match_id"]
        r = redis.Redis.from_url(server.url)
        wait_for(lambda: r.llen("rq:queue:bots") >= 2, 10, what="bot jobs to be queued")
        r.delete("rq:queue:bots")  # the jobs are lost (as if a worker died holding them)
        version = requests.get(f"{stack.rules}/v1/matches/{match_id}").json()["version"]
        env = dict(stack.env)
        worker = subprocess.Popen([sys.executable, "-m", "services.bots"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        final = wait_for(lambda: (lambda m: m["status"] == "finished" and m)(
            requests.get(f"{stack.rules}/v1/matches/{match_id}").json()), 60, what="the match to finish anyway")
        assert final["version"] > version
    finally:
        if worker is not None:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(20)
        stack.stop()
        server.stop()
