"""Run every benchmark and write ``docs/benchmarks.md`` (JSON lines are also echoed).

``python -m bench.run_all [--quick] [--only MODULE ...] [--out PATH]`` (``make bench``,
``make bench QUICK=1``, ``make bench ONLY=bench.replay``). Each benchmark compares against a
baseline measured in the same run, because these machines are noisy: read the ratios, not the
absolute numbers.

* ``--quick``: every benchmark with shorter settings (a few minutes in all instead of tens);
  the document says "(quick)".
* ``--only MODULE`` (repeatable): just those benchmarks; their JSON lines are printed and the
  document is not rewritten (unless ``--out`` names where to write one).
* Progress goes to standard error: a line when each benchmark starts and when it ends, with its
  elapsed time and the run's; the JSON lines go to standard output as they come.
* Each benchmark runs in a session of its own, and this runner is the child subreaper of
  everything below it (``bench.children``). SIGINT, SIGTERM or SIGHUP: the running benchmark gets
  SIGINT (its ``finally`` blocks stop its servers), then whatever is still running below the
  runner is stopped (SIGTERM, then SIGKILL), nothing is written, and the runner exits 128 + the
  signal's number. After each benchmark, anything it left running is stopped too (and said).
  Exit status 1 when a benchmark failed (the document is still written).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import children

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
BENCH_GRACE_S = 15  # how long an interrupted benchmark has to stop its own servers

BENCHES = [
    ("bench.engine_selfplay", ["--seconds=3", "--runs=3"], ["--seconds=1", "--runs=1"]),
    ("bench.replay", ["--runs=5", "--reads=200"], ["--runs=2", "--reads=30"]),
    ("bench.api_throughput", ["--seconds=10", "--threads=8"], ["--seconds=3", "--threads=4"]),
    ("bench.move_cost", ["--cycles=40", "--seconds=5", "--runs=3"], ["--cycles=10", "--seconds=2", "--runs=1"]),
    ("bench.queue_pairing", ["--players=1000"], ["--players=200"]),
    ("bench.appendfsync", ["--seconds=5", "--runs=3"], ["--seconds=2", "--runs=1"]),
    ("bench.cluster_store", ["--seconds=5", "--runs=3"], ["--seconds=2", "--runs=1"]),
    ("bench.bot_fleet", ["--seconds=20", "--matches=8"], ["--seconds=8", "--matches=4"]),
    ("bench.sse_watchers", ["--watchers=1000", "--rounds=3"], ["--watchers=200", "--rounds=1"]),
    ("bench.player_streams", ["--streams=1000", "--seconds=10", "--threads=4"], ["--streams=200", "--seconds=3", "--threads=2"]),
    ("bench.metrics_overhead", ["--requests=5000", "--runs=7"], ["--requests=1000", "--runs=3"]),
    ("bench.compaction", ["--matches=200"], ["--matches=10"]),
    ("bench.analysis", ["--matches=6", "--per-match=40"], ["--matches=3", "--per-match=12"]),
]


MEMORY_AFTER = (
    "Before compaction, 54-59% of the log's stored JSON is the three hex digests of the hash chain; the rest "
    "is JSON that zlib shrinks about tenfold. After it, a match keeps its meta (~1 KB), seed, audit cache and "
    "the compact log. Reading a whole compacted log cold (decompress, re-seal the chain) is no slower than reading "
    "the stream; a cold `view?at=` has no snapshot left and folds from the first event (about 4x slower), while "
    "a viewer stepping forward reuses the state `Matches` read last (0.3 ms per step against 6.3 ms without, "
    "a 404-event Arkon match).")
MEMORY_NOTE = (
    "`bench/compaction.py`: all-bot matches (random and greedy seats) of every game played through `Matches` "
    "with an Idempotency-Key per move, on a Redis from `deploy/redis.conf`; `MEMORY USAGE` of every key of each "
    "finished match (log stream, snapshots, meta, seed, audit cache) before and after compaction "
    "(`shared/eventstore/compaction.py`). Goal: at most 20 KB (20,480 bytes) at the median. `idem_p50_bytes`: the "
    "Idempotency-Key answers, which expire 24 h after each move (not compacted, not counted above).")


MOVE_COST_NOTE = (
    "`bench/move_cost.py` (issue #24): the stack as `make run` starts it (launcher, supervisord, `deploy/Procfile`) "
    "with the one-move counter game (`bench/counter_game.py`), its match store and its queue on two Redis servers "
    "from `deploy/redis.conf` (`appendonly yes`, `appendfsync always`; as `deploy/compose.yaml` deploys them). "
    "Counted per move cycle (machine-independent): Redis commands by type (`INFO commandstats` of each server) and "
    "`fsync`/`fdatasync` calls of the store Redis, the queue Redis and every other process of the stack "
    "(`strace -f` attached for the window); `background` is what the idle stack does by itself over the same "
    "time (consumers polling), and `net` the count less it; a window ends 1 s after its last move so that the "
    "consumers' share is in it. Redis fsyncs once per turn of its event loop that wrote, so writes of several "
    "processes in one turn share an fsync: the counts vary a little with load. Cycles: a person's `GET match` + `GET legal-moves` + `POST move` (Idempotency-Key); "
    "`GET turn` + `POST`; a bot move (random bots on the stack's workers); a finishing move, until it is scored.")
MOVE_TUNED_NOTE = (
    "The same moves against a trivial endpoint whose Redis client has the services' own connection options "
    "(`shared.redisoptions`: no greenlet switch in the pool's check before each command), on the first stack, "
    "interleaved the same way; shown beside the goal, not judged: the plain endpoint above pays a per-command "
    "cost under gevent that the services no longer do, so this ratio is the move path's own.")
MOVE_TIMING_NOTE = (
    "Moves per second through the API (precomputed `POST …/moves` with an Idempotency-Key, one match per client, "
    "each client waiting for its answer) against `bench/trivial_app.py` (one XADD) under the rules service's "
    "gunicorn settings (`-k gevent --workers 2`) on the same store Redis, the two loads alternating in slices "
    "of 0.5 s (trivial, moves, moves, trivial…) within each run so that the machine's spells of load weigh on "
    "both alike; `ratio`: the median of the runs' own ratios (`ratio_per_run`), the rates shown the median run's; "
    "`worker_cpu_ms_per_request`: the servers' gunicorn workers' CPU per request (`/proc`), and `cpu_ratio` the "
    "trivial endpoint's over the rules workers' (medians of the runs), which a shared machine's load moves far "
    "less than the rates; `client_cpu_ms_per_request`: the load's own CPU (one Python process with `requests`, "
    "on the same two cores: a move's longer answer, with its `RateLimit` and CORS fields, costs it more to read). "
    "Slow fsync: a second stack whose Redis servers have every `fsync`/`fdatasync` delayed (a cloud volume's 1-10 ms) "
    "by strace's own fault injection (`strace --seccomp-bpf -e inject=fdatasync,fsync:delay_exit=US`, "
    "`bench/syscalls.py`: no other system call of Redis is traced). Peer: boardgame.io's server "
    "(`bench/peer/`, pinned in its package-lock.json, installed by the benchmark into ~/.cache) with the same "
    "counter game, moves over socket.io, each client waiting for the update of its move, its runs interleaved "
    "with ours; it keeps its matches in memory and persists nothing (`ratio_ours_to_peer`: our durable moves/s "
    "over its in-memory ones, same clients).")


def _command(pid: int) -> str:
    """A process's command line, shortened, for saying what a benchmark left behind."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()[:120]
    except OSError:
        return "?"


