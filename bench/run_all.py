"""Run every benchmark and write ``docs/benchmarks.md`` (JSON lines are also echoed).

``python -m bench.run_all [--quick]``. Each benchmark compares against a baseline measured in the
same run, because these machines are noisy: read the ratios, not the absolute numbers.
"""
from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BENCHES = [
    ("bench.engine_selfplay", ["--seconds=3", "--runs=3"], ["--seconds=1", "--runs=1"]),
    ("bench.replay", ["--runs=5", "--reads=200"], ["--runs=2", "--reads=30"]),
    ("bench.api_throughput", ["--seconds=10", "--threads=8"], ["--seconds=3", "--threads=4"]),
    ("bench.queue_pairing", ["--players=1000"], ["--players=200"]),
    ("bench.appendfsync", ["--seconds=5", "--runs=3"], ["--seconds=2", "--runs=1"]),
    ("bench.cluster_store", ["--seconds=5", "--runs=3"], ["--seconds=2", "--runs=1"]),
    ("bench.bot_fleet", ["--seconds=20", "--matches=8"], ["--seconds=8", "--matches=4"]),
    ("bench.sse_watchers", ["--watchers=1000", "--seconds=10", "--threads=4"],
     ["--watchers=200", "--seconds=3", "--threads=2"]),
    ("bench.metrics_overhead", ["--requests=5000", "--runs=7"], ["--requests=1000", "--runs=3"]),
    ("bench.compaction", ["--matches=200"], ["--matches=10"]),
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


def run(module: str, args: list[str]) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    rows = []
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            print(line, flush=True)
            rows.append(json.loads(line))
    if out.returncode != 0:
        print(out.stderr[-3000:], file=sys.stderr)
    return rows


def table(rows: list[dict], columns: list[str]) -> str:
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        lines.append("| " + " | ".join(str(_get(r, c)) for c in columns) + " |")
    return "\n".join(lines)


def _get(row, dotted):
    for part in dotted.split("."):
        row = row.get(part, "") if isinstance(row, dict) else ""
    return row


def main() -> None:
    quick = "--quick" in sys.argv
    results = {m: run(m, quick_args if quick else args) for m, args, quick_args in BENCHES}
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
        "Baseline: a trivial Flask endpoint doing one XADD, same gunicorn settings, same client threads.", "",
        table(results["bench.api_throughput"], ["game", "threads", "moves.rps", "moves.p50_ms", "moves.p99_ms",
                                                "trivial_xadd.rps", "trivial_xadd.p50_ms", "trivial_xadd.p99_ms",
                                                "throughput_ratio"]),
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
        "", "## Live streams: POST a move with 1,000 idle SSE watchers on the same rules process",
        "One gunicorn gevent worker; baseline: the same load with no watcher (before and after, pooled). "
        "Goal: p99 with watchers at most 1.5x the baseline.", "",
        table(results["bench.sse_watchers"], ["watchers", "threads", "baseline_p50_ms", "with_watchers.p50_ms",
                                              "baseline_p99_ms", "with_watchers.p99_ms", "p99_ratio",
                                              "cpu_per_move_ratio", "watchers_open_after_load",
                                              "worker_rss_mb.without", "worker_rss_mb.with"]),
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
    (ROOT / "docs").mkdir(exist_ok=True)
    (ROOT / "docs/benchmarks.md").write_text("\n".join(doc))
    print("wrote docs/benchmarks.md")


if __name__ == "__main__":
    main()
