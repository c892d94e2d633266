"""What an accepted move costs: Redis commands and fsyncs per move cycle, and moves per second
through the API against a trivial endpoint and against boardgame.io (issue #24).

``python -m bench.move_cost [--cycles=N] [--seconds=S] [--runs=R] [--fsync-delay-ms=D]``.

The stack runs as ``make run`` runs it (the launcher, supervisord, ``deploy/Procfile``: three
gunicorn services, the consumers, two bot workers) with ``GAME_MODULES=bench.counter_game`` (the
one-move counter game, ``bench/counter_game.py``), against two Redis servers: the match store
(``REDIS_URL``) from ``deploy/redis.conf`` and the queues (``QUEUE_REDIS_URL``) from
``deploy/redis-queue.conf`` (their ``appendonly`` and ``appendfsync`` are printed), as
``make run`` and ``deploy/compose.yaml`` run them; apart, the store's own commands can be told
from the queue's. The per-token write limit is raised so that the load is measured, not throttled (the
limiter still runs).

Counted per move cycle (machine-independent):

* ``human_match_legal_post``: the mover's ``GET /v1/matches/{id}``, ``GET …/legal-moves`` and
  ``POST …/moves`` with an Idempotency-Key, in a match of two people;
* ``human_turn_post``: ``GET …/turn`` (view and legal moves in one answer) and the POST;
* ``bot``: a move of an all-bot match (random bots on the stack's bot workers), counted over a
  window of moves (its edges may cut one move);
* ``finishing``: the last human cycle of a match and everything that follows until the match is
  scored (the finished-match message, scoring, ratings, the index).

Each: Redis commands by type on the store and on the queue Redis (``INFO commandstats``
before and after, the benchmark's own ``INFO`` taken out), and ``fsync``/``fdatasync`` calls of
the store Redis, of the queue Redis and of every other process of the stack (``strace -f``
attached for the window, ``bench/syscalls.py``). What the idle stack does by itself over the same
time (consumers polling) is measured first and printed beside each row as ``background_per_cycle``;
``store_commands_net_per_cycle`` is the count less that background. A human window ends ``SETTLE_S``
after its last move, so that what the consumers do for its moves is in it. Redis fsyncs once per
turn of its event loop that wrote (a group commit), so writes of several processes that land in the
same turn share one: the fsync counts vary a little with the machine's load (take the median of runs).

Timed (ratios against baselines in the same run; medians of ``--runs``):

* moves per second through the API (precomputed ``POST …/moves`` with an Idempotency-Key, one
  match per client, 1 and 8 clients) against ``bench/trivial_app.py`` (one XADD) under the rules
  service's gunicorn settings, on the same store Redis, the two loads alternating in slices of
  ``SLICE_S`` (trivial, moves, moves, trivial…: a shared machine's spells of load last seconds, and
  whole runs of one load after the other measured them more than the code), the ratio of each run
  its moves' rate over its trivial rate, the row's the median of the runs'; beside each rate, the servers' worker CPU
  per request (``/proc``) and ``cpu_ratio``, the trivial endpoint's over the rules workers' — what
  the load of a shared machine moves far less than it moves the rates;
* the same against a trivial endpoint whose Redis client has the services' own connection options
  (``shared.redisoptions``; ``move_throughput_tuned_trivial``, beside the goal, not judged): the
  plain endpoint pays a per-command cost under gevent that the services no longer do;
* the same on a second stack whose Redis servers' every fsync is delayed by ``--fsync-delay-ms``
  (a cloud volume's 1-10 ms), by strace's own fault injection (``bench/syscalls.py``);
* boardgame.io's server (``bench/peer.py``, in-memory, nothing persisted) with the same counter
  game, moves over socket.io, each client waiting for the update of its move; its runs are
  interleaved with the first stack's, so that the machine's load weighs on both alike.

Goals (issue #24) are printed with pass/fail in the last line (``bench: move_cost_goals``).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import redis
import requests

from shared import localredis
from shared.auth import DEFAULT_GENERATION_CACHE_S
from tabletop_client import Tabletop
from tabletop_client.errors import ApiProblem
from tests.support.stack import ROOT, start_stack

from . import children, peer
from .common import argv_int, durability, emit, median, percentile
from .syscalls import SyncCounter, slow_fsync_binary

CONF = ROOT / "deploy" / "redis.conf"
QUEUE_CONF = ROOT / "deploy" / "redis-queue.conf"
GAME = "counter"
# the rules service's gunicorn settings in deploy/Procfile, for the trivial endpoint too
RULES_GUNICORN = ("-k", "gevent", "--workers", "2")
STACK_ENV = dict(GAME_MODULES="bench.counter_game", RATE_LIMIT_WRITES_PER_TOKEN="100000000/minute",
                 RATE_LIMIT_WRITES_PER_ADDRESS="100000000/minute", BOT_RETRY_AFTER_S="3600",
                 SEARCH_ITERATIONS="25", SSE_KEEPALIVE_S="15",
                 # as deployed (the test stack reads the generation for every request)
                 TOKEN_GENERATION_CACHE_S=str(DEFAULT_GENERATION_CACHE_S))
SETTLE_S = 1.0  # a counting window ends this long after its last move (the consumers' share)
SLICE_S = 0.5   # the throughput loads alternate in slices this long (``interleaved``)
GOALS = {
    "store_commands_per_human_cycle": ("<=", 12),
    "fsyncs_per_accepted_move_whole_stack": ("<=", 3),
    "throughput_vs_trivial": (">=", 0.8),
    "throughput_vs_boardgameio": (">=", 0.1),
    "slow_fsync_throughput_vs_trivial": (">=", 0.5),
}


def argv_float(name: str, default: float) -> float:
    for arg in sys.argv[1:]:
        if arg.startswith(f"--{name}="):
            return float(arg.split("=", 1)[1])
    return default


# ----- the stack ----------------------------------------------------------------------------------
class Stack:
    """Store and queue Redis from deploy/redis.conf and deploy/redis-queue.conf (optionally with slow
    fsyncs) and the stack."""

    def __init__(self, work: Path, fsync_delay_us: int = 0):
        self.work = work
        work.mkdir(parents=True, exist_ok=True)
        binary = None
        if fsync_delay_us:
            binary = str(slow_fsync_binary(localredis.redis_binary(), fsync_delay_us, work))
        self.store = localredis.start(work / "store", persistent=True, config=CONF, binary=binary)
        self.queue = localredis.start(work / "queue", persistent=True, config=QUEUE_CONF, binary=binary)
        self.stack = start_stack(self.store.url, work, QUEUE_REDIS_URL=self.queue.url, **STACK_ENV)
        self.store_r = redis.Redis.from_url(self.store.url)
        self.queue_r = redis.Redis.from_url(self.queue.url)

    def redis_pid(self, server: localredis.LocalRedis) -> int:
        """The redis-server's own pid (below strace's wrapper when fsyncs are slowed)."""
        below = children.descendants(server.process.pid)
        return next((p for p in below if b"redis-server" in Path(f"/proc/{p}/cmdline").read_bytes()),
                    server.process.pid)

    def groups(self) -> dict[str, list[int]]:
        """pids to trace: each Redis, and every other process of the stack — the launcher's whole
        tree (gunicorn and RQ write their process titles over their environment, so ``STACK_ID``
        alone misses them) and whatever else carries the stack's ``STACK_ID``."""
        store, queue = self.redis_pid(self.store), self.redis_pid(self.queue)
        launcher = self.stack.process.pid
        stack = set(children.descendants(launcher)) | {launcher} | self.stack.pids()
        return {"store": [store], "queue": [queue], "other": sorted(stack - {store, queue})}

    def rules_workers(self) -> list[int]:
        """The rules service's gunicorn workers: processes of the stack running its app whose parent
        (the gunicorn master) runs it too (gunicorn titles them ``gunicorn: worker [<app>]``)."""
        out = []
        for pid in children.descendants(self.stack.process.pid):
            try:
                parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
                if "services.rules.app" in _cmdline(pid) and "services.rules.app" in _cmdline(parent):
                    out.append(pid)
            except (OSError, ValueError, IndexError):
                continue
        return sorted(out)

    def stop(self) -> None:
        try:
            self.stack.stop()
        finally:
            for server in (self.store, self.queue):
                below = list(children.descendants(server.process.pid))
                server.stop()
                for pid in below:
                    try:
                        os.kill(pid, 15)
                    except ProcessLookupError:
                        pass