def _top(counts: dict, n: int = 10) -> str:
    return ", ".join(f"{k} {v:g}" for k, v in list(counts.items())[:n]) if isinstance(counts, dict) else ""


def move_cost_section(rows: list[dict]) -> list[str]:
    """The document's section of ``bench.move_cost``."""
    cycles = [r for r in rows if r.get("bench") == "move_cost"]
    setup = next((r for r in rows if r.get("bench") == "move_cost_setup"), {})
    goals = next((r for r in rows if r.get("bench") == "move_cost_goals"), {}).get("goals", [])
    return [
        "## The move path: commands, fsyncs and moves per second per accepted move", MOVE_COST_NOTE, "",
        (f"Redis: `{setup.get('redis_conf', 'deploy/redis.conf')}`, appendonly {setup.get('appendonly', '?')}, "
         f"appendfsync {setup.get('appendfsync', '?')}."), "",
        table(cycles, ["cycle", "cycles", "store_commands_per_cycle", "store_commands_net_per_cycle",
                       "queue_commands_per_cycle",
                       "fsyncs_per_cycle.store", "fsyncs_per_cycle.queue", "fsyncs_per_cycle.other",
                       "fsyncs_per_cycle.all", "background_per_cycle.store_commands",
                       "background_per_cycle.fsyncs_all"]), "",
        "Commands per cycle by type (store; queue):", "",
        table([{"cycle": r["cycle"], "store": _top(r["store_commands_by_type"]),
                "queue": _top(r["queue_commands_by_type"])} for r in cycles], ["cycle", "store", "queue"]), "",
        MOVE_TIMING_NOTE, "",
        table([r for r in rows if r.get("bench") == "move_throughput"],
              ["redis", "clients", "moves.rps", "trivial_xadd.rps", "ratio", "ratio_per_run", "moves.p50_ms",
               "trivial_xadd.p50_ms",
               "moves.worker_cpu_ms_per_request", "trivial_xadd.worker_cpu_ms_per_request", "cpu_ratio",
               "moves.client_cpu_ms_per_request", "trivial_xadd.client_cpu_ms_per_request", "durability"]), "",
        MOVE_TUNED_NOTE, "",
        table([r for r in rows if r.get("bench") == "move_throughput_tuned_trivial"],
              ["clients", "moves.rps", "trivial_xadd.rps", "ratio", "ratio_per_run", "cpu_ratio"]), "",
        table([r for r in rows if r.get("bench") == "move_throughput_peer"],
              ["peer", "clients", "moves.rps", "moves.p50_ms", "ratio_ours_to_peer", "durability"]), "",
        ("Goals of issue #24 (worst row of each; fsyncs: every process of the stack in a human or a bot cycle — the "
         "finishing row adds the match's scoring and ratings and is shown above, not judged per move):"), "",
        table(goals, ["goal", "target", "measured", "pass"]),
    ]


