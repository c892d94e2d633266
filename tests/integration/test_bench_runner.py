"""``make bench`` (``bench/run_all.py``): progress on standard error, a quick mode, and no process
left behind — after each benchmark, and when the run is interrupted (SIGINT, SIGTERM) while a
benchmark has its own Redis and gunicorn servers up.

Everything runs as real processes: the runner on real benchmarks (``bench.queue_pairing``,
``bench.api_throughput`` in quick mode), and ``bench.children`` in a driver process of its own
(it stops every process below the one that calls it, which must not be pytest's)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from bench import children
from shared.stackfile import process_start
from tests.support.stack import ROOT, wait_for


def runner(*args, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "bench.run_all", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)), **kw)


def tree_with_start_times(root: int) -> dict[int, str]:
    """Every live process below ``root`` with its start time (to tell it from a later one on the same pid)."""
    return {pid: process_start(pid) for pid in children.descendants(root) if process_start(pid)}


def still_running(snapshot: dict[int, str]) -> list[int]:
    return [pid for pid, started in snapshot.items() if process_start(pid) == started]


def command_line(pid: int) -> str:
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def test_a_quick_run_of_one_benchmark_shows_its_progress_and_rewrites_no_document(tmp_path):
    doc = ROOT / "docs" / "benchmarks.md"
    before = doc.stat().st_mtime_ns
    out = tmp_path / "bench.md"
    proc = runner("--quick", "--only", "bench.queue_pairing", "--out", str(out))
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr
    lines = stderr.splitlines()
    assert lines[0] == f"bench: 1 benchmark (quick); results to {out}"
    assert lines[1] == "bench: [1/1] bench.queue_pairing --players=200: started"
    assert lines[2].startswith("bench: [1/1] bench.queue_pairing: done in ") and " s, 2 results" in lines[2]
    assert lines[3].startswith("bench: all done in ")
    assert [line for line in stdout.splitlines() if line.startswith('{"bench": "queue_pairing"')]
    assert "(quick)" in out.read_text() and "| players_per_match |" in out.read_text()
    assert doc.stat().st_mtime_ns == before
    only = runner("--quick", "--only", "bench.queue_pairing")  # --only without --out: no document at all
    _, stderr = only.communicate(timeout=300)
    assert only.returncode == 0 and "results to standard output" in stderr and "wrote" not in stderr
    assert doc.stat().st_mtime_ns == before


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_an_interrupted_run_stops_the_benchmark_and_its_servers(how):
    proc = runner("--quick", "--only", "bench.api_throughput")
    try:
        # until the benchmark's gunicorn (in a session of its own) and Redis are up below the runner
        def servers_up():
            tree = tree_with_start_times(proc.pid)
            names = [command_line(pid) for pid in tree]
            up = any("gunicorn" in n for n in names) and any("redis-server" in n for n in names)
            return tree if up and proc.poll() is None else None
        tree = wait_for(servers_up, 120, 0.05, "the benchmark's servers")
        time.sleep(0.5)
        tree.update(tree_with_start_times(proc.pid))  # gunicorn's workers too
        assert any(os.getpgid(pid) != os.getpgid(proc.pid) for pid in still_running(tree))  # other groups
        os.kill(proc.pid, getattr(signal, how))
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 128 + getattr(signal, how), stderr
    assert f"bench: [1/1] bench.api_throughput: interrupted ({how}) after " in stderr
    assert "nothing written, no process left running" in stderr
    left = still_running(tree)
    assert not left, f"left running after {how}: {[command_line(p) for p in left]}\n{stderr}"


DRIVER = textwrap.dedent("""
    import json, os, signal, subprocess, sys, time
    from bench import children
    from shared.stackfile import process_start

    assert children.become_subreaper()
    # a child in a session of its own that starts a server in yet another session (as a benchmark
    # starts gunicorn) and one in its own group, then dies without stopping either (as on SIGKILL)
    code = '''
    import subprocess, sys, time
    sleeper = [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"]
    a = subprocess.Popen(sleeper, start_new_session=True)
    b = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    print(a.pid, b.pid, flush=True)
    time.sleep(600)
    '''
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, start_new_session=True)
    grandchildren = [int(p) for p in child.stdout.readline().split()]
    child.kill()
    child.wait()
    time.sleep(0.3)
    orphans = children.descendants()
    started = {p: process_start(p) for p in grandchildren}
    found = children.stop_all(signal.SIGTERM, 1.0)
    print(json.dumps({"grandchildren": started, "orphans": sorted(orphans), "found": sorted(found),
                      "after": sorted(children.descendants())}), flush=True)
""")


def test_stop_all_finds_orphans_in_other_sessions_and_kills_one_that_ignores_sigterm():
    out = subprocess.run([sys.executable, "-c", DRIVER], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.splitlines()[-1])
    grandchildren = {int(pid): started for pid, started in report["grandchildren"].items()}
    assert sorted(grandchildren) == report["orphans"] == report["found"]  # re-parented to the subreaper
    assert report["after"] == [] and not still_running(grandchildren)
