"""Replay speed and the effect of snapshots.

* events folded per second for a 1,000-event Arkon log (the fold is pure evolve; baseline: the
  same events applied in place);
* current-view latency of a 5,000-event match against a 10-event match, read cold (a new
  process cache each time: snapshot + the events after it) and warm, through the match runtime
  on a real Redis (the benchmark-only Marathon game provides the long match).
"""
from __future__ import annotations

import os
import tempfile
import time

os.environ.setdefault("GAME_MODULES", "bench.marathon")

import redis  # noqa: E402

from shared import localredis  # noqa: E402
from shared.engine import registry  # noqa: E402
from shared.eventstore import EventStore  # noqa: E402
from shared.matches import Matches  # noqa: E402
from shared.rng import FastRng, SeededRng  # noqa: E402

from .common import argv_int, emit, median, percentile  # noqa: E402


def arkon_log(min_events: int = 1000) -> list[dict]:
    game = registry.get("arkon")
    for seed in range(100):
        rng = FastRng(seed)
        events = game.setup(3, game.validate_options(3, {}), SeededRng(b"replay", str(seed)))
        state = game.fold(events)
        while game.outcome(state) is None:
            seat = rng.choice(game.to_act(state))
            new = game.decide(state, seat, rng.choice(game.legal_moves(state, seat)), rng)
            state = game.fold(new, state)
            events += new
        if len(events) >= min_events:
            return events[:min_events]
    raise RuntimeError("no Arkon match reached the wanted length")


def fold_speed(runs: int) -> dict:
    game = registry.get("arkon")
    events = arkon_log()
    pure, inplace = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        state = {}
        for ev in events:
            state = game.evolve(state, ev)
        pure.append(len(events) / (time.perf_counter() - t0))
        t0 = time.perf_counter()
        game.fold(events)
        inplace.append(len(events) / (time.perf_counter() - t0))
    return emit(bench="replay_fold", game="arkon", events=len(events), events_per_s=round(median(pure)),
                baseline_fold_inplace_events_per_s=round(median(inplace)), ratio=round(median(pure) / median(inplace), 3))


def build(matches: Matches, match_id: str, rounds: int) -> None:
    matches.create(match_id, "marathon", {"rounds": rounds}, [{"player_id": "a"}, {"player_id": "b"}])
    rng = FastRng(1)
    version = matches.state(match_id)["version"]
    while True:
        st = matches.state(match_id)
        acting = matches.to_act(st)
        if not acting:
            break
        seat = acting[0]
        version = matches.submit(match_id, seat, {"type": "commit", "n": rng.randbelow(10)}, version).version


def view_latency(client: redis.Redis, reads: int) -> list[dict]:
    store = EventStore(client)
    builder = Matches(store, snapshot_every=50)
    build(builder, "long", 2500)   # 2 setup events + 5,000 moves
    build(builder, "short", 4)     # 10 events
    out = []
    sizes = {m: store.version(m) for m in ("short", "long")}
    for label, cold in (("cold", True), ("warm", False)):
        lat = {m: [] for m in sizes}
        warm = Matches(store, snapshot_every=50)
        for i in range(reads):
            for m in sizes:
                reader = Matches(store, snapshot_every=50) if cold else warm
                t0 = time.perf_counter()
                reader.view(m, 0)
                lat[m].append((time.perf_counter() - t0) * 1000)
        out.append(emit(
            bench="view_latency", cache=label, long_events=sizes["long"], short_events=sizes["short"],
            long_p50_ms=round(median(lat["long"]), 3), short_p50_ms=round(median(lat["short"]), 3),
            long_p99_ms=round(percentile(lat["long"], 99), 3), short_p99_ms=round(percentile(lat["short"], 99), 3),
            ratio_p50=round(median(lat["long"]) / median(lat["short"]), 3)))
    store.delete_snapshots("long")
    lat = []
    for _ in range(max(5, reads // 10)):
        t0 = time.perf_counter()
        Matches(store, snapshot_every=50).view("long", 0)
        lat.append((time.perf_counter() - t0) * 1000)
    out.append(emit(bench="view_latency", cache="cold-no-snapshots", long_events=sizes["long"],
                    long_p50_ms=round(median(lat), 3)))
    return out


def main() -> None:
    runs = argv_int("runs", 5)
    fold_speed(runs)
    with tempfile.TemporaryDirectory() as tmp:
        server = localredis.start(tmp)
        try:
            view_latency(redis.Redis.from_url(server.url), argv_int("reads", 200))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