class Interrupted(Exception):
    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def _seconds(t: float) -> str:
    return f"{t:.1f} s" if t < 120 else f"{int(t // 60)} min {t % 60:.0f} s"


def run(module: str, args: list[str], *, index: int = 1, count: int = 1, started: float | None = None) -> tuple[
        list[dict], int]:
    """Run one benchmark in a session of its own, echoing its JSON lines as they come; its rows
    and exit status. On ``Interrupted`` (raised by the signal handler) it is stopped first."""
    started = time.monotonic() if started is None else started
    t0 = time.monotonic()
    tag = f"[{index}/{count}] {module}"
    progress(f"{tag} {' '.join(args)}: started")
    rows: list[dict] = []
    with tempfile.TemporaryFile(mode="w+") as err:
        proc = subprocess.Popen([sys.executable, "-m", module, *args], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=err, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                                start_new_session=True, preexec_fn=children.signal_on_parent_death(signal.SIGINT))
        try:
            for line in proc.stdout:
                if line.startswith("{"):
                    print(line.rstrip("\n"), flush=True)
                    rows.append(json.loads(line))
            code = proc.wait()
        except Interrupted as why:
            progress(f"{tag}: interrupted ({why}) after {_seconds(time.monotonic() - t0)}; stopping it")
            stop(proc)
            raise
        finally:
            proc.stdout.close()
        elapsed, total = _seconds(time.monotonic() - t0), _seconds(time.monotonic() - started)
        if code == 0:
            progress(f"{tag}: done in {elapsed}, {len(rows)} results (run so far: {total})")
        else:
            err.seek(0)
            tail = err.read()[-3000:]
            progress(f"{tag}: FAILED (exit status {code}) after {elapsed} (run so far: {total}); its stderr ends:")
            print(tail, file=sys.stderr, flush=True)
    commands = {pid: _command(pid) for pid in children.settle()}  # what stopping takes a moment is not "left"
    left = children.stop_all(signal.SIGTERM, 5)
    if left:
        named = ", ".join(f"{pid} {commands.get(pid, '?')}" for pid in sorted(left))
        progress(f"{tag}: left {len(left)} processes running ({named}); stopped them")
    return rows, code


def stop(proc: subprocess.Popen) -> None:
    """Stop an interrupted benchmark and everything below this runner: SIGINT to the benchmark's
    process group, up to BENCH_GRACE_S for it to exit, then SIGTERM and SIGKILL for what is left."""
    try:
        os.killpg(proc.pid, signal.SIGINT)
    except ProcessLookupError:
        pass
    try:
        proc.wait(BENCH_GRACE_S)
    except subprocess.TimeoutExpired:
        progress(f"{proc.args[2]} did not stop within {BENCH_GRACE_S} s of SIGINT")
    rest = children.stop_all(signal.SIGTERM, 5, reaping=proc.poll() is not None)
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    if rest:
        progress(f"stopped {len(rest)} more processes it had left ({', '.join(map(str, sorted(rest)))})")


