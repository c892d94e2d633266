"""POST-move throughput and latency through gunicorn against a real Redis, side by side with a
trivial Flask endpoint that does one XADD (same gunicorn settings, same client, same bodies).

The Redis is started from ``deploy/redis.conf`` (append-only, ``appendfsync always``): the
durability the product runs with, so a move answered 201 is on disk, and so is the baseline's XADD.

Arkon matches are created and their whole move sequences precomputed before timing (the load
generator reads each match's seed, so it knows the outcome of every chance draw); during the
timed phase each client thread only posts moves. ``python -m bench.api_throughput
[--seconds=N] [--threads=N]``
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import redis
import requests

from shared import localredis
from shared.auth import Tokens
from shared.engine import registry
from shared.eventstore import EventStore
from shared.matches import Matches
from shared.rng import FastRng, SeededRng

from .common import argv_int, durability, emit, median, percentile

ROOT = Path(__file__).resolve().parent.parent
CONF = ROOT / "deploy" / "redis.conf"
SECRET = "bench-secret"


def start_gunicorn(app: str, port: int, redis_url: str, log,
                   args: tuple[str, ...] = ("--workers", "2", "--threads", "8")) -> subprocess.Popen:
    env = dict(os.environ, REDIS_URL=redis_url, AUTH_SECRET=SECRET, PYTHONPATH=str(ROOT),
               RATE_LIMIT_WRITES_PER_ADDRESS="10000000/minute")  # one load client: measure, do not throttle
    proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.py", *args,
                             "-b", f"127.0.0.1:{port}", app], cwd=ROOT, env=env, stdout=log,
                            stderr=log, start_new_session=True)
    for _ in range(300):
        try:
            requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except requests.RequestException:
            time.sleep(0.1)
    raise RuntimeError(f"{app} did not start")


def precompute(matches: Matches, game_id: str, match_id: str, players: int, seed: int) -> list[tuple]:
    """Create a match and list (token, body) of every move of a random playout, in order."""
    tokens = Tokens(SECRET)
    seats = [{"player_id": f"{match_id}-p{i}"} for i in range(players)]
    mstate = matches.create(match_id, game_id, {}, seats)
    game = matches.game_of(mstate)
    secret = matches.store.seed(match_id)
    state, version = mstate["game"], mstate["version"]
    rng = FastRng(seed)
    out = []
    while game.outcome(state) is None:
        seat = rng.choice(game.to_act(state))
        move = rng.choice(game.legal_moves(state, seat))
        events = game.decide(state, seat, move, SeededRng(secret, version))
        out.append((tokens.for_player(seats[seat]["player_id"]), {"move": move, "expected_version": version},
                    match_id))
        state = game.fold(events, state)
        version += len(events) + (1 if game.outcome(state) is not None else 0)
    return out


def load(url_of, plans: list[list[tuple]], seconds: float) -> dict:
    latencies, errors, done = [], [0], [0]
    stop = time.perf_counter() + seconds
    lock = threading.Lock()

    def client(plan):
        http = requests.Session()
        mine = []
        for token, body, match_id in plan:
            if time.perf_counter() >= stop:
                break
            t0 = time.perf_counter()
            r = http.post(url_of(match_id), json=body, headers={"Authorization": f"Bearer {token}"}, timeout=30)
            mine.append((time.perf_counter() - t0) * 1000)
            if r.status_code != 201:
                with lock:
                    errors[0] += 1
        with lock:
            latencies.extend(mine)
            done[0] += len(mine)

    t0 = time.perf_counter()
    threads = [threading.Thread(target=client, args=(p,)) for p in plans]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - t0
    return {"requests": done[0], "errors": errors[0], "rps": round(done[0] / elapsed, 1),
            "p50_ms": round(median(latencies), 2), "p99_ms": round(percentile(latencies, 99), 2)}


def main() -> None:
    seconds = argv_int("seconds", 10)
    threads = argv_int("threads", 8)
    game_id = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--game=")), "arkon")
    players = registry.get(game_id).min_players if game_id != "arkon" else 3
    with tempfile.TemporaryDirectory() as tmp:
        server = localredis.start(Path(tmp) / "redis", persistent=True, config=CONF)
        log = open(Path(tmp) / "gunicorn.log", "w")
        procs = []
        try:
            client = redis.Redis.from_url(server.url)
            matches = Matches(EventStore(client))
            plans = []
            for t in range(threads):
                plan = []
                i = 0
                while len(plan) < 400 * seconds // max(1, threads // 4):
                    plan += precompute(matches, game_id, f"bench-{t}-{i}", players, seed=t * 1000 + i)
                    i += 1
                plans.append(plan)
            rules_port, trivial_port = localredis.free_port(), localredis.free_port()
            procs.append(start_gunicorn("services.rules.app:create_app()", rules_port, server.url, log))
            procs.append(start_gunicorn("bench.trivial_app:create_app()", trivial_port, server.url, log))
            trivial = load(lambda _m: f"http://127.0.0.1:{trivial_port}/xadd", [p[: len(p)] for p in plans], seconds)
            moves = load(lambda m: f"http://127.0.0.1:{rules_port}/v1/matches/{m}/moves", plans, seconds)
            emit(bench="api_post_move", game=game_id, threads=threads, seconds=seconds,
                 redis=f"deploy/redis.conf (appendfsync {durability(CONF).get('appendfsync')})", moves=moves,
                 trivial_xadd=trivial, throughput_ratio=round(moves["rps"] / trivial["rps"], 3),
                 p50_ratio=round(moves["p50_ms"] / trivial["p50_ms"], 3))
        finally:
            for p in procs:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(20)
            server.stop()


if __name__ == "__main__":
    main()