def _cmdline(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


def commandstats(client: redis.Redis) -> Counter:
    return Counter({k.removeprefix("cmdstat_"): v["calls"] for k, v in client.info("commandstats").items()})


class Window:
    """Commands by type on both Redis servers and syncs of every process, between enter and exit."""

    def __init__(self, stack: Stack):
        self.stack = stack

    def __enter__(self) -> Window:
        self.sync = SyncCounter(self.stack.groups(), self.stack.work / "strace").__enter__()
        self.before = (commandstats(self.stack.store_r), commandstats(self.stack.queue_r))
        self.t0 = time.monotonic()
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = time.monotonic() - self.t0
        after = (commandstats(self.stack.store_r), commandstats(self.stack.queue_r))
        self.sync.__exit__(*exc)
        self.store, self.queue = (a - b for a, b in zip(after, self.before))
        for c in (self.store, self.queue):
            c["info"] -= 1  # the "before" INFO of this window
            if c["info"] <= 0:
                del c["info"]


def per(counter: Counter, n: float) -> dict:
    return {k: round(v / n, 2) for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))}


def row(cycle: str, w: Window, cycles: float, background: dict, **extra) -> dict:
    syncs = {g: round(w.sync.total(g) / cycles, 2) for g in ("store", "queue", "other")}
    syncs["all"] = round(sum(w.sync.total(g) for g in ("store", "queue", "other")) / cycles, 2)
    return dict(
        bench="move_cost", cycle=cycle, cycles=cycles, window_s=round(w.seconds, 2),
        store_commands_per_cycle=round(sum(w.store.values()) / cycles, 2),
        store_commands_net_per_cycle=round((sum(w.store.values()) - background["store_commands"] * w.seconds) / cycles, 2),
        store_commands_by_type=per(w.store, cycles),
        queue_commands_per_cycle=round(sum(w.queue.values()) / cycles, 2), queue_commands_by_type=per(w.queue, cycles),
        fsyncs_per_cycle=syncs, sync_calls_by_group={g: dict(c) for g, c in w.sync.counts.items() if c},
        processes_traced={g: len(p) for g, p in w.sync.groups.items()},
        background_per_cycle={k: round(v * w.seconds / cycles, 2) for k, v in background.items()}, **extra)


