"""Redis memory per finished match, before and after compaction (issue 14: at most 20 KB at the
median length).

``python -m bench.compaction [--matches=N] [--seed=S]``. Plays N all-bot matches of every game
(seats random or greedy, player counts cycling through each game's range) in-process through the
rules service's runtime (``Matches`` on the event store, every move with an Idempotency-Key as
the public client sends it) against a Redis of its own started from ``deploy/redis.conf``
(without persistence). For each finished match it audits it (filling the audit cache, as a
viewer would), measures ``MEMORY USAGE`` of every key of the match, compacts it
(``shared.eventstore.compaction``) and measures again.

Prints one JSON line per game and one for all games: events per match, bytes per match before
(log, snapshots, meta, seed, audit cache) and after compaction, median and p90, the ratio of the
medians; the Idempotency-Key answers apart (``idem_*``: they expire 24 h after each move, so they
are not part of what finished matches hold for ever); where the bytes of the log go (the share of
the stored JSON taken by the three hex digests); and the cost of reading a compacted log back
(median ms to decode one whole log cold, against reading it from the stream; and a cold
``view?at=`` of the middle version, which loses its snapshots to compaction).
"""
from __future__ import annotations

import random
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path

import redis

from shared import localredis
from shared.bots.policies import POLICIES
from shared.canonical import dumps
from shared.engine import registry
from shared.eventstore.compaction import COMPACTED, Compactor
from shared.eventstore.store import EventStore, keys
from shared.matches import Matches
from shared.rng import FastRng

from .common import argv_int, emit, median, percentile

GAMES = ["arkon", "battlefields-of-olympus", "fate-of-akalon", "fellowships-of-fate", "rise-of-tribes"]
CONF = Path(__file__).resolve().parent.parent / "deploy" / "redis.conf"
GOAL_BYTES = 20 * 1024
DIGESTS = ("prev_hash", "hash", "hidden_digest")
PARTS = ("log", "snaps", "meta", "seed", "audit")  # the keys a finished match keeps for ever, before compaction


def play(matches: Matches, game_id: str, players: int, levels: list[str], seed: int) -> str:
    """One all-bot match to its end; its id."""
    game = registry.get(game_id)
    match_id = uuid.uuid4().hex
    state = matches.create(match_id, game_id, {}, [{"bot": level} for level in levels[:players]])
    rng = FastRng(seed)
    while state["status"] == "active":
        acting = matches.to_act(state)
        seat = acting[rng.randbelow(len(acting))]
        legal = game.legal_moves(state["game"], seat)
        move = POLICIES[levels[seat]](game, game.view(state["game"], seat), seat, legal, rng)
        state = matches.submit(match_id, seat, move, state["version"], idempotency_key=uuid.uuid4().hex,
                               as_bot=True).state
    return match_id


def usage(r: redis.Redis, match_id: str) -> dict[str, int]:
    """Bytes of each key of the match (``idem``: all its Idempotency-Key strings together)."""
    k = keys(match_id)
    out = {name: r.memory_usage(k[name], samples=0) or 0 for name in ("log", "snaps", "meta", "seed", "audit",
                                                                      "deadlines", "packed")}
    idem = r.scan_iter(match=f"{k['idem']}:*", count=1000)
    out["idem"] = sum(r.memory_usage(key, samples=0) or 0 for key in idem)
    return out


def durable(u: dict[str, int]) -> int:
    return sum(v for name, v in u.items() if name != "idem")


def digest_share(records: list[dict]) -> float:
    """The share of the log's stored JSON taken by the hex digests (with their field names)."""
    total = sum(len(dumps(rec)) for rec in records)
    hexes = sum(len(f'"{name}":"{rec[name]}",') for rec in records for name in DIGESTS if rec.get(name))
    return hexes / total


def read_ms(store: EventStore, match_id: str) -> float:
    t0 = time.perf_counter()
    store.read(match_id)
    return (time.perf_counter() - t0) * 1000


def view_ms(r: redis.Redis, match_id: str, at: int) -> float:
    """A cold ``view?at=``: a new runtime and store (no process cache: snapshot or compact log)."""
    matches = Matches(EventStore(r))
    t0 = time.perf_counter()
    matches.view(match_id, None, at)
    return (time.perf_counter() - t0) * 1000


def measure(r: redis.Redis, game_id: str, n: int, seed: int) -> dict:
    store = EventStore(r)
    matches = Matches(store)
    compactor = Compactor(store)
    game = registry.get(game_id)
    rnd = random.Random(f"{seed}-{game_id}")
    rows = defaultdict(list)
    for i in range(n):
        players = game.min_players + i % (game.max_players - game.min_players + 1)
        levels = [rnd.choice(["random", "greedy"]) for _ in range(game.max_players)]
        match_id = play(matches, game_id, players, levels, seed + i)
        matches.audit(match_id)
        before = usage(r, match_id)
        records = store.read(match_id)
        rows["events"].append(len(records))
        rows["digest_share"].append(digest_share(records))
        rows["stream_read_ms"].append(read_ms(EventStore(r), match_id))
        rows["stream_view_ms"].append(view_ms(r, match_id, len(records) // 2))
        assert compactor.compact(match_id) == COMPACTED
        after = usage(r, match_id)
        rows["packed_read_ms"].append(read_ms(EventStore(r), match_id))  # a new store: no decoded cache
        rows["packed_view_ms"].append(view_ms(r, match_id, len(records) // 2))
        rows["before"].append(durable(before))
        rows["after"].append(durable(after))
        rows["idem"].append(before["idem"])
        for name in PARTS:
            rows[f"before_{name}"].append(before[name])
        rows["after_packed"].append(after["packed"])
        r.delete(*keys(match_id).values(), *r.scan_iter(match=f"{keys(match_id)['idem']}:*", count=1000))
    return rows


def summary(label: str, rows: dict[str, list]) -> dict:
    med = {name: median(values) for name, values in rows.items()}
    return emit(
        bench="compaction_memory", game=label, matches=len(rows["events"]),
        events_p50=med["events"], events_p90=percentile(rows["events"], 90),
        before_p50_bytes=round(med["before"]), before_p90_bytes=percentile(rows["before"], 90),
        after_p50_bytes=round(med["after"]), after_p90_bytes=percentile(rows["after"], 90),
        ratio_p50=round(med["before"] / med["after"], 1), goal_p50_bytes=GOAL_BYTES,
        meets_goal=med["after"] <= GOAL_BYTES,
        before_p50_parts={name: round(med[f"before_{name}"]) for name in PARTS},
        after_packed_p50_bytes=round(med["after_packed"]),
        digest_share_of_log_json=round(med["digest_share"], 3),
        idem_p50_bytes=round(med["idem"]), idem_p90_bytes=percentile(rows["idem"], 90),
        read_whole_log_p50_ms={"stream": round(med["stream_read_ms"], 2),
                               "compacted_cold": round(med["packed_read_ms"], 2)},
        view_at_middle_p50_ms={"stream_and_snapshots": round(med["stream_view_ms"], 2),
                               "compacted_cold": round(med["packed_view_ms"], 2)},
    )


def main() -> None:
    n, seed = argv_int("matches", 200), argv_int("seed", 1)
    registry.load_all()
    everything: dict[str, list] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        server = localredis.start(tmp, config=CONF)  # the production settings, without the disk
        try:
            r = redis.Redis.from_url(server.url)
            for game_id in GAMES:
                rows = measure(r, game_id, n, seed)
                summary(game_id, rows)
                for name, values in rows.items():
                    everything[name] += values
            summary("all", everything)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
