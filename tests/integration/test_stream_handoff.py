"""Issue #25, "Streams that hold": a held stream handed from the gunicorn worker to the stream
process (services/rules/stream_server.py) streams exactly as before; with no stream process
listening, the worker serves it itself. The per-client cap's 429 is answered by the stream process
as by a worker; the worker keeps no copy of a handed-off connection; the stream process serves its
own metrics and leaves no socket file behind. Real gunicorn gevent worker, real stream process,
real Redis."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import redis
import requests

from shared import localredis
from shared.eventstore import EventStore
from shared.matches import Matches
from shared.stream_handoff import listening

ROOT = Path(__file__).resolve().parents[2]


def _start(args, env, log):
    return subprocess.Popen([sys.executable, *args], env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                            start_new_session=True)


KEEPALIVE_S = 600  # the worker's keep-alive: a worker that waited it out would still hold the connection


@pytest.fixture()
def rules(tmp_path, request):
    """(base url, redis url, start_stream_process, handoff counts) of a rules worker configured to
    hand off; ``@pytest.mark.stream_env(NAME=value)`` adds to both processes' environment."""
    server = localredis.start(tmp_path / "redis")
    sock = str(tmp_path / "h.sock")
    port = localredis.free_port()
    extra = request.node.get_closest_marker("stream_env")
    env = dict(os.environ, REDIS_URL=server.url, AUTH_SECRET="t", PYTHONPATH=str(ROOT), SSE_KEEPALIVE_S="1",
               STREAM_HANDOFF_SOCKET=sock, **(extra.kwargs if extra else {}))
    log = open(tmp_path / "log", "w")
    procs = [_start(["-m", "gunicorn", "-c", "deploy/gunicorn.py", "-k", "gevent", "--keep-alive", str(KEEPALIVE_S),
                     "-b", f"127.0.0.1:{port}", "services.rules.app:create_app()"], env, log)]
    base = f"http://127.0.0.1:{port}"

    def stream_process(**more_env):
        proc = _start(["-m", "services.rules.stream_server"], dict(env, **more_env), log)
        procs.append(proc)
        wait_until(lambda: listening(sock), lambda: (tmp_path / "log").read_text())
        return proc

    def handoffs(outcome):
        for line in requests.get(f"{base}/metrics", timeout=5).text.splitlines():
            if line.startswith(f'tabletop_stream_handoffs_total{{outcome="{outcome}"}}'):
                return float(line.split()[-1])
        return 0.0

    deadline = time.time() + 60
    while True:
        try:
            requests.get(f"{base}/healthz", timeout=1)
            break
        except requests.RequestException:
            assert time.time() < deadline, (tmp_path / "log").read_text()
            time.sleep(0.1)
    yield base, server.url, stream_process, handoffs
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait(20)
    server.stop()


def wait_until(condition, why=lambda: "", within_s: float = 60) -> None:
    deadline = time.time() + within_s
    while not condition():
        assert time.time() < deadline, why()
        time.sleep(0.1)


def _match(redis_url: str, match_id: str) -> None:
    Matches(EventStore(redis.Redis.from_url(redis_url))).create(match_id, "arkon", {}, [{"player_id": "a"},
                                                                                        {"player_id": "b"}])


def _metric(text: str, prefix: str) -> float:
    for line in text.splitlines():
        if line.startswith(prefix):
            return float(line.split()[-1])
    return 0.0


def _first_lines(base, match_id, n):
    with requests.get(f"{base}/v1/matches/{match_id}/stream", stream=True, timeout=10) as r:
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/event-stream")
        it = r.iter_lines(decode_unicode=True)
        return [next(it) for _ in range(n)]


def test_rule_streams_that_hold_a_handed_off_stream_is_served_by_the_stream_process(rules):
    base, redis_url, stream_process, handoffs = rules
    stream_process()
    Matches(EventStore(redis.Redis.from_url(redis_url))).create("h1", "arkon", {}, [{"player_id": "a"}, {"player_id": "b"}])
    lines = _first_lines(base, "h1", 5)
    assert lines[:5] == ["retry: 2000", ": connected", "", "id: 1", "event: match.created"]
    assert handoffs("handed_off") == 1 and handoffs("in_process") == 0
    r = requests.get(f"{base}/v1/matches/none/stream", timeout=5)  # the worker's checks answer errors as before
    assert r.status_code == 404 and r.headers["Content-Type"] == "application/problem+json"


def test_rule_streams_that_hold_without_a_stream_process_the_worker_serves_the_stream(rules):
    base, redis_url, _stream_process, handoffs = rules
    Matches(EventStore(redis.Redis.from_url(redis_url))).create("h2", "arkon", {}, [{"player_id": "a"}, {"player_id": "b"}])
    assert _first_lines(base, "h2", 5)[3:] == ["id: 1", "event: match.created"]
    assert handoffs("in_process") == 1 and handoffs("handed_off") == 0