# ----- counting -----------------------------------------------------------------------------------
def human_match(stack: Stack, target: int) -> tuple[str, list[Tabletop]]:
    """A match of the counter game between two people who accepted it: its id and their clients."""
    host, guest = stack.stack.api(), stack.stack.api()
    a = host.register(f"bench-{uuid.uuid4().hex[:10]}")
    b = guest.register(f"bench-{uuid.uuid4().hex[:10]}")
    table = host.create_table(GAME, [{"player_id": a.player_id}, {"player_id": b.player_id}], {"target": target})
    match_id = guest.join_table(table["table_id"])["match_id"]
    return match_id, [host, guest]


def human_cycle_exact(clients: list[Tabletop], match_id: str, style: str, state: dict) -> dict:
    """One move cycle of exactly the mover's requests: ``state["seat"]`` is whose turn it is."""
    client = clients[state["seat"]]
    if style == "match_legal_post":
        client.match(match_id)
        legal = client.legal_moves(match_id)
        done = client.move(match_id, legal["moves"][0], legal["version"])
    else:
        turn = client.turn(match_id)
        done = client.move(match_id, turn["moves"][0], turn["version"])
    state["seat"] = 1 - state["seat"]
    return done


def count_humans(stack: Stack, style: str, cycles: int, background: dict) -> dict:
    match_id, clients = human_match(stack, target=cycles + 10)
    state = {"seat": 0}
    for _ in range(3):  # warm: the match is in the rules workers' caches, as in a match under way
        human_cycle_exact(clients, match_id, style, state)
    time.sleep(1)
    with Window(stack) as w:
        for _ in range(cycles):
            human_cycle_exact(clients, match_id, style, state)
        time.sleep(SETTLE_S)  # what the consumers do for these moves counts too
    return row(f"human_{style}", w, cycles, background, requests_per_cycle=3 if style == "match_legal_post" else 2)


