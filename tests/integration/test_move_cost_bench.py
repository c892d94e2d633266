"""``bench/move_cost.py`` (issue #24): its strace counting and fsync delay on real processes, and a
quick run through ``make bench``'s runner whose output has the shape the lead re-reads after each
change of the write path (rows, fields, goals, the document's section) — never its timings."""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time

import pytest

from bench.common import durability
from bench.syscalls import SyncCounter, slow_fsync_binary
from tests.support.stack import ROOT

pytestmark = pytest.mark.skipif(not shutil.which("strace"), reason="strace is needed (apt-get install strace)")

SYNCER = """
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT)
sys.stdin.readline()            # the counter is attached
for _ in range(int(sys.argv[2])):
    os.write(fd, b"x")
    os.fdatasync(fd)
os.fsync(fd)
print("done", flush=True)
sys.stdin.readline()
"""


def syncer(tmp_path, n: int, prefix: list[str] = ()) -> subprocess.Popen:
    return subprocess.Popen([*prefix, sys.executable, "-c", SYNCER, str(tmp_path / "f"), str(n)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def test_the_counter_counts_each_sync_of_the_processes_it_is_given_and_only_inside_its_window(tmp_path):
    inside, outside = syncer(tmp_path, 7), syncer(tmp_path, 5)
    try:
        with SyncCounter({"store": [inside.pid]}, tmp_path) as counter:
            for proc in (inside, outside):
                proc.stdin.write("go\n")
                proc.stdin.flush()
                assert proc.stdout.readline() == "done\n"
        assert dict(counter.counts["store"]) == {"fdatasync": 7, "fsync": 1}
        assert counter.total("other") == 0  # the untraced process's syncs are not counted anywhere
    finally:
        for proc in (inside, outside):
            proc.communicate("\n", timeout=10)


def test_the_slow_fsync_wrapper_delays_every_fsync_of_the_program_it_starts(tmp_path):
    wrapper = slow_fsync_binary(sys.executable, 50_000, tmp_path)  # 50 ms, far above any disk here
    proc = subprocess.Popen([str(wrapper), "-c", SYNCER, str(tmp_path / "f"), "4"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    out, _ = proc.communicate("go\n\n", timeout=60)
    assert out == "done\n" and proc.returncode == 0
    assert time.monotonic() - t0 >= 5 * 0.05  # four fdatasync and one fsync, each held at least 50 ms


@pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")), reason="node and npm are needed for the peer")
def test_a_quick_run_reports_counts_throughput_the_peer_and_the_goals(tmp_path):
    out = tmp_path / "bench.md"
    proc = subprocess.run([sys.executable, "-m", "bench.run_all", "--quick", "--only", "bench.move_cost", "--out",
                           str(out)], cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert "processes running" not in proc.stderr  # the benchmark stopped everything it started
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    kinds = [r["bench"] for r in rows]

    setup = rows[kinds.index("move_cost_setup")]
    assert setup["redis_conf"] == "deploy/redis.conf" and setup["appendfsync"] == durability()["appendfsync"]

    cycles = {r["cycle"]: r for r in rows if r["bench"] == "move_cost"}
    assert set(cycles) == {"human_match_legal_post", "human_turn_post", "bot", "finishing"}
    for r in cycles.values():
        assert r["cycles"] > 0 and r["store_commands_per_cycle"] > 0
        assert set(r["fsyncs_per_cycle"]) == {"store", "queue", "other", "all"}
        assert r["processes_traced"]["store"] == r["processes_traced"]["queue"] == 1
        # the launcher, supervisord, 3 gunicorn masters and their 4 workers, 4 consumers, 2 bot workers
        assert r["processes_traced"]["other"] >= 12
        if setup["appendfsync"] == "always":  # each accepted move is on disk before its answer
            assert r["fsyncs_per_cycle"]["store"] >= 1
    assert cycles["bot"]["queue_commands_per_cycle"] > 0  # bot turns go through the queue Redis
    assert sum(cycles["human_turn_post"]["store_commands_by_type"].values()) == pytest.approx(
        cycles["human_turn_post"]["store_commands_per_cycle"], abs=0.2)  # by type adds up to the total

    timed = [r for r in rows if r["bench"] == "move_throughput"]
    assert sorted((("delayed" in r["redis"]), r["clients"]) for r in timed) == [(False, 1), (False, 8), (True, 1),
                                                                              (True, 8)]
    for r in timed:
        assert r["moves"]["errors"] == 0 and r["trivial_xadd"]["errors"] == 0
        assert r["moves"]["requests"] > 0 and r["trivial_xadd"]["requests"] > 0 and r["ratio"] > 0
        # each run's ratio from its own interleaved slices; the row's is their median
        assert len(r["ratio_per_run"]) == r["runs"] and r["slice_s"] > 0
        assert r["ratio"] == pytest.approx(statistics.median(r["ratio_per_run"]), abs=0.002)
    delay_ms = setup["fsync_delay_ms"]
    for r in timed:
        if "delayed" in r["redis"]:  # an injected delay is a floor that no load can lower
            assert r["trivial_xadd"]["p50_ms"] >= delay_ms and r["moves"]["p50_ms"] >= delay_ms

    tuned = [r for r in rows if r["bench"] == "move_throughput_tuned_trivial"]  # an equally tuned baseline
    assert [r["clients"] for r in tuned] == [1, 8]
    assert all(r["moves"]["errors"] == 0 and r["trivial_xadd"]["errors"] == 0 and r["ratio"] > 0 for r in tuned)

    peers = [r for r in rows if r["bench"] == "move_throughput_peer"]
    assert [r["clients"] for r in peers] == [1, 8]
    assert all(r["peer"].startswith("boardgame.io ") and "nothing persisted" in r["durability"]
               and r["moves"]["moves"] > 0 for r in peers)

    goals = rows[kinds.index("move_cost_goals")]["goals"]
    assert [g["goal"] for g in goals] == ["store_commands_per_human_cycle", "fsyncs_per_accepted_move_whole_stack",
                                          "throughput_vs_trivial", "throughput_vs_boardgameio",
                                          "slow_fsync_throughput_vs_trivial"]
    assert all(isinstance(g["pass"], bool) and g["measured"] is not None for g in goals)

    doc = out.read_text()
    assert "## The move path" in doc and "| cycle | cycles | store_commands_per_cycle |" in doc
    assert "| store_commands_per_human_cycle | <= 12 |" in doc
    assert "| clients | moves.rps | trivial_xadd.rps | ratio | ratio_per_run | cpu_ratio |" in doc


def test_the_throughput_loads_alternate_in_slices_and_each_adds_up_its_own(monkeypatch):
    """``interleaved``: trivial, moves, moves, trivial… in slices of the time asked, each load's
    requests, time and worker CPU summed over its own slices only."""
    from bench import move_cost

    calls = []

    def drive(plan, seconds, url, pids):
        calls.append((url, round(seconds, 3)))
        n = 10 if url else 4  # the trivial endpoint answers 10 a slice, the moves 4
        return {"latencies": [1.0] * n, "errors": 0, "elapsed": seconds, "cpu_ms": 2.0 * n if url else 5.0 * n,
                "client_cpu_ms": 1.0 * n if url else 3.0 * n}

    monkeypatch.setattr(move_cost, "_drive", drive)
    moves, trivial = move_cost.interleaved([{}], 2.0, "http://t/xadd", [1], [2], slice_s=0.5)
    assert calls == [("http://t/xadd", 0.5), (None, 0.5), (None, 0.5), ("http://t/xadd", 0.5),
                     ("http://t/xadd", 0.5), (None, 0.5), (None, 0.5), ("http://t/xadd", 0.5)]
    assert (moves["requests"], moves["rps"], moves["worker_cpu_ms_per_request"]) == (16, 8.0, 5.0)
    assert (trivial["requests"], trivial["rps"], trivial["worker_cpu_ms_per_request"]) == (40, 20.0, 2.0)
    assert (moves["client_cpu_ms_per_request"], trivial["client_cpu_ms_per_request"]) == (3.0, 1.0)
