"""``POST /v1/players`` latency on one matchmaking process (gunicorn gevent worker, as
deploy/Procfile runs it; real Redis) with and without 1,000 idle per-player streams held open
on it (``GET /v1/players/me/stream``, one per player, each receiving keep-alives only).

Phases: registrations without streams (baseline), with the streams connected, and without them
again; the baseline pools both stream-free phases. Goal: p99 with the streams at most 1.5x the
baseline, and none of the held streams refused. ``python -m bench.player_streams [--streams=N]
[--seconds=N] [--threads=N]``
"""
from __future__ import annotations

import os
import signal
import tempfile
import threading
import time
import uuid
from pathlib import Path

import requests

from shared import localredis
from shared.auth import Tokens

from .api_throughput import SECRET, start_gunicorn
from .common import argv_int, emit, median, percentile
from .sse_watchers import Watchers, cpu_s, rss_mb, worker_pid

UNCAPPED = "1000000"


def registrations(port: int, seconds: float, threads: int) -> dict:
    """Threads registering new players for ``seconds``: latencies and errors."""
    latencies, errors = [], [0]
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def client() -> None:
        http, mine = requests.Session(), []
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            r = http.post(f"http://127.0.0.1:{port}/v1/players", json={"name": f"b-{uuid.uuid4().hex[:16]}"}, timeout=30)
            mine.append((time.perf_counter() - t0) * 1000)
            if r.status_code != 201:
                with lock:
                    errors[0] += 1
        with lock:
            latencies.extend(mine)

    workers = [threading.Thread(target=client) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    return {"requests": len(latencies), "errors": errors[0], "p50_ms": round(median(latencies), 2),
            "p99_ms": round(percentile(latencies, 99), 2)}


def measure(redis_url: str, log, *, n_streams: int, seconds: int, threads: int) -> None:
    os.environ.update(SSE_KEEPALIVE_S="5", MAX_STREAMS_PER_PLAYER=UNCAPPED, MAX_STREAMS_PER_ADDRESS=UNCAPPED,
                      RATE_LIMIT_STREAMS_PER_TOKEN=f"{UNCAPPED}/minute", RATE_LIMIT_STREAMS_PER_ADDRESS=f"{UNCAPPED}/minute")
    port = localredis.free_port()
    proc = start_gunicorn("services.matchmaking.app:create_app()", port, redis_url, log,
                          args=("-k", "gevent", "--workers", "1", "--worker-connections", "4000"))
    tokens = Tokens(SECRET)
    try:
        pid = worker_pid(proc.pid)

        def timed() -> dict:
            cpu0 = cpu_s(pid)
            out = registrations(port, seconds, threads)
            out["worker_cpu_ms_per_request"] = round((cpu_s(pid) - cpu0) * 1000 / max(1, out["requests"]), 2)
            return out

        before = timed()
        rss_before = rss_mb(pid)
        t0 = time.perf_counter()
        streams = Watchers(port, [("/v1/players/me/stream", {"Authorization": f"Bearer {tokens.for_player(f'idle-{i}')}",
                                                            "Accept": "text/event-stream"}) for i in range(n_streams)])
        streams.wait_accepted(n_streams, 120)
        connect_s = round(time.perf_counter() - t0, 2)
        rss_with = rss_mb(pid)
        ready = requests.get(f"http://127.0.0.1:{port}/readyz", timeout=30).status_code
        held = timed()
        still_open = streams.accepted - streams.closed
        streams.close()
        after = timed()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)
    base_p50 = (before["p50_ms"] + after["p50_ms"]) / 2
    base_p99 = (before["p99_ms"] + after["p99_ms"]) / 2
    emit(bench="player_streams", workers=1, worker_class="gevent", threads=threads, seconds=seconds,
         streams=n_streams, streams_accepted=streams.accepted, streams_connect_s=connect_s,
         streams_open_after_load=still_open, readyz_while_held=ready,
         without_streams={"before": before, "after": after}, with_streams=held,
         baseline_p50_ms=round(base_p50, 2), baseline_p99_ms=round(base_p99, 2),
         p50_ratio=round(held["p50_ms"] / base_p50, 3), p99_ratio=round(held["p99_ms"] / base_p99, 3),
         goal_p99_ratio=1.5, worker_rss_mb={"without": rss_before, "with": rss_with})


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = localredis.start(tmp)
        try:
            with open(Path(tmp) / "gunicorn.log", "w") as log:
                measure(server.url, log, n_streams=argv_int("streams", 1000), seconds=argv_int("seconds", 10),
                        threads=argv_int("threads", 4))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