def count_bots(stack: Stack, moves: int, background: dict) -> dict:
    host = stack.stack.api()
    host.register(f"bench-{uuid.uuid4().hex[:10]}")
    match_id = host.create_table(GAME, [{"bot": "random"}, {"bot": "random"}], {"target": moves + 40})["match_id"]
    wait_until(lambda: host.match(match_id)["version"] >= 6, 60, "the bots to start")
    with Window(stack) as w:
        v0 = host.match(match_id)["version"]
        wait_until(lambda: host.match(match_id)["version"] >= v0 + moves, 300, "the bot moves")
        v1 = host.match(match_id)["version"]
    done = v1 - v0  # one event per move
    wait_until(lambda: host.match(match_id)["status"] == "finished", 300, "the bot match to end")
    return row("bot", w, done, background, requests_per_cycle=None)


def count_finishing(stack: Stack, matches: int, background: dict) -> dict:
    total = None
    for _ in range(matches):
        match_id, clients = human_match(stack, target=4)
        state = {"seat": 0}
        for _ in range(3):
            human_cycle_exact(clients, match_id, "match_legal_post", state)
        time.sleep(1)
        w = Window(stack)
        with w:
            human_cycle_exact(clients, match_id, "match_legal_post", state)
            wait_until(lambda c=clients[0], m=match_id: _scored(c, m), 60, "the match to be scored")
            time.sleep(SETTLE_S)  # what follows the score (ratings to matchmaking, the index)
        if total is None:
            total = w
        else:
            total.store += w.store
            total.queue += w.queue
            total.seconds += w.seconds
            for g, c in w.sync.counts.items():
                total.sync.counts.setdefault(g, Counter()).update(c)
    return row("finishing", total, matches, background, requests_per_cycle=3,
               note=f"until the match is scored, then {SETTLE_S:g} s more")


def _scored(client: Tabletop, match_id: str) -> bool:
    try:
        client.result(match_id)
        return True
    except ApiProblem as problem:  # 404 until scored
        if problem.status != 404:
            raise
        return False


def measure_background(stack: Stack, seconds: float) -> dict:
    time.sleep(1)
    with Window(stack) as w:
        time.sleep(seconds)
    out = {"store_commands": sum(w.store.values()) / w.seconds, "queue_commands": sum(w.queue.values()) / w.seconds,
           "fsyncs_all": sum(w.sync.total(g) for g in ("store", "queue", "other")) / w.seconds}
    emit(bench="move_cost_background", seconds=round(w.seconds, 2),
         **{f"{k}_per_s": round(v, 2) for k, v in out.items()},
         store_commands_by_type_per_s=per(w.store, w.seconds), queue_commands_by_type_per_s=per(w.queue, w.seconds))
    return out


def wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.02)


# ----- timing -------------------------------------------------------------------------------------
def start_trivial(stack: Stack, tuned: bool = False) -> tuple[subprocess.Popen, str]:
    """The trivial endpoint (``bench/trivial_app.py``) on the stack's store; ``tuned``: its Redis
    client with the services' connection options rather than redis-py's defaults."""
    port = localredis.free_port()
    env = dict(os.environ, REDIS_URL=stack.store.url, PYTHONPATH=str(ROOT),
               TRIVIAL_REDIS_OPTIONS="project" if tuned else "")
    with open(stack.work / "trivial.log", "a") as log:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.py", *RULES_GUNICORN,
                                 "-b", f"127.0.0.1:{port}", "bench.trivial_app:create_app()"], cwd=ROOT, env=env,
                                stdout=log, stderr=log, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    wait_until(lambda: _answers(f"{url}/healthz"), 60, "the trivial endpoint")
    return proc, url


def _answers(url: str) -> bool:
    try:
        requests.get(url, timeout=1)
        return True
    except requests.RequestException:
        return False


