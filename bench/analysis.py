"""Analysis: decisions judged per second per worker, the speed-up from 1 to 2 workers on one
match, and per game the mean loss the judge finds for each bot level on the same matches.

``python -m bench.analysis [--budget=B] [--matches=K] [--per-match=D] [--fleet-game=G] [--fleet-players=P] [--games=A,B] [--skip-fleet] [--skip-levels]``

* ``judge_levels`` (in process, per game): K seatings of the three levels (random, greedy,
  search; three seats where the game allows, else the three pairs, seats swapped), played by
  ``shared.bots.arena``'s rules; at most D decisions per match are judged (as many from every
  seat, evenly spaced over its own), each by ``shared.bots.analysis.judge`` at budget B from the mover's view. One line per
  game: each level's decisions and mean loss, and ``order_holds`` (random > greedy > search).
  The baseline is within the line: the levels are judged on the same matches by the same judge.
* ``fleet`` (the real stack, real RQ workers): one finished all-bot match of ``G`` (P seats, random
  and greedy) analysed at
  budget B with 1 and then 2 workers (``python -m services.analysis``), from the POST to status
  done: decisions per second, per worker, how many decisions each RQ job judged, the load average
  (a machine shared with other work cannot show a wall-clock speed-up), the workers' CPU seconds,
  the ratio of the two runs' times (the speed-up) and of their CPU costs (``cpu_efficiency_2_vs_1``:
  the speed-up two idle cores would give, what sharing one match between workers costs).
"""
from __future__ import annotations

import itertools
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis

from shared.bots import analysis
from shared.bots.analysis import Decision
from shared.bots.policies import POLICIES
from shared.engine import registry
from shared.rng import FastRng, SeededRng

from .common import argv_int, emit

LEVELS = ("random", "greedy", "search")


def argv_str(name: str, default: str) -> str:
    for arg in sys.argv[1:]:
        if arg.startswith(f"--{name}="):
            return arg.split("=", 1)[1]
    return default


def seatings(game, matches: int) -> list[tuple[str, ...]]:
    if game.max_players >= 3:
        base = list(itertools.permutations(LEVELS))
    else:
        base = [p for pair in itertools.combinations(LEVELS, 2) for p in (pair, pair[::-1])]
    return [base[i % len(base)] for i in range(matches)]


def play(game, levels, seed: int) -> list[tuple[Decision, str]]:
    """A whole match; every decision with a choice, with the level that made it."""
    players = len(levels)
    opts = game.validate_options(players, {})
    state = game.fold(game.setup(players, opts, SeededRng(f"bench-analysis-{seed}".encode(), "setup")))
    rng = FastRng(seed)
    out, steps = [], 0
    while game.outcome(state) is None and steps < 5_000:
        acting = game.to_act(state)
        seat = acting[rng.randbelow(len(acting))]
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        move = POLICIES[levels[seat]](game, view, seat, legal, rng)
        if len(legal) > 1:
            out.append((Decision(steps, seat, view, legal, move), levels[seat]))
        game.advance(state, seat, move, rng)
        steps += 1
    return out