@pytest.mark.stream_env(MAX_STREAMS_PER_ADDRESS="1")
def test_rule_streams_that_hold_the_stream_process_answers_the_per_client_cap_with_a_429_problem(rules):
    base, redis_url, stream_process, handoffs = rules
    stream_process()
    _match(redis_url, "h3")
    with requests.get(f"{base}/v1/matches/h3/stream", stream=True, timeout=10) as held:
        assert next(held.iter_lines(decode_unicode=True)) == "retry: 2000"  # held by the stream process
        refused = requests.get(f"{base}/v1/matches/h3/stream", timeout=10)
        assert handoffs("handed_off") == 2  # the second one was answered by the stream process too
    assert refused.status_code == 429, refused.text
    assert refused.headers["Content-Type"] == "application/problem+json"
    assert refused.headers["Retry-After"] == "5"
    assert refused.headers["Connection"] == "close"
    problem = refused.json()
    assert problem["status"] == 429 and problem["type"].endswith("too-many-streams")
    assert "MAX_STREAMS_PER_ADDRESS" in problem["detail"]


def _worker_connections(base: str) -> set[int]:
    """The client ports of the TCP connections the rules worker holds open on its port."""
    port = int(base.rsplit(":", 1)[1])
    found = set()
    for proc in psutil.process_iter(["cmdline"]):
        if "services.rules.app:create_app()" not in " ".join(proc.info["cmdline"] or []):
            continue
        try:
            for c in proc.net_connections("tcp"):
                if c.laddr and c.laddr.port == port and c.raddr and c.status == psutil.CONN_ESTABLISHED:
                    found.add(c.raddr.port)
        except psutil.Error:
            continue
    return found


def test_rule_streams_that_hold_a_worker_keeps_no_copy_of_a_handed_off_connection(rules):
    base, redis_url, stream_process, _handoffs = rules
    stream_process()
    _match(redis_url, "h4")
    import socket

    with socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=10) as client:
        client.sendall(b"GET /v1/matches/h4/stream HTTP/1.1\r\nHost: x\r\n\r\n")
        head = b""
        while b"retry: 2000" not in head:
            head += client.recv(4096)
        assert b"Connection: close" in head
        mine = client.getsockname()[1]
        # the worker's keep-alive is KEEPALIVE_S: without closing its copy it would hold this one that long
        wait_until(lambda: mine not in _worker_connections(base), lambda: f"the worker still holds :{mine}")
        client.settimeout(10)
        assert client.recv(4096)  # still streaming (keep-alives), from the stream process


def test_rule_streams_that_hold_the_stream_process_serves_its_metrics_and_health(rules):
    base, redis_url, stream_process, _handoffs = rules
    port = localredis.free_port()
    stream_process(METRICS_PORT=str(port))
    exporter = f"http://127.0.0.1:{port}"
    _match(redis_url, "h5")
    assert requests.get(f"{exporter}/healthz", timeout=5).status_code == 200
    with requests.get(f"{base}/v1/matches/h5/stream", stream=True, timeout=10) as held:
        next(held.iter_lines())
        text = requests.get(f"{exporter}/metrics", timeout=5).text
        assert _metric(text, 'tabletop_held_streams{client_kind="address",service="rules"}') == 1
        assert _metric(text, 'tabletop_stream_process_handoffs_total{outcome="served"}') == 1
    wait_until(lambda: _metric(requests.get(f"{exporter}/metrics", timeout=5).text,
                               'tabletop_held_streams{client_kind="address",service="rules"}') == 0,
               lambda: "the ended stream is still counted as held")


def test_rule_streams_that_hold_no_socket_file_is_left_after_sigterm_and_a_stale_one_does_not_stop_a_start(
        rules, tmp_path):
    base, redis_url, stream_process, handoffs = rules
    sock = tmp_path / "h.sock"  # the fixture's
    first = stream_process()
    os.killpg(first.pid, signal.SIGKILL)
    first.wait(20)
    assert sock.exists() and not listening(str(sock))  # a stale file, as kill -9 leaves it
    second = stream_process()  # replaces it
    _match(redis_url, "h6")
    assert _first_lines(base, "h6", 4)[3] == "id: 1"
    assert handoffs("handed_off") == 1
    os.killpg(second.pid, signal.SIGTERM)
    assert second.wait(20) == 0
    assert not sock.exists()
    assert _first_lines(base, "h6", 4)[3] == "id: 1"  # the worker streams it itself now
    assert handoffs("in_process") == 1
