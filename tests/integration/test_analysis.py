"""Move-by-move analysis on the real stack (real Redis, real HTTP, real RQ workers): an active
match refused, repeated requests answered with the same analysis, a worker killed -9 mid-job
(another resumes: nothing lost, nothing counted twice, the same verdicts as an uninterrupted run).

The stack runs without the Procfile's analysis worker: each test starts its own workers, so it
knows which process does the work and can kill it."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
import requests

from shared import localredis
from shared.analysis_jobs import Jobs, job_id
from shared.eventstore import EventStore
from shared.export import export_match, parse
from shared.matches import Matches
from shared.verify import verify_lines
from tests.integration.test_metrics import scrape, value
from tests.support.playout import play_random
from tests.support.stack import ROOT, Client, finished_bot_match, start_stack, wait_for

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("stack")
    procfile = workdir / "Procfile"
    lines = (ROOT / "deploy/Procfile").read_text().splitlines()
    procfile.write_text("\n".join(ln for ln in lines if not ln.startswith("analysis_worker")) + "\n")
    server = localredis.start(workdir / "redis")
    s = start_stack(server.url, workdir, procfile=str(procfile), ANALYSIS_PARALLEL="2", ANALYSIS_CHUNK="1",
                    ANALYSIS_CLAIM_TTL_S="2")
    yield s
    s.kill()
    server.stop()


@pytest.fixture
def workers(stack):
    started: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        env = {k: v for k, v in stack.env.items() if k != "METRICS_PORT"}
        p = subprocess.Popen([sys.executable, "-m", "services.analysis"], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started.append(p)
        return p

    yield start
    for p in started:
        if p.poll() is None:
            p.kill()
        p.wait()


def _url(stack, match_id):
    return f"{stack.rules}/v1/matches/{match_id}/analysis"


def test_an_active_match_is_refused_and_a_match_never_asked_about_is_404(stack):
    host = Client.register(stack, "an-host")
    r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"player_id": host.player_id},
                                                                          {"bot": "random"}]})
    active = r.json()["match_id"]
    wait_for(lambda: host.get(f"{stack.rules}/v1/matches/{active}").status_code == 200, what="the match")
    refused = host.post(_url(stack, active), json={})
    assert refused.status_code == 409 and refused.headers["Content-Type"].startswith(PROBLEM), refused.text
    assert refused.json()["type"].endswith("match-active")
    never = host.get(_url(stack, active))
    assert never.status_code == 404 and never.headers["Content-Type"].startswith(PROBLEM)
    bad = host.post(_url(stack, active), json={"budget": 1})
    assert 400 <= bad.status_code < 500 and bad.headers["Content-Type"].startswith(PROBLEM)


def test_repeated_requests_return_the_same_analysis_which_completes_on_the_workers(stack, workers):
    match_id = finished_bot_match(stack, "an-rep")
    c = Client(stack)
    first = c.post(_url(stack, match_id), json={"budget": 40})
    assert first.status_code == 202 and first.json()["status"] == "queued", first.text
    again = c.post(_url(stack, match_id), json={"budget": 40})
    assert again.status_code == 202 and again.json()["budget"] == 40
    jobs = Jobs(__import__("redis").Redis.from_url(stack.redis_url))
    assert len(jobs.r.keys("analysis:job:*")) == 1  # one analysis, however often it is asked for
    workers()
    done = wait_for(lambda: (d := c.get(_url(stack, match_id)).json())["status"] == "done" and d, 120, 0.2,
                    "the analysis")
    assert done["progress"] == 1.0 and done["total"] == len(done["decisions"]) > 0
    assert sum(s["decisions"] for s in done["seats"]) == done["total"]
    for d in done["decisions"]:
        assert d["loss"] == round(max(0.0, d["value_best"] - d["value_played"]), 4) and d["loss"] >= 0
    assert c.post(_url(stack, match_id), json={"budget": 40}).status_code == 200  # done: 200, the same result
    assert c.get(_url(stack, match_id)).json() == done
    # the export carries the done analysis on request, outside the hash chain: it still verifies
    plain = requests.get(f"{stack.rules}/v1/matches/{match_id}/export", timeout=10)
    carried = requests.get(f"{stack.rules}/v1/matches/{match_id}/export", params={"analysis": "true"}, timeout=10)
    lines = carried.content.splitlines(keepends=True)
    assert len(lines) == len(plain.content.splitlines()) + 1
    assert verify_lines(lines).ok
    assert parse(lines).analysis["decisions"] == done["decisions"] and parse(plain.content.splitlines()).analysis is None
    _, samples = scrape(stack.rules)
    assert value(samples, "tabletop_analysis_jobs_by_status", status="done") >= 1
    assert value(samples, "tabletop_analysis_jobs_queued_total") >= 2  # ANALYSIS_PARALLEL RQ jobs
    other = c.post(_url(stack, match_id), json={"budget": 60})  # another budget: another analysis
    assert other.status_code == 202
    assert c.get(_url(stack, match_id), params={"budget": 40}).json() == done


def test_a_worker_killed_mid_job_loses_nothing_and_another_resumes(stack, workers):
    match_id = finished_bot_match(stack, "an-kill")
    c = Client(stack)
    budget = 3000  # slow enough to be killed with decisions left, on any machine
    assert c.post(_url(stack, match_id), json={"budget": budget}).status_code == 202
    doomed = workers()
    jobs = Jobs(__import__("redis").Redis.from_url(stack.redis_url))
    job = job_id(match_id, c.get(_url(stack, match_id)).json()["engine"], budget)
    wait_for(lambda: jobs.judged_count(job) >= 1, 240, 0.05, "a first judged decision")
    os.kill(doomed.pid, signal.SIGKILL)
    doomed.wait()
    before = jobs.judged(job)
    total = c.get(_url(stack, match_id)).json()["total"]
    assert 0 < len(before) < total, "the worker should have been killed mid-job"
    # the dead worker's RQ jobs look alive to RQ until its heartbeat expires: a new worker gets the
    # analysis's second RQ job, whose loop takes the dead worker's chunk over once its claim expires
    workers()
    done = wait_for(lambda: (d := c.get(_url(stack, match_id)).json())["status"] == "done" and d, 600, 0.2,
                    "the resumed analysis")
    assert len(done["decisions"]) == total  # nothing lost
    assert sum(s["decisions"] for s in done["seats"]) == total  # nothing counted twice
    keys = [(d["version"], d["seat"]) for d in done["decisions"]]
    assert len(set(keys)) == len(keys)
    after = jobs.judged(job)
    assert all(after[i] == v for i, v in before.items())  # what was judged before the kill is kept as it was


def test_an_export_carrying_an_analysis_verifies_and_the_analysis_is_outside_the_chain(r):
    matches = Matches(EventStore(r))
    assert play_random(matches, "carried", "duel", 2)["status"] == "finished"
    plain = b"".join(export_match(EventStore(r), "carried")).splitlines(keepends=True)
    doc = {"status": "done", "decisions": [{"version": 3, "seat": 0, "loss": 0.5}]}
    carried = b"".join(export_match(EventStore(r), "carried", analysis=doc)).splitlines(keepends=True)
    assert carried[:-2] == plain[:-1] and carried[-1] == plain[-1]  # one line more, before the trailer
    log = parse(carried)
    assert log.analysis == doc and log.records == parse(plain).records
    assert verify_lines(carried).ok
    edited = carried[:-2] + [carried[-2].replace(b"0.5", b"0.1"), carried[-1]]
    assert verify_lines(edited).ok  # not covered by the chain: a judgement of the log, not part of it


def test_jobs_are_created_once_chunks_are_claimed_by_one_worker_and_a_verdict_is_stored_once(redis_url):
    import redis as redis_lib

    jobs = Jobs(redis_lib.Redis.from_url(redis_url))
    job = job_id("m1", "1", 40)
    assert jobs.create(job, match_id="m1", game="duel", engine="1", budget=40, seats=2)
    assert not jobs.create(job, match_id="m1", game="duel", engine="1", budget=99, seats=2)
    assert jobs.get(job)["budget"] == 40 and jobs.counts()["queued"] == 1
    assert jobs.claim(job, 0, "w1") and not jobs.claim(job, 0, "w2")
    jobs.release(job, 0, "w2")  # another's claim is left alone
    assert not jobs.claim(job, 0, "w2")
    jobs.release(job, 0, "w1")
    assert jobs.claim(job, 0, "w2")
    assert jobs.record(job, 0, {"loss": 0.1}) and not jobs.record(job, 0, {"loss": 0.9})
    assert jobs.judged(job) == {0: {"loss": 0.1}}
    assert jobs.set_status(job, "running") and jobs.set_status(job, "done")
    assert not jobs.set_status(job, "failed")  # a done analysis stays done
    assert jobs.counts() == {"queued": 0, "running": 0, "done": 1, "failed": 0}