def plans(stack: Stack, clients: int) -> list[dict]:
    """One long counter match per client: its URL and both players' tokens."""
    out = []
    for _ in range(clients):
        match_id, (a, b) = human_match(stack, target=10_000_000)
        out.append({"url": f"{stack.stack.rules}/v1/matches/{match_id}/moves", "tokens": [a.token, b.token],
                    "version": a.match(match_id)["version"], "count": 0})
    return out


def load(plan: list[dict], seconds: float, trivial_url: str | None, pids: list[int] = ()) -> dict:
    """Each client posts the next move of its match (or the same body to the trivial endpoint)
    and waits for the answer, for ``seconds``; with ``pids`` (the server's workers) also their CPU
    per request, which the machine's load does not change as much as the rates."""
    return _summary([_drive(plan, seconds, trivial_url, pids)], bool(pids))


def interleaved(plan: list[dict], seconds: float, trivial_url: str, trivial_pids: list[int],
                rules_pids: list[int], slice_s: float | None = None) -> tuple[dict, dict]:
    """``load`` of the moves and of the trivial endpoint for ``seconds`` each, in alternating
    slices of ``slice_s`` (``SLICE_S``) in the order trivial, moves, moves, trivial, … so that a
    spell of the machine's load of a second or more weighs on both alike; (moves, trivial), each
    summed over its slices."""
    slice_s = slice_s or SLICE_S
    pairs = max(1, round(seconds / slice_s))
    moves, trivial = [], []
    for i in range(pairs):
        order = [(trivial, trivial_url, trivial_pids), (moves, None, rules_pids)]
        for out, url, pids in (order if i % 2 == 0 else order[::-1]):
            out.append(_drive(plan, seconds / pairs, url, pids))
    return _summary(moves, True), _summary(trivial, True)


def _drive(plan: list[dict], seconds: float, trivial_url: str | None, pids) -> dict:
    """One stretch of the load: every request's latency, the non-201 answers, the time taken and
    the workers' CPU over it."""
    cpu0 = children.cpu_ms(pids) if pids else 0.0
    client0 = time.process_time()
    latencies, errors = [], [0]
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def client(p: dict) -> None:
        # each client keeps one connection per server across the stretches, as a player's does
        http = p.setdefault("sessions", {}).setdefault(trivial_url or "moves", requests.Session())
        mine, bad = [], 0
        while time.perf_counter() < stop:
            body = {"move": {"type": "add"}, "expected_version": p["version"]}
            headers = {"Authorization": f"Bearer {p['tokens'][p['count'] % 2]}", "Idempotency-Key": uuid.uuid4().hex}
            t0 = time.perf_counter()
            r = http.post(trivial_url or p["url"], json=body, headers=headers, timeout=60)
            mine.append((time.perf_counter() - t0) * 1000)
            answer = r.json()  # both answers read, as a client reads them
            if r.status_code != 201:
                bad += 1
            elif trivial_url is None:
                p["version"], p["count"] = answer["version"], p["count"] + 1
        with lock:
            latencies.extend(mine)
            errors[0] += bad

    t0 = time.perf_counter()
    threads = [threading.Thread(target=client, args=(p,)) for p in plan]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"latencies": latencies, "errors": errors[0], "elapsed": time.perf_counter() - t0,
            "cpu_ms": children.cpu_ms(pids) - cpu0 if pids else 0.0,
            "client_cpu_ms": (time.process_time() - client0) * 1000}


def _summary(stretches: list[dict], with_cpu: bool) -> dict:
    latencies = [x for s in stretches for x in s["latencies"]]
    requests_made = len(latencies)
    out = {"requests": requests_made, "errors": sum(s["errors"] for s in stretches),
           "rps": round(requests_made / sum(s["elapsed"] for s in stretches), 1),
           "p50_ms": round(median(latencies), 2), "p99_ms": round(percentile(latencies, 99), 2)}
    if with_cpu:
        out["worker_cpu_ms_per_request"] = round(sum(s["cpu_ms"] for s in stretches) / max(1, requests_made), 3)
    if all("client_cpu_ms" in s for s in stretches):  # the load's own CPU: it shares the machine's two cores
        client_ms = sum(s["client_cpu_ms"] for s in stretches)
        out["client_cpu_ms_per_request"] = round(client_ms / max(1, requests_made), 3)
    return out


