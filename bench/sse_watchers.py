"""Move latency on one rules process (gunicorn gevent worker, real Redis) with and without 1,000
idle SSE watchers connected to it.

Phases, each with its own precomputed Arkon matches: client threads post moves without watchers
(baseline), then with the watchers connected (spread over quiet matches, caught up, receiving
only keep-alive comments, every 5 s here so that each phase sees them), then without them again; the baseline pools both watcher-free phases. Goal: p99 with
watchers at most 1.5x the baseline. ``python -m bench.sse_watchers [--watchers=N] [--seconds=N]
[--threads=N] [--keepalive=S]``
"""
from __future__ import annotations

import os
import selectors
import signal
import socket
import tempfile
import threading
import time
from pathlib import Path

import redis

from shared import localredis
from shared.eventstore import EventStore
from shared.matches import Matches

from .api_throughput import load, precompute, start_gunicorn
from .common import argv_int, emit

QUIET_MATCHES = 50  # the watchers are spread over this many matches where nothing happens


class Watchers:
    """N raw SSE connections, drained by one thread (the load generator must stay cheap)."""

    def __init__(self, port: int, streams: list[tuple[str, int]]):
        """``streams``: (path, Last-Event-ID) of each watcher."""
        self.selector = selectors.DefaultSelector()
        self.accepted = 0
        self.closed = 0
        self.sockets = []
        for path, last in streams:
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
                         f"Last-Event-ID: {last}\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, {"head": b""})
            self.sockets.append(sock)
        self._stop = False
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while not self._stop:
            for key, _ in self.selector.select(timeout=0.2):
                try:
                    data = key.fileobj.recv(65536)
                except BlockingIOError:
                    continue
                if not data:
                    self.closed += 1
                    self.selector.unregister(key.fileobj)
                    continue
                state = key.data
                if state["head"] is not None:
                    state["head"] += data
                    if b"\r\n" in state["head"]:
                        self.accepted += state["head"].startswith(b"HTTP/1.1 200")
                        state["head"] = None

    def wait_accepted(self, n: int, timeout: float) -> None:
        deadline = time.time() + timeout
        while self.accepted < n and time.time() < deadline:
            time.sleep(0.1)

    def close(self) -> None:
        self._stop = True
        self._thread.join(5)
        for sock in self.sockets:
            sock.close()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return float("nan")


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(children[0])


def measure(redis_url: str, log, *, n_watchers: int, seconds: int, threads: int, keepalive: int) -> None:
    matches = Matches(EventStore(redis.Redis.from_url(redis_url)))

    def plans(phase: str) -> list[list[tuple]]:
        out = []
        for t in range(threads):
            plan, i = [], 0
            while len(plan) < 150 * seconds:
                plan += precompute(matches, "arkon", f"{phase}-{t}-{i}", 3, seed=hash((phase, t, i)) % 2**31)
                i += 1
            out.append(plan)
        return out

    phases = {name: plans(name) for name in ("before", "watched", "after")}
    quiet = [(f"/v1/matches/quiet-{i}/stream", matches.create(
        f"quiet-{i}", "arkon", {}, [{"player_id": f"quiet-{i}-p{s}"} for s in range(3)])["version"])
        for i in range(QUIET_MATCHES)]
    os.environ["SSE_KEEPALIVE_S"] = str(keepalive)  # every watcher gets comments during each phase
    port = localredis.free_port()
    proc = start_gunicorn("services.rules.app:create_app()", port, redis_url, log, args=("-k", "gevent", "--workers", "1"))
    try:
        pid = worker_pid(proc.pid)

        def moves_url(match_id):
            return f"http://127.0.0.1:{port}/v1/matches/{match_id}/moves"

        def timed(phase: str) -> dict:
            """The phase's latencies, and the worker's CPU per move (steadier than latency on a busy machine)."""
            cpu0 = cpu_s(pid)
            out = load(moves_url, phases[phase], seconds)
            out["worker_cpu_ms_per_move"] = round((cpu_s(pid) - cpu0) * 1000 / max(1, out["requests"]), 2)
            return out

        before = timed("before")
        rss_before = rss_mb(pid)
        # Watchers that are caught up (Last-Event-ID = the head): idle from the start.
        t0 = time.perf_counter()
        watchers = Watchers(port, [quiet[i % QUIET_MATCHES] for i in range(n_watchers)])
        watchers.wait_accepted(n_watchers, 120)
        connect_s = round(time.perf_counter() - t0, 2)
        rss_watched = rss_mb(pid)
        watched = timed("watched")
        still_open = watchers.accepted - watchers.closed
        watchers.close()
        after = timed("after")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)
    base_p50 = (before["p50_ms"] + after["p50_ms"]) / 2
    base_p99 = (before["p99_ms"] + after["p99_ms"]) / 2
    emit(bench="sse_watchers", game="arkon", workers=1, worker_class="gevent", threads=threads, seconds=seconds,
         sse_keepalive_s=keepalive, watchers=n_watchers, watchers_accepted=watchers.accepted,
         watchers_connect_s=connect_s, watchers_open_after_load=still_open,
         without_watchers={"before": before, "after": after}, with_watchers=watched,
         baseline_p50_ms=round(base_p50, 2), baseline_p99_ms=round(base_p99, 2),
         p50_ratio=round(watched["p50_ms"] / base_p50, 3), p99_ratio=round(watched["p99_ms"] / base_p99, 3),
         cpu_per_move_ratio=round(watched["worker_cpu_ms_per_move"] / (
             (before["worker_cpu_ms_per_move"] + after["worker_cpu_ms_per_move"]) / 2), 3),
         worker_rss_mb={"without": rss_before, "with": rss_watched})


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = localredis.start(tmp)
        try:
            with open(Path(tmp) / "gunicorn.log", "w") as log:
                measure(server.url, log, n_watchers=argv_int("watchers", 1000), seconds=argv_int("seconds", 10),
                        threads=argv_int("threads", 4), keepalive=argv_int("keepalive", 5))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
