"""Issue #25, "Streams that hold": a held stream handed from the gunicorn worker to the stream
process (services/rules/stream_server.py) streams exactly as before; with no stream process
listening, the worker serves it itself. Real gunicorn gevent worker, real stream process, real Redis."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import requests

from shared import localredis
from shared.eventstore import EventStore
from shared.matches import Matches

ROOT = Path(__file__).resolve().parents[2]


def _start(args, env, log):
    return subprocess.Popen([sys.executable, *args], env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                            start_new_session=True)


@pytest.fixture()
def rules(tmp_path):
    """(base url, redis url, start_stream_process, handoff counts) of a rules worker configured to hand off."""
    server = localredis.start(tmp_path / "redis")
    sock = str(tmp_path / "h.sock")
    port = localredis.free_port()
    env = dict(os.environ, REDIS_URL=server.url, AUTH_SECRET="t", PYTHONPATH=str(ROOT), SSE_KEEPALIVE_S="1",
               STREAM_HANDOFF_SOCKET=sock)
    log = open(tmp_path / "log", "w")
    procs = [_start(["-m", "gunicorn", "-c", "deploy/gunicorn.py", "-k", "gevent", "-b", f"127.0.0.1:{port}",
                     "services.rules.app:create_app()"], env, log)]
    base = f"http://127.0.0.1:{port}"

    def stream_process():
        procs.append(_start(["-m", "services.rules.stream_server"], env, log))
        deadline = time.time() + 60
        while not os.path.exists(sock):
            assert time.time() < deadline, (tmp_path / "log").read_text()
            time.sleep(0.1)

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
        os.killpg(p.pid, signal.SIGTERM)
        p.wait(20)
    server.stop()


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
