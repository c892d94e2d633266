"""Where a rules worker's CPU goes on the move path (issue #24): py-spy samples both gunicorn
workers of the rules service while clients play the counter game through the API.

``python -m bench.profile_moves [--clients=N] [--seconds=S] [--style=turn_post|post] [--out=DIR]``

The stack is ``bench.move_cost``'s (``make run``'s launcher and Procfile, the counter game, the
store from ``deploy/redis.conf``). Each client plays its own long match: with ``turn_post`` it
reads ``GET …/turn`` and posts the first legal move (the client's loop), with ``post`` it posts
precomputed moves (``bench.move_cost``'s throughput load). ``py-spy record --format raw`` writes
the collapsed stacks of both workers to ``DIR`` (an SVG flame graph beside them with ``--svg``);
the last line is the workers' CPU per request (``/proc``, py-spy's own pauses included, which
``--nonblocking`` keeps small) and the share of the samples that hold the GIL (``--gil``: Python
running, not a system call such as a socket's send or the hub waiting) in each part of the path (a
sample counts in the part of its innermost frame that falls in one, in the order of ``PARTS``).
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import requests

from .common import argv_int, emit
from .children import cpu_ms
from .move_cost import Stack, argv_float, human_match, load, plans

PY_SPY = str(Path(sys.executable).with_name("py-spy"))  # requirements-dev.txt

# (part, substrings of a frame "function (file:line)"): the first part matched, innermost frame
# first, takes the sample
PARTS = [
    ("redis round trips (socket wait, parsing)", ("redis/connection.py", "redis/_parsers", "redis/client.py",
                                                  "redis/commands/core.py", "redis/connection")),
    ("rate limiting", ("shared/limits.py", "shared/ratewindow.py", "flask_limiter", "limits/")),
    ("auth / token", ("shared/auth.py", "shared/caller.py", "hmac.py", "itsdangerous")),
    ("metrics", ("shared/metrics.py", "prometheus_client")),
    ("logging", ("logging/__init__.py",)),
    ("marshmallow / webargs / smorest", ("marshmallow/", "webargs/", "flask_smorest/", "apispec/")),
    ("json", ("json/encoder.py", "json/decoder.py", "json/__init__.py", "flask/json", "orjson",
              "shared/canonical.py")),
    ("hash chain", ("shared/eventstore/chain.py", "hashlib")),
    ("engine (apply, legal moves, view)", ("shared/engine/", "bench/counter_game.py", "shared/games/")),
    ("event store", ("shared/eventstore/",)),
    ("matches", ("shared/matches.py",)),
    ("follow-ups / notices / deadlines", ("services/rules/followups.py", "services/rules/deadlines.py",
                                          "shared/notices.py", "shared/due.py")),
    ("live / streams / handoff", ("services/rules/live.py", "shared/stream_handoff.py", "shared/held_streams.py")),
    ("rules routes", ("services/rules/routes.py",)),
    ("shared/web.py hooks", ("shared/web.py", "shared/cors.py", "shared/problems.py")),
    ("flask / werkzeug", ("flask/", "werkzeug/")),
    ("gunicorn / gevent", ("gunicorn/", "gevent/")),
]


def turn_post_load(stack: Stack, clients: int, seconds: float) -> dict:
    """Each client plays a long match of two people, ``GET /turn`` then ``POST`` the first move."""
    matches = [human_match(stack, target=10_000_000) for _ in range(clients)]
    done, errors, lock = [0], [0], threading.Lock()
    stop = time.perf_counter() + seconds

    def play(match_id, seats):
        http = requests.Session()
        seat, mine, bad = 0, 0, 0
        while time.perf_counter() < stop:
            headers = {"Authorization": f"Bearer {seats[seat].token}"}
            turn = http.get(f"{stack.stack.rules}/v1/matches/{match_id}/turn", headers=headers, timeout=60).json()
            r = http.post(f"{stack.stack.rules}/v1/matches/{match_id}/moves", headers={
                **headers, "Idempotency-Key": uuid.uuid4().hex},
                json={"move": turn["moves"][0], "expected_version": turn["version"]}, timeout=60)
            mine += 1
            bad += r.status_code != 201
            seat = 1 - seat
        with lock:
            done[0] += mine
            errors[0] += bad

    t0 = time.perf_counter()
    threads = [threading.Thread(target=play, args=m) for m in matches]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"cycles": done[0], "errors": errors[0], "cycles_per_s": round(done[0] / (time.perf_counter() - t0), 1)}


def shares(raw_files: list[Path]) -> tuple[dict, int, Counter]:
    """Busy samples by part (per cent) and in all, and the top leaf functions."""
    parts, leaves, total = Counter(), Counter(), 0
    for path in raw_files:
        for line in path.read_text(errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if not count.isdigit():
                continue
            n = int(count)
            frames = stack.split(";")
            total += n
            leaves[frames[-1]] += n
            parts[_part_of(frames)] += n
    return ({p: round(100 * n / max(total, 1), 1) for p, n in parts.most_common()}, total, leaves)


def _part_of(frames: list[str]) -> str:
    for frame in reversed(frames):  # innermost first
        for part, needles in PARTS:
            if any(n in frame for n in needles):
                return part
    return "other"


def main() -> None:
    clients, seconds = argv_int("clients", 8), argv_float("seconds", 10)
    style = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--style=")), "turn_post")
    out_dir = next((Path(a.split("=", 1)[1]) for a in sys.argv[1:] if a.startswith("--out=")), None)
    svg = "--svg" in sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        out = out_dir or Path(tmp) / "profiles"
        out.mkdir(parents=True, exist_ok=True)
        stack = Stack(Path(tmp) / "stack")
        try:
            pids = stack.rules_workers()
            plan = plans(stack, clients) if style == "post" else None
            fmt = ("--format", "flamegraph") if svg else ("--format", "raw")
            spies = [subprocess.Popen([PY_SPY, "record", "--nonblocking", "--gil", "--pid", str(pid), "--rate", "200",
                                       "--duration", str(int(seconds)), *fmt, "-o",
                                       str(out / f"worker-{pid}.{'svg' if svg else 'txt'}")],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for pid in pids]
            time.sleep(0.5)
            cpu0 = cpu_ms(pids)
            result = load(plan, seconds, None) if plan else turn_post_load(stack, clients, seconds)
            result["worker_cpu_ms_per_request"] = round((cpu_ms(pids) - cpu0) / max(
                1, result.get("requests") or 2 * result["cycles"]), 3)
            for spy in spies:
                spy.wait(60)
        finally:
            stack.stop()
        if svg:
            emit(bench="profile_moves", style=style, clients=clients, load=result, svg=str(out))
            return
        by_part, samples, leaves = shares(sorted(out.glob("worker-*.txt")))
        emit(bench="profile_moves", style=style, clients=clients, seconds=seconds, workers=len(pids), load=result,
             busy_samples=samples, share_percent=by_part,
             top_leaves={k: round(100 * v / max(samples, 1), 1) for k, v in leaves.most_common(15)})


if __name__ == "__main__":
    main()
