"""Move latency on one rules process (gunicorn gevent worker, real Redis) with and without 1,000
watchers OF THE MATCH BEING PLAYED: spectators on its event stream, and its seats on their own
event streams and state streams (``/turn/stream``), so every move's events are redacted for each
audience and written to every watcher while the next move is posted.

Rounds of three phases, each playing one precomputed Arkon match from its first move to its last
(one client, one move at a time, as its seats would): ``before`` (no watchers), ``watched`` (the
watchers connected to that very match before its first move, caught up, receiving each event
as it comes), ``after`` (no watchers again). The baseline pools the watcher-free phases of the
same run. Goal: p99 with watchers at most 1.5x the baseline. Each round's own ratios (its watched
phase against its before and after phases) are reported too, and their median
(``median_round_p99_ratio``): a p99 of one phase of ~150 moves is its second-worst move, so a
single round moves with the machine's other load.
``--handoff=1`` (the default) runs the rules stream process beside the worker, as deploy does
(streams handed off, shared/stream_handoff.py); ``--handoff=0`` keeps them in the worker.
``python -m bench.sse_watchers [--watchers=N] [--rounds=N] [--seat-share=PERCENT] [--handoff=0|1]``
"""
from __future__ import annotations

import os
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis

from shared import localredis
from shared.auth import Tokens
from shared.eventstore import EventStore
from shared.matches import Matches

from .api_throughput import ROOT, SECRET, load, precompute, start_gunicorn
from .common import argv_int, emit

GAME, PLAYERS = "arkon", 3
UNCAPPED = "1000000"


class Watchers:
    """N raw HTTP streams, drained by one thread (the load generator must stay cheap)."""

    def __init__(self, port: int, streams: list[tuple[str, dict]]):
        """``streams``: (path, headers) of each watcher."""
        self.selector = selectors.DefaultSelector()
        self.accepted = 0
        self.closed = 0
        self.received = 0  # bytes, headers and keep-alives included
        self.sockets = []
        for path, headers in streams:
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\n{head}\r\n".encode())
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
                except (BlockingIOError, ConnectionError):
                    continue
                if not data:
                    self.closed += 1
                    self.selector.unregister(key.fileobj)
                    continue
                self.received += len(data)
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


