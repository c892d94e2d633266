"""Prometheus metrics of a real stack (deploy/run.py, gunicorn with several workers, real Redis):
every service's ``/metrics`` and the exporters of the consumers and bot workers (``METRICS_PORT``)
parse with prometheus_client's own parser, count what happened, keep labels bounded (route
templates, never a match id), and show the lag of a consumer that is stopped."""
from __future__ import annotations

import os
import signal
import uuid

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from deploy.run import procfile
from shared import localredis
from shared.localredis import free_port
from shared.streams import MATCHES_FINISHED
from tests.support.stack import Client, finished_bot_match, seat_players, start_stack, wait_for

MOVES_ROUTE = "/v1/matches/<match_id>/moves"


@pytest.fixture(scope="module")
def mstack(tmp_path_factory):
    """The stack of deploy/Procfile with an exporter on a free port for each consumer and worker."""
    workdir = tmp_path_factory.mktemp("metrics-stack")
    ports = {}
    lines = []
    for name, command in procfile().items():
        if not command.startswith("gunicorn"):
            ports[name] = free_port()
            command = f"env METRICS_PORT={ports[name]} METRICS_ADDR=127.0.0.1 {command}"
        lines.append(f"{name}: {command}")
    (workdir / "Procfile").write_text("\n".join(lines) + "\n")
    server = localredis.start(workdir / "redis")
    stack = start_stack(server.url, workdir, str(workdir / "Procfile"))
    stack.exporters = {name: f"http://127.0.0.1:{port}" for name, port in ports.items()}
    yield stack
    stack.kill()
    server.stop()