def _against_trivial(stack: Stack, seconds: float, runs: int, *, tuned: bool = False,
                     peer_at: tuple[Path, str] | None = None) -> Iterator[tuple[int, list, list, list]]:
    """For 1 and 8 clients, ``runs`` interleaved loads of moves and of the trivial endpoint (started
    here, ``tuned`` or not, and stopped after): (clients, the moves' runs, the trivial's runs, the
    peer's runs — one after each of ours with ``peer_at``, so that the machine's load of the moment
    weighs on all three alike)."""
    trivial, trivial_url = start_trivial(stack, tuned)
    trivial_workers, rules_workers = list(children.descendants(trivial.pid)), stack.rules_workers()
    try:
        for clients in (1, 8):
            plan = plans(stack, clients)
            moves, triv, peers = [], [], []
            for _ in range(runs):  # interleaved, so that a slower spell of the machine hits each
                m, t = interleaved(plan, seconds, f"{trivial_url}/xadd", trivial_workers, rules_workers)
                moves.append(m)
                triv.append(t)
                if peer_at:
                    peers.append(peer.load(*peer_at, clients, seconds))
            yield clients, moves, triv, peers
    finally:
        os.killpg(trivial.pid, 15)
        trivial.wait(30)


def throughput(stack: Stack, redis_note: str, seconds: float, runs: int,
               peer_at: tuple[Path, str] | None = None) -> tuple[list[dict], list[dict]]:
    """Rows of moves/s against the trivial endpoint at 1 and 8 clients; with ``peer_at`` (the
    boardgame.io install and server URL) the peer's rows too."""
    rows, peer_rows = [], []
    for clients, moves, triv, peers in _against_trivial(stack, seconds, runs, peer_at=peer_at):
        m = _median_run(moves)
        rows.append(emit(bench="move_throughput", redis=redis_note, clients=clients, runs=runs, seconds=seconds,
                         slice_s=SLICE_S, moves=m, trivial_xadd=_median_run(triv), **_ratios(moves, triv),
                         durability="each 201 on disk before the answer (appendfsync always)"))
        if peers:
            p = _median_run(peers)
            peer_rows.append(emit(bench="move_throughput_peer", peer=f"boardgame.io {peer.version()}",
                                  clients=clients, runs=runs, seconds=seconds, moves=p,
                                  ratio_ours_to_peer=round(m["rps"] / max(p["rps"], 1e-9), 3),
                                  durability="in memory (boardgame.io's InMemory storage): nothing persisted"))
    return rows, peer_rows


def tuned_baseline(stack: Stack, seconds: float, runs: int) -> list[dict]:
    """Rows of moves/s against a trivial endpoint whose Redis client has the services' own
    connection options (``shared.redisoptions``): how much of the ratio is the move path's own
    and how much a per-command cost the plain endpoint pays (shown beside the goal, not judged)."""
    return [emit(bench="move_throughput_tuned_trivial", clients=clients, runs=runs, seconds=seconds,
                 moves=_median_run(moves), trivial_xadd=_median_run(triv), **_ratios(moves, triv),
                 trivial_redis_options="shared.redisoptions.connection_options()")
            for clients, moves, triv, _ in _against_trivial(stack, seconds, runs, tuned=True)]


def _ratios(moves: list[dict], trivial: list[dict]) -> dict:
    """Each run's moves/s over its own trivial rate, their median and the CPU ratio."""
    ratios = [a["rps"] / max(b["rps"], 1e-9) for a, b in zip(moves, trivial)]
    return {"ratio": round(median(ratios), 3), "ratio_per_run": [round(x, 3) for x in ratios],
            "cpu_ratio": _cpu_ratio(moves, trivial)}


def _cpu_ratio(moves: list[dict], trivial: list[dict]) -> float | None:
    """The trivial endpoint's worker CPU per request over the rules workers' (medians of the runs):
    the two servers' own share of the difference (the store's Redis, the consumers and the load's
    client, which share the machine, are not in it)."""
    m = [r["worker_cpu_ms_per_request"] for r in moves if "worker_cpu_ms_per_request" in r]
    t = [r["worker_cpu_ms_per_request"] for r in trivial if "worker_cpu_ms_per_request" in r]
    return round(median(t) / median(m), 3) if m and t and median(m) > 0 else None