def sample(ds: list, seats: int, per_match: int) -> list:
    """At most ``per_match`` decisions, the same number from every seat, evenly spaced over its own."""
    per_seat = max(1, per_match // seats)
    out = []
    for seat in range(seats):
        mine = [x for x in ds if x[0].seat == seat]
        step = max(1, len(mine) // per_seat)
        out += mine[::step][:per_seat]
    return out


def judge_levels(game_id: str, matches: int, per_match: int, budget: int) -> dict:
    game = registry.get(game_id)
    losses: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    t0, judged = time.process_time(), 0
    for i, levels in enumerate(seatings(game, matches)):
        ds = play(game, levels, seed=i)
        for d, level in sample(ds, len(levels), per_match):
            losses[level].append(analysis.judge(game, d, budget=budget, match_id=f"bench-{i}").loss)
            judged += 1
    cpu = time.process_time() - t0
    mean = {lv: round(sum(v) / len(v), 4) if v else None for lv, v in losses.items()}
    holds = all(mean[a] is not None and mean[b] is not None and mean[a] > mean[b]
                for a, b in itertools.pairwise(LEVELS))
    return emit(bench="analysis", part="judge_levels", game=game_id, budget=budget, matches=matches,
                decisions={lv: len(v) for lv, v in losses.items()}, mean_loss=mean, order_holds=holds,
                cpu_s_per_decision=round(cpu / max(1, judged), 4))


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of a live process (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _judged_by_job(q: redis.Redis, n: int) -> list[int]:
    """How many decisions each RQ job of the analysis judged (its result: "judged X of N")."""
    from rq.job import Job

    out = []
    for key in q.scan_iter("rq:job:analysis-*"):
        result = Job.fetch(key.decode().removeprefix("rq:job:"), connection=q).return_value()
        if isinstance(result, str) and result.startswith("judged "):
            out.append(int(result.split()[1]))
    return out


def fleet(game_id: str, budget: int, players: int) -> list[dict]:
    from shared import localredis
    from tests.support.stack import ROOT, Client, start_stack, wait_for

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        procfile = workdir / "Procfile"
        procfile.write_text("\n".join(ln for ln in (ROOT / "deploy/Procfile").read_text().splitlines()
                                      if not ln.startswith("analysis_worker")) + "\n")
        server = localredis.start(workdir / "redis")
        stack = start_stack(server.url, workdir, procfile=str(procfile), ANALYSIS_PARALLEL="2", ANALYSIS_CHUNK="2")
        try:
            host = Client.register(stack, "bench-analysis")
            seats = [{"bot": ("random", "greedy")[i % 2]} for i in range(players)]
            r = host.post(f"{stack.mm}/v1/tables", json={"game": game_id, "seats": seats})
            match_id = r.json()["match_id"]
            wait_for(lambda: host.api.match(match_id)["status"] == "finished", 600, 0.5, "the match")
            q = redis.Redis.from_url(stack.redis_url)
            times, cpus = {}, {}
            for n in (1, 2):
                for key in q.scan_iter("analysis:*"):  # the same match judged afresh each time
                    q.delete(key)
                for pattern in ("rq:job:analysis-*", "rq:results:analysis-*"):
                    for key in q.scan_iter(pattern):
                        q.delete(key)
                q.delete("rq:queue:analysis")
                env = {k: v for k, v in stack.env.items() if k != "METRICS_PORT"}
                procs = [subprocess.Popen([sys.executable, "-m", "services.analysis"], cwd=ROOT, env=env,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(n)]
                try:
                    time.sleep(3)  # the workers are up before the clock starts
                    cpu0 = sum(_cpu_s(p.pid) for p in procs)
                    t0 = time.monotonic()
                    host.post(f"{stack.rules}/v1/matches/{match_id}/analysis", json={"budget": budget})
                    doc = wait_for(lambda: (d := host.get(f"{stack.rules}/v1/matches/{match_id}/analysis").json())
                                   ["status"] == "done" and d, 3600, 0.1, "the analysis")
                    times[n] = time.monotonic() - t0
                    cpu = sum(_cpu_s(p.pid) for p in procs) - cpu0
                finally:
                    for p in procs:
                        p.kill()
                        p.wait()
                rate, cpus[n] = doc["total"] / times[n], cpu
                deadline = time.monotonic() + 10  # the job that did not mark it done may still be returning
                while len(shares := _judged_by_job(q, n)) < n and time.monotonic() < deadline:
                    time.sleep(0.1)
                shares = sorted(shares, reverse=True)
                rows.append(emit(bench="analysis", part="fleet", game=game_id, budget=budget, workers=n,
                                 decisions=doc["total"], seconds=round(times[n], 2), judged_per_rq_job=shares,
                                 load_average=round(os.getloadavg()[0], 1), workers_cpu_s=round(cpu, 2),
                                 cpu_share_of_a_core=round(cpu / times[n], 2),
                                 cpu_s_per_decision=round(cpu / doc["total"], 4),
                                 decisions_per_s=round(rate, 2), decisions_per_s_per_worker=round(rate / n, 2)))
            rows.append(emit(bench="analysis", part="fleet_speedup", game=game_id, budget=budget,
                             speedup_2_vs_1=round(times[1] / times[2], 2), cores=os.cpu_count(),
                             # the CPU one match's analysis cost with 1 worker over its cost with 2: the speed-up
                             # 2 idle cores would give (what sharing the work costs), whatever the load
                             cpu_efficiency_2_vs_1=round(cpus[1] / cpus[2], 2)))
        finally:
            stack.stop()
            server.stop()
    return rows


def main() -> None:
    os.environ.setdefault("GAME_MODULES", "")
    registry.load_all()
    budget = argv_int("budget", analysis.DEFAULT_BUDGET)
    matches, per_match = argv_int("matches", 6), argv_int("per-match", 40)
    games = [g for g in argv_str("games", "").split(",") if g] or sorted(g.id for g in registry.all_games())
    if "--skip-fleet" not in sys.argv:
        fleet(argv_str("fleet-game", "fate-of-akalon"), budget, argv_int("fleet-players", 4))
    if "--skip-levels" not in sys.argv:
        for game_id in games:
            judge_levels(game_id, matches, per_match, budget)


if __name__ == "__main__":
    main()
