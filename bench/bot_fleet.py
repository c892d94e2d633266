"""Bot fleet: bot moves per second through the whole stack with N = 1, 2 and 4 bot workers.

``python -m bench.bot_fleet [--seconds=S] [--matches=K] [--game=G]``. The stack runs as in
production (the launcher, gunicorn services, the consumers; a Redis started from
``deploy/redis.conf``) without its own bot workers; N workers (``python -m services.bots``, each
a separate process) are started for each measurement. K all-bot matches are kept going at once
(a finished one is replaced). Counted: moves whose event time falls in the window, and CPU
seconds of each kind of process over the window (from /proc). Prints one JSON line per
(level, N): moves/s and CPU ms per move for the workers, the rules service and Redis; then the
throughput ratio of 2 workers to 1 for each level (search at a fixed 1,000 iterations, CPU-bound). The baseline for the rules service's cost is a
human's move in the same run: scripted players reading their view and legal moves and posting
(``human_baseline``), and the ratio of a bot move's rules CPU to it (goal: at most 2).
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

from shared import localredis
from shared.eventstore.store import EventStore
from tabletop_client import Tabletop
from tests.support.stack import ROOT, start_stack

from .common import argv_int, emit

CONF = ROOT / "deploy" / "redis.conf"
TICK = os.sysconf("SC_CLK_TCK")


def argv_str(name: str, default: str) -> str:
    for arg in sys.argv[1:]:
        if arg.startswith(f"--{name}="):
            return arg.split("=", 1)[1]
    return default


def cpu_seconds(pids) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


def pids_of(needle: str) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                    out.append(int(entry.name))
            except OSError:
                pass
    return out


def moves_between(store: EventStore, match_ids, t0: float, t1: float) -> int:
    n = 0
    for match_id in match_ids:
        for rec in store.read(match_id):
            if t0 <= rec["at"] < t1 and "seat" in (rec.get("cause") or {}):
                n += 1
    return n


def measure(stack, host: Tabletop, store: EventStore, game: str, level: str, workers: int, matches: int,
            seconds: float, redis_pid: int) -> dict:
    env = dict(stack.env, PYTHONPATH=str(ROOT))
    env.pop("AUTH_SECRET", None)  # workers hold no signing key
    procs = [subprocess.Popen([sys.executable, "-m", "services.bots"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(workers)]
    seats = [{"bot": level}, {"bot": level}]
    live = [host.create_table(game, seats)["match_id"] for _ in range(matches)]
    seen = list(live)
    time.sleep(5)  # workers import the games and warm up before the window opens
    rules = pids_of(f"-b 127.0.0.1:{stack.urls['rules'].rsplit(':', 1)[1]}")
    worker_pids = [p.pid for p in procs]
    before = {"workers": cpu_seconds(worker_pids), "rules": cpu_seconds(rules), "redis": cpu_seconds([redis_pid])}
    t0 = time.time()
    while time.time() < t0 + seconds:
        for i, match_id in enumerate(live):
            if host.match(match_id)["status"] != "active":
                live[i] = host.create_table(game, seats)["match_id"]
                seen.append(live[i])
        time.sleep(0.5)
    t1 = time.time()
    after = {"workers": cpu_seconds(worker_pids), "rules": cpu_seconds(rules), "redis": cpu_seconds([redis_pid])}
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait(30)
    store.r.delete("rq:queue:bots")  # this measurement's matches stop here: the next one starts clean
    moves = moves_between(store, seen, t0, t1)
    return {
        "bench": "bot_fleet", "game": game, "level": level, "workers": workers, "matches": matches,
        "moves": moves, "moves_per_s": round(moves / (t1 - t0), 1),
        "cpu_ms_per_move": {k: round(1000 * (after[k] - before[k]) / max(moves, 1), 2) for k in before},
    }


def measure_humans(stack, game: str, matches: int, seconds: float) -> dict:
    """Rules CPU per move when people play: each move is the mover's view, legal moves and POST
    (a view of a seat that turns out not to be acting counts too: ``requests_per_move``)."""
    tables = []
    for i in range(matches):
        host, guest = stack.api(), stack.api()
        me, other = host.register(f"bench-human-{i}-a"), guest.register(f"bench-human-{i}-b")
        table = host.create_table(game, [{"player_id": me.player_id}, {"player_id": other.player_id}])
        started = guest.join_table(table["table_id"])
        tables.append({"match": started["match_id"], "clients": [host, guest], "next": 0})
    rules = pids_of(f"-b 127.0.0.1:{stack.urls['rules'].rsplit(':', 1)[1]}")
    rng = random.Random(0)
    moves = requests = 0
    before = cpu_seconds(rules)
    t0 = time.time()
    while time.time() < t0 + seconds:
        for t in tables:
            client = t["clients"][t["next"]]
            view = client.view(t["match"])
            requests += 1
            if view["status"] != "active":
                continue
            if view["seat"] not in view["to_act"]:
                t["next"] = view["to_act"][0]
                continue
            legal = client.legal_moves(t["match"])
            client.move(t["match"], rng.choice(legal["moves"]), legal["version"])
            requests += 2
            moves += 1
            t["next"] = 1 - t["next"]
    t1 = time.time()
    cpu = cpu_seconds(rules) - before
    return {"bench": "bot_fleet_human_baseline", "game": game, "matches": matches, "moves": moves,
            "moves_per_s": round(moves / (t1 - t0), 1), "requests_per_move": round(requests / max(moves, 1), 2),
            "rules_cpu_ms_per_move": round(1000 * cpu / max(moves, 1), 2)}


def main() -> None:
    seconds, matches, game = argv_int("seconds", 20), argv_int("matches", 8), argv_str("game", "arkon")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        server = localredis.start(work / "redis", persistent=True, config=CONF)
        procfile = work / "Procfile.nobots"
        procfile.write_text("\n".join(line for line in (ROOT / "deploy/Procfile").read_text().splitlines()
                                      if not line.startswith("bot_worker")) + "\n")
        stack = start_stack(server.url, work, procfile=str(procfile), SEARCH_ITERATIONS="1000", SEARCH_SECONDS="5",
                            BOT_RETRY_AFTER_S="3600", GAME_MODULES="")  # no watchdog revives old matches
        try:
            host = stack.api()
            host.register("bench-host")
            store = EventStore(redis.Redis.from_url(server.url))
            redis_pid = server.process.pid
            human = emit(**measure_humans(stack, game, matches, seconds))
            for level, counts in (("random", (1, 2, 4)), ("search", (1, 2))):
                rows = [emit(**measure(stack, host, store, game, level, n, matches, seconds, redis_pid))
                        for n in counts]
                emit(bench="bot_fleet_scaling", game=game, level=level,
                     ratio_2_to_1=round(rows[1]["moves_per_s"] / max(rows[0]["moves_per_s"], 1e-9), 3),
                     rules_cpu_bot_to_human=round(rows[0]["cpu_ms_per_move"]["rules"]
                                                  / max(human["rules_cpu_ms_per_move"], 1e-9), 2))
        finally:
            stack.stop()
            server.stop()


if __name__ == "__main__":
    main()