def _median_run(runs: list[dict]) -> dict:
    return sorted(runs, key=lambda r: r["rps"])[len(runs) // 2]


# ----- goals --------------------------------------------------------------------------------------
def goals(counted: dict[str, dict], fast: list[dict], slow: list[dict], peers: list[dict]) -> dict:
    human = max(counted[c]["store_commands_net_per_cycle"] for c in ("human_match_legal_post", "human_turn_post"))
    fsyncs = max(counted[c]["fsyncs_per_cycle"]["all"] for c in ("human_match_legal_post", "human_turn_post", "bot"))
    measured = {
        "store_commands_per_human_cycle": human,
        "fsyncs_per_accepted_move_whole_stack": fsyncs,
        "throughput_vs_trivial": min(r["ratio"] for r in fast),
        "throughput_vs_boardgameio": min(r["ratio_ours_to_peer"] for r in peers) if peers else None,
        "slow_fsync_throughput_vs_trivial": min(r["ratio"] for r in slow) if slow else None,
    }
    out = []
    for name, (op, limit) in GOALS.items():
        value = measured[name]
        ok = None if value is None else (value <= limit if op == "<=" else value >= limit)
        out.append({"goal": name, "target": f"{op} {limit}", "measured": None if value is None else round(value, 3),
                    "pass": ok})
    return emit(bench="move_cost_goals", goals=out, passed=sum(1 for g in out if g["pass"]), of=len(out),
                note="worst row of each: store commands of either human cycle (net: less the idle stack's "
                     "background over the window's time); fsyncs of every process of the stack "
                     "in a human or a bot cycle (the finishing row, which adds the match's scoring and ratings, is "
                     "shown beside them, not judged per move); ratios at 1 and 8 clients, durable (appendfsync "
                     "always) against boardgame.io in memory; within 2x of trivial = ratio >= 0.5")


def main() -> None:
    cycles, seconds, runs = argv_int("cycles", 40), argv_float("seconds", 5), argv_int("runs", 3)
    delay_ms = argv_float("fsync-delay-ms", 5)
    settings = durability(CONF)
    queue_settings = durability(QUEUE_CONF)
    emit(bench="move_cost_setup", redis_conf="deploy/redis.conf", **settings,
         queue_redis_conf="deploy/redis-queue.conf", **{f"queue_{k}": v for k, v in queue_settings.items()},
         stack="deploy/run.py with deploy/Procfile (as make run), the store from deploy/redis.conf and the queue "
               "from deploy/redis-queue.conf, two Redis servers",
         game=GAME, fsync_delay_ms=delay_ms, fsync_delay_tool="strace -e inject=fsync,fdatasync:delay_exit "
         "(seccomp-bpf: no other system call of Redis is traced)")
    counted: dict[str, dict] = {}
    where = peer.install()
    with tempfile.TemporaryDirectory() as tmp, peer.PeerServer(where) as peer_url:
        stack = Stack(Path(tmp) / "fast")
        try:
            background = measure_background(stack, max(2.0, seconds))
            for style in ("match_legal_post", "turn_post"):
                counted[f"human_{style}"] = emit(**count_humans(stack, style, cycles, background))
            counted["bot"] = emit(**count_bots(stack, cycles, background))
            counted["finishing"] = emit(**count_finishing(stack, max(2, cycles // 10), background))
            note = f"deploy/redis.conf (appendonly {settings.get('appendonly')}, appendfsync {settings.get('appendfsync')})"
            fast, peers = throughput(stack, note, seconds, runs, peer_at=(where, peer_url))
            tuned_baseline(stack, seconds, runs)
        finally:
            stack.stop()
        slow = []
        if delay_ms > 0:
            stack = Stack(Path(tmp) / "slow", fsync_delay_us=int(delay_ms * 1000))
            try:
                slow, _ = throughput(stack, f"{note}, every fsync delayed {delay_ms:g} ms", seconds, runs)
            finally:
                stack.stop()
    goals(counted, fast, slow, peers)

if __name__ == "__main__":
    main()