def scrape(base: str) -> tuple[str, dict]:
    """The exposition text of ``base``/metrics and its samples: (name, sorted labels) -> value."""
    r = requests.get(f"{base}/metrics", timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["Content-Type"].startswith("text/plain"), r.headers
    samples = {}
    for family in text_string_to_metric_families(r.text):  # raises on anything that does not parse
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return r.text, samples


def value(samples: dict, name: str, **labels) -> float:
    """The sum of the samples named ``name`` whose labels include ``labels``."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))


def moves_of(base: str) -> float:
    return value(scrape(base)[1], "tabletop_moves_appended_total", game="duel")


def play_out(players: dict[int, Client], match_id: str) -> int:
    """Both humans play the first legal move whenever it is theirs, to the end; moves answered 201."""
    posted = 0
    api = next(iter(players.values())).api
    while api.match(match_id)["status"] == "active":
        for seat, player in players.items():
            turn = player.api.turn(match_id)
            if turn["moves"]:
                r = player.post(f"{player.stack.rules}/v1/matches/{match_id}/moves",
                                json={"move": turn["moves"][0], "expected_version": turn["version"]})
                assert r.status_code in (201, 409), r.text
                posted += r.status_code == 201
    return posted


def test_rules_metrics_count_the_moves_and_time_each_route_by_its_template(mstack):
    a, b = Client.register(mstack, "meter-a"), Client.register(mstack, "meter-b")
    seats = [{"player_id": a.player_id}, {"player_id": b.player_id}]
    match_id = seat_players(a, {"game": "duel", "seats": seats}, [b])
    before = moves_of(mstack.rules)
    # one move with an Idempotency-Key, then the same request again: appended once, counted once
    turn = a.api.turn(match_id)
    key = uuid.uuid4().hex
    body = {"move": turn["moves"][0], "expected_version": turn["version"]}
    first = a.post(f"{mstack.rules}/v1/matches/{match_id}/moves", json=body, headers={"Idempotency-Key": key})
    again = a.post(f"{mstack.rules}/v1/matches/{match_id}/moves", json=body, headers={"Idempotency-Key": key})
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    posted = 1 + play_out({0: a, 1: b}, match_id)
    nowhere = f"{mstack.rules}/v1/matches/no-such-{match_id}/nowhere/{uuid.uuid4().hex}"
    assert requests.get(nowhere).status_code == 404

    # every request went to one of the two gunicorn workers; /metrics adds both workers' files up
    assert moves_of(mstack.rules) - before == posted
    text, samples = scrape(mstack.rules)
    assert value(samples, "tabletop_http_request_duration_seconds_count", service="rules", route=MOVES_ROUTE,
                 method="POST") >= posted + 1
    assert value(samples, "tabletop_http_requests_total", route=MOVES_ROUTE, method="POST",
                 status="2xx") >= posted + 1
    buckets = {dict(ls)["le"]: v for (n, ls), v in samples.items()
               if n == "tabletop_http_request_duration_seconds_bucket" and dict(ls)["route"] == MOVES_ROUTE}
    assert buckets["+Inf"] >= posted + 1 and len(buckets) > 5
    assert value(samples, "tabletop_http_requests_total", route="<unmatched>", status="4xx") >= 1
    assert match_id not in text  # no match id (nor any raw path) in a label
    assert value(samples, "tabletop_due_entries", set="followups") >= 0
    assert ("tabletop_bot_turns_waiting", ()) in samples


def test_bot_turns_are_counted_where_they_are_queued_and_where_they_are_played(mstack):
    finished_bot_match(mstack, "meter-bots")
    _, rules = scrape(mstack.rules)
    assert value(rules, "tabletop_bot_turns_queued_total") >= 2
    played = 0.0
    for name in ("bot_worker_1", "bot_worker_2"):
        text, samples = scrape(mstack.exporters[name])
        played += value(samples, "tabletop_bot_turns_total", outcome="played")
        assert ("tabletop_bot_turns_waiting", ()) in samples
    assert played >= 2
    _, consumer = scrape(mstack.exporters["rules_consumer"])
    assert value(consumer, "tabletop_followup_sweeps_total") >= 1
    assert value(consumer, "tabletop_stream_entries_total", group="rules", outcome="ok") >= 1


def test_every_service_and_exporter_serves_a_parsable_exposition(mstack):
    for base in [*mstack.urls.values(), *mstack.exporters.values()]:
        text, samples = scrape(base)
        assert samples, base
    for name, base in mstack.exporters.items():  # the containers' liveness check
        assert requests.get(f"{base}/healthz", timeout=10).status_code == 200, name
    # a table of its own (the test does not rely on another having made one)
    before = value(scrape(mstack.mm)[1], "tabletop_http_requests_total", service="matchmaking", route="/v1/tables",
                   method="POST")
    host = Client.register(mstack, f"exposer-{uuid.uuid4().hex[:6]}")
    r = host.post(f"{mstack.mm}/v1/tables", json={"game": "duel", "seats": [{"player_id": host.player_id},
                                                                           {"bot": "random"}]})
    assert r.status_code == 201, r.text
    _, streams = scrape(mstack.exporters["rules_streams"])  # the rules stream process: what it holds
    assert ("tabletop_held_streams", (("client_kind", "player"), ("service", "rules"))) in streams
    _, mm = scrape(mstack.mm)
    assert value(mm, "tabletop_http_requests_total", service="matchmaking", route="/v1/tables",
                 method="POST") == before + 1


def _pids_of(stack, module: str) -> dict[int, int]:
    """pid -> parent pid of every process of the stack running ``module``."""
    from tests.support.chaos import cmdline, parent, program_of, programs_running

    programs = programs_running(stack, module)  # a process title may hide the command line
    found = {pid: parent(pid) for pid in stack.pids()
             if module in cmdline(pid) or program_of(pid) in programs or program_of(pid).rsplit("_", 1)[0] in programs}
    found = {pid: ppid for pid, ppid in found.items() if ppid != -1}
    assert found, f"no process runs {module}"
    return found


def _pid_of(stack, module: str) -> int:
    return min(_pids_of(stack, module))


def test_the_lag_of_a_stopped_consumer_shows_in_its_service_metrics_and_drains_after(mstack):
    def lag(group: str, base: str) -> float:
        return value(scrape(base)[1], "tabletop_stream_lag_entries", stream=MATCHES_FINISHED, group=group)

    wait_for(lambda: lag("scoring", mstack.scoring) == 0, 60, 0.2, "the scoring group to catch up")
    pid = _pid_of(mstack, "services.scoring.consumer")
    os.kill(pid, signal.SIGSTOP)
    try:
        finished_bot_match(mstack, "meter-lag")
        wait_for(lambda: lag("rules-index", mstack.rules) == 0, 60, 0.2,
                 "the indexer (still running) to catch up")
        assert lag("scoring", mstack.scoring) >= 1  # the finished match waits for the stopped consumer
    finally:
        os.kill(pid, signal.SIGCONT)
    wait_for(lambda: lag("scoring", mstack.scoring) == 0, 60, 0.2, "the resumed consumer to drain its lag")
    _, own = scrape(mstack.exporters["scoring_consumer"])
    assert value(own, "tabletop_stream_entries_total", group="scoring", outcome="ok") >= 1


def test_a_killed_gunicorn_worker_does_not_reset_the_counters(mstack):
    before = value(scrape(mstack.rules)[1], "tabletop_http_requests_total", service="rules")
    procs = _pids_of(mstack, "services.rules.app")
    workers = sorted(pid for pid, parent in procs.items() if parent in procs)  # the master's children
    assert len(workers) == 2, procs
    os.kill(workers[0], signal.SIGKILL)

    def replaced() -> bool:
        now = [pid for pid, parent in _pids_of(mstack, "services.rules.app").items() if parent in procs]
        return len(now) == 2 and workers[0] not in now

    wait_for(replaced, 60, 0.2, "gunicorn to replace the killed worker")
    after = value(scrape(mstack.rules)[1], "tabletop_http_requests_total", service="rules")
    assert after >= before  # the dead worker's requests still count


def test_a_failed_bot_turn_is_counted_by_its_worker_and_in_the_queue(mstack):
    import redis
    from rq import Queue

    from shared.auth import Tokens

    def failed() -> float:
        return sum(value(scrape(mstack.exporters[n])[1], "tabletop_bot_turns_total", outcome="failed")
                   for n in ("bot_worker_1", "bot_worker_2"))

    before = failed()
    match_id = f"no-such-match-{uuid.uuid4().hex[:8]}"  # the job's token is genuine, its match is not
    token = Tokens(mstack.env["AUTH_SECRET"]).for_bot(match_id, 0, "random")
    queue = Queue("bots", connection=redis.Redis.from_url(mstack.redis_url))
    queue.enqueue_call("services.bots.worker.play_turn", args=(match_id, 0, 1, "random", "duel", "1", token),
                       failure_ttl=3600)
    wait_for(lambda: failed() >= before + 1, 60, 0.2, "a worker to count the failed turn")
    assert value(scrape(mstack.rules)[1], "tabletop_bot_turns_failed_jobs") >= 1


def test_a_turn_deadline_that_hands_a_seat_over_is_counted(mstack):
    a, b = Client.register(mstack, "meter-clock-a"), Client.register(mstack, "meter-clock-b")
    seat_players(a, {"game": "duel", "turn_seconds": 1,
                     "seats": [{"player_id": a.player_id}, {"player_id": b.player_id}]}, [b])

    def handed_over() -> float:
        return value(scrape(mstack.exporters["rules_consumer"])[1], "tabletop_deadlines_fired_total",
                     outcome="handed_over")

    wait_for(lambda: handed_over() >= 1, 90, 0.3, "the rules consumer to fire a deadline")