def table(rows: list[dict], columns: list[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        lines.append("| " + " | ".join(str(_get(r, c)) for c in columns) + " |")
    return "\n".join(lines)


def _get(row, dotted):
    for part in dotted.split("."):
        row = row.get(part, "") if isinstance(row, dict) else ""
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.run_all", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="shorter settings for every benchmark")
    ap.add_argument("--only", action="append", default=[], choices=[m for m, _a, _q in BENCHES], metavar="MODULE",
                    help="run only this benchmark (repeatable); the document is not rewritten unless --out is given")
    ap.add_argument("--out", type=Path, help=f"where to write the document (default {DOC.relative_to(ROOT)})")
    args = ap.parse_args(argv)
    quick = args.quick
    out = args.out or (None if args.only else DOC)
    chosen = [(m, q if quick else a) for m, a, q in BENCHES if not args.only or m in args.only]
    if not children.become_subreaper():
        progress("cannot become the child subreaper (not Linux?): only process groups are stopped")
    caught: list[int] = []

    def interrupt(signum, _frame):
        caught.append(signum)
        if len(caught) == 1:
            raise Interrupted(signum)
        progress(f"{signal.Signals(signum).name} again: already stopping")

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, interrupt)
    progress(f"{len(chosen)} benchmark{'s' if len(chosen) != 1 else ''}{' (quick)' if quick else ''}; "
             f"results to {out.relative_to(ROOT) if out and out.is_relative_to(ROOT) else out or 'standard output'}")
    started = time.monotonic()
    results: dict[str, list[dict]] = {m: [] for m, _a, _q in BENCHES}
    failed = []
    try:
        for i, (module, bench_args) in enumerate(chosen, 1):
            results[module], code = run(module, bench_args, index=i, count=len(chosen), started=started)
            if code != 0:
                failed.append(module)
    except Interrupted as why:
        children.stop_all(signal.SIGTERM, 5)
        progress(f"interrupted ({why}) after {_seconds(time.monotonic() - started)}: nothing written, "
                 "no process left running")
        return 128 + why.signum
    progress(f"all done in {_seconds(time.monotonic() - started)}"
             + (f"; FAILED: {', '.join(failed)}" if failed else ""))
    if out is None:
        return 1 if failed else 0
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    doc = [
        "# Benchmarks", "",
        f"Latest run: {stamp}{' (quick)' if quick else ''}, `make bench` on a 2-core machine. "
        "Each benchmark has a baseline measured in the same run; compare ratios, not absolute numbers.", "",
        "## Engine: random self-play moves per second",
        "The simulation path search bots use (legal_moves + advance in place; goal 20,000 moves/s for every "
        "game), median of runs; baseline: the contract's pure path (legal_moves + decide + evolve per event) "
        "over the same playouts.", "",
        table(results["bench.engine_selfplay"], ["game", "players", "advance_moves_per_s", "pure_moves_per_s", "ratio"]),
        "", "## Replay and snapshots", "",
        table([r for r in results["bench.replay"] if r["bench"] == "replay_fold"],
              ["game", "events", "events_per_s", "baseline_fold_inplace_events_per_s", "ratio"]), "",
        "Current-view latency (ms) of a 5,000-event match against a 10-event match (snapshots every 50 events):", "",
        table([r for r in results["bench.replay"] if r["bench"] == "view_latency"],
              ["cache", "long_events", "long_p50_ms", "short_p50_ms", "long_p99_ms", "short_p99_ms", "ratio_p50"]),
        "", "## API: POST a move through gunicorn against Redis",
        "Against a Redis from `deploy/redis.conf` (`appendfsync always`, as the product runs). Baseline: a trivial "
        "Flask endpoint doing one XADD, same gunicorn settings, same client threads.", "",
        table(results["bench.api_throughput"], ["game", "threads", "redis", "moves.rps", "moves.p50_ms", "moves.p99_ms",
                                                "trivial_xadd.rps", "trivial_xadd.p50_ms", "trivial_xadd.p99_ms",
                                                "throughput_ratio"]),
        "", *move_cost_section(results["bench.move_cost"]),
        "", "## Queue pairing with 1,000 waiting players",
        "Baseline: seating tickets in arrival order.", "",
        table(results["bench.queue_pairing"], ["players_per_match", "rating_aware.tickets_per_s",
                                               "rating_aware.mean_rating_gap", "baseline_arrival_order.tickets_per_s",
                                               "baseline_arrival_order.mean_rating_gap", "gap_ratio"]),
        "", "## Durability: appendfsync always against everysec",
        "Moves per second through `Matches.submit` (the rules service's write path, no HTTP) against a Redis "
        "started from `deploy/redis.conf`; baseline: the same server with `appendfsync everysec`. With "
        "`always` a move answered 201 is on disk; concurrent writers share an fsync.", "",
        table(results["bench.appendfsync"], ["threads", "always_moves_per_s", "everysec_moves_per_s", "ratio"]),
        "", "## Redis Cluster: three masters against one server",
        "The same move loop against a three-master cluster on this machine (`shared/localcluster.py`, "
        "`appendfsync always`); baseline: one server from `deploy/redis.conf`. See docs/cluster.md.", "",
        table(results["bench.cluster_store"], ["threads", "masters", "cluster_moves_per_s", "single_moves_per_s",
                                               "ratio"]),
        "", "## Live streams: POST a move with 1,000 watchers of the match being played",
        "One gunicorn gevent worker; one client plays a whole Arkon match a move at a time while 1,000 streams "
        "watch that match (90% spectators on its event stream, 10% its seats on their event and state streams). "
        "Baseline: matches played the same way with no watcher (before and after, pooled). Goal: p99 with "
        "watchers at most 1.5x the baseline.", "",
        table(results["bench.sse_watchers"], ["watchers", "rounds", "moves_per_phase", "baseline_p50_ms",
                                              "with_watchers_p50_ms", "baseline_p99_ms", "with_watchers_p99_ms",
                                              "p50_ratio", "p99_ratio", "cpu_per_move_ratio",
                                              "worker_rss_mb.without", "worker_rss_mb.with"]),
        "", "## Held per-player streams: POST /v1/players with 1,000 idle streams on one matchmaking process",
        "One gunicorn gevent worker; baseline: the same registrations with no stream held (before and after, "
        "pooled). Goal: p99 with the streams at most 1.5x the baseline, every stream accepted, /readyz 200.", "",
        table(results["bench.player_streams"], ["streams", "streams_accepted", "threads", "baseline_p50_ms",
                                                "with_streams.p50_ms", "baseline_p99_ms", "with_streams.p99_ms",
                                                "p99_ratio", "readyz_while_held", "worker_rss_mb.without",
                                                "worker_rss_mb.with"]),
        "", "## Bot fleet: bot moves per second through the whole stack with N bot workers",
        "All-bot Arkon matches (8 at once) through gunicorn services and a Redis from `deploy/redis.conf`; "
        "N `SimpleWorker` processes holding no signing key; CPU ms per move of each kind of process.", "",
        table([r for r in results["bench.bot_fleet"] if r["bench"] == "bot_fleet"],
              ["level", "workers", "moves_per_s", "cpu_ms_per_move.workers", "cpu_ms_per_move.rules",
               "cpu_ms_per_move.redis"]), "",
        table([r for r in results["bench.bot_fleet"] if r["bench"] == "bot_fleet_scaling"],
              ["level", "ratio_2_to_1", "rules_cpu_bot_to_human"]), "",
        "Baseline for the rules service's cost: people playing the same game (each move is the mover's view, "
        "legal moves and POST); goal: a bot move costs the rules service at most twice a human move.", "",
        table([r for r in results["bench.bot_fleet"] if r["bench"] == "bot_fleet_human_baseline"],
              ["matches", "moves_per_s", "requests_per_move", "rules_cpu_ms_per_move"]),
        "", "## Prometheus metrics: what they cost a request",
        "A trivial Flask endpoint with `shared.metrics.install` (a counter and a histogram per request in "
        "prometheus-client's multiprocess files, as under gunicorn); baseline: the same endpoint without it.", "",
        table(results["bench.metrics_overhead"], ["requests", "baseline_us_per_request", "with_metrics_us_per_request",
                                                  "overhead_us_per_request", "ratio", "scrape_ms"]),
        "", "## Memory per finished match", MEMORY_NOTE, "",
        table(results["bench.compaction"], ["game", "matches", "events_p50", "events_p90", "before_p50_bytes",
                                            "before_p90_bytes", "after_p50_bytes", "after_p90_bytes", "ratio_p50",
                                            "meets_goal", "idem_p50_bytes"]), "",
        "Where the bytes were before compaction (medians) and what reading a whole log costs:", "",
        table(results["bench.compaction"], ["game", "before_p50_parts.log", "before_p50_parts.snaps",
                                            "before_p50_parts.meta", "before_p50_parts.audit",
                                            "digest_share_of_log_json", "after_packed_p50_bytes",
                                            "read_whole_log_p50_ms.stream", "read_whole_log_p50_ms.compacted_cold",
                                            "view_at_middle_p50_ms.stream_and_snapshots",
                                            "view_at_middle_p50_ms.compacted_cold"]),
        "", MEMORY_AFTER, "", "## Raw results", "", "```",
        *[json.dumps(r) for rows in results.values() for r in rows], "```", "",
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(doc))
    progress(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