def watchers_of(match_id: str, head: int, n: int, seat_share: int) -> list[tuple[str, dict]]:
    """``n`` streams of one match: ``seat_share`` percent are its seats' (each seat's event stream
    and state stream in turn, with the seat's token), the rest spectators; all caught up."""
    tokens = Tokens(SECRET)
    seats = [tokens.for_player(f"{match_id}-p{i}") for i in range(PLAYERS)]
    n_seats = n * seat_share // 100
    out = []
    for i in range(n_seats):
        auth = {"Authorization": f"Bearer {seats[i % PLAYERS]}"}
        path = f"/v1/matches/{match_id}/turn/stream" if (i // PLAYERS) % 2 else f"/v1/matches/{match_id}/stream"
        out.append((path, {**auth, "Last-Event-ID": str(head)}))
    out += [(f"/v1/matches/{match_id}/stream", {"Last-Event-ID": str(head)})] * (n - n_seats)
    return out


def start_stream_process(redis_url: str, log, sock: str) -> subprocess.Popen:
    """The rules stream process (``services.rules.stream_server``) on ``sock``, once it listens."""
    env = dict(os.environ, REDIS_URL=redis_url, AUTH_SECRET=SECRET, PYTHONPATH=str(ROOT), STREAM_HANDOFF_SOCKET=sock)
    proc = subprocess.Popen([sys.executable, "-m", "services.rules.stream_server"], cwd=ROOT, env=env, stdout=log,
                            stderr=log, start_new_session=True)
    for _ in range(600):
        if os.path.exists(sock):
            return proc
        time.sleep(0.1)
    raise RuntimeError("the stream process did not start")


def measure(redis_url: str, log, *, n_watchers: int, rounds: int, seat_share: int, handoff: bool = True) -> None:
    matches = Matches(EventStore(redis.Redis.from_url(redis_url)))
    phases = {(r, name): precompute(matches, GAME, f"{name}-{r}", PLAYERS, seed=hash((name, r)) % 2**31)
              for r in range(rounds) for name in ("before", "watched", "after")}
    os.environ.update(SSE_KEEPALIVE_S="5", MAX_STREAMS_PER_PLAYER=UNCAPPED, MAX_STREAMS_PER_ADDRESS=UNCAPPED,
                      RATE_LIMIT_STREAMS_PER_TOKEN=f"{UNCAPPED}/minute", RATE_LIMIT_STREAMS_PER_ADDRESS=f"{UNCAPPED}/minute",
                      RATE_LIMIT_WRITES_PER_TOKEN=f"{UNCAPPED}/minute")
    port = localredis.free_port()
    streams = None
    if handoff:
        sock = os.path.join(tempfile.mkdtemp(), "streams.sock")
        os.environ["STREAM_HANDOFF_SOCKET"] = sock
        streams = start_stream_process(redis_url, log, sock)
    else:
        os.environ.pop("STREAM_HANDOFF_SOCKET", None)
    proc = start_gunicorn("services.rules.app:create_app()", port, redis_url, log,
                          args=("-k", "gevent", "--workers", "1", "--worker-connections", "4000"))
    results = {"before": [], "watched": [], "after": []}
    delivered, connect_s, still_open, rss = [], [], [], {}
    try:
        pid = worker_pid(proc.pid)

        def moves_url(match_id):
            return f"http://127.0.0.1:{port}/v1/matches/{match_id}/moves"

        def timed(plan: list[tuple]) -> dict:
            """One match played through; its latencies and the CPU per move of the worker, the
            stream process, and this process (which shares the machine's cores with them)."""
            cpu0 = cpu_s(pid)
            streams_cpu0 = cpu_s(streams.pid) if streams is not None else 0.0
            own_cpu0 = cpu_s(os.getpid())  # the load generator: the moves' client and the watchers' reader
            out = load(moves_url, [plan], seconds=600)
            out["bench_process_cpu_ms_per_move"] = round((cpu_s(os.getpid()) - own_cpu0) * 1000
                                                         / max(1, out["requests"]), 2)
            out["worker_cpu_ms_per_move"] = round((cpu_s(pid) - cpu0) * 1000 / max(1, out["requests"]), 2)
            if streams is not None:
                out["stream_process_cpu_ms_per_move"] = round(
                    (cpu_s(streams.pid) - streams_cpu0) * 1000 / max(1, out["requests"]), 2)
            return out

        for r in range(rounds):
            results["before"].append(timed(phases[(r, "before")]))
            rss.setdefault("without", rss_mb(pid))
            plan = phases[(r, "watched")]
            match_id = plan[0][2]
            head = matches.state(match_id)["version"]
            t0 = time.perf_counter()
            watchers = Watchers(port, watchers_of(match_id, head, n_watchers, seat_share))
            watchers.wait_accepted(n_watchers, 120)
            connect_s.append(round(time.perf_counter() - t0, 2))
            time.sleep(1)  # the opening messages (seats' first state) are out
            rss.setdefault("with", rss_mb(pid))
            received0 = watchers.received
            results["watched"].append(timed(plan))
            deadline = time.time() + 30
            while watchers.closed < watchers.accepted and time.time() < deadline:  # the match ended: streams end
                time.sleep(0.2)
            delivered.append(watchers.received - received0)
            still_open.append(watchers.accepted - watchers.closed)
            watchers.close()
            results["after"].append(timed(phases[(r, "after")]))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)
        if streams is not None:
            os.killpg(streams.pid, signal.SIGTERM)
            streams.wait(20)

    def pooled(phase_runs: list[dict], key: str) -> float:
        return round(sum(run[key] for run in phase_runs) / len(phase_runs), 2)

    def round_ratio(r: int, key: str) -> float:
        baseline = (results["before"][r][key] + results["after"][r][key]) / 2
        return round(results["watched"][r][key] / baseline, 3)

    round_p50 = [round_ratio(r, "p50_ms") for r in range(rounds)]
    round_p99 = [round_ratio(r, "p99_ms") for r in range(rounds)]
    base = results["before"] + results["after"]
    base_p50, base_p99 = pooled(base, "p50_ms"), pooled(base, "p99_ms")
    with_p50, with_p99 = pooled(results["watched"], "p50_ms"), pooled(results["watched"], "p99_ms")
    emit(bench="sse_watchers", game=GAME, workers=1, worker_class="gevent",
         streams_served_by="stream process" if handoff else "the worker (in-process)", rounds=rounds,
         moves_per_phase=len(phases[(0, "watched")]), watchers=n_watchers, seat_share_percent=seat_share,
         watchers_accepted=watchers.accepted, watchers_connect_s=connect_s,
         watchers_still_open_after_the_end=still_open, bytes_delivered_per_watched_match=delivered,
         without_watchers=base, with_watchers=results["watched"],
         baseline_p50_ms=base_p50, baseline_p99_ms=base_p99, with_watchers_p50_ms=with_p50,
         with_watchers_p99_ms=with_p99, p50_ratio=round(with_p50 / base_p50, 3),
         p99_ratio=round(with_p99 / base_p99, 3), goal_p99_ratio=1.5,
         round_p50_ratios=round_p50, round_p99_ratios=round_p99,
         median_round_p50_ratio=statistics.median(round_p50), median_round_p99_ratio=statistics.median(round_p99),
         stream_process_nice=int(os.environ.get("STREAM_PROCESS_NICE") or 0) if handoff else None,
         cpu_per_move_ratio=round(pooled(results["watched"], "worker_cpu_ms_per_move")
                                  / pooled(base, "worker_cpu_ms_per_move"), 3),
         worker_rss_mb=rss)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = localredis.start(tmp)
        try:
            with open(Path(tmp) / "gunicorn.log", "w") as log:
                measure(server.url, log, n_watchers=argv_int("watchers", 1000), rounds=argv_int("rounds", 3),
                        seat_share=argv_int("seat-share", 10), handoff=bool(argv_int("handoff", 1)))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
