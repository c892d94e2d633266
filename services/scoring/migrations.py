"""Scoring's schema migrations (area ``scoring``, ``shared.migrations``; docs/migrations.md).

1. Every scored match is among scoring's inputs. Releases before ``{scoring}:inputs`` (2c4e00b
   and earlier) rebuilt from ``stream:matches:finished``, which they never trimmed; later releases
   fold ``{scoring}:inputs`` and trim the stream, so a result scored before the upgrade to them had
   no input left and ``make rebuild-scores`` dropped it. ``backfill_inputs`` gives every result in
   ``{scoring}:results`` its input again: the finished-match message from the stream where it is
   still there, otherwise one rebuilt from the stored result (standings, scores, abandoned seats)
   and, where the match's log still has it, its final outcome (teams). The inputs are put in the
   order they were scored — checked against each result's ratings "before": at each step the next
   input is one whose stored ratings before equal the ratings replayed so far — so that replaying
   them gives every stored result and rating back exactly.

``backfill_inputs`` also runs at the start of every ``rebuild`` (``services.scoring.rebuild``), so
a rebuild never drops a result, whatever wrote the data.
"""
from __future__ import annotations

import logging

import redis

from shared.canonical import dumps, loads
from shared.envelope import ENDED
from shared.eventstore.store import EventStore
from shared.migrations import Migration
from shared.streams import MATCHES_FINISHED

from .ratings import Rating, entity, rate, standings
from .store import INPUTS, NAMES, RESULTS

log = logging.getLogger("scoring.migrations")
LOOKAHEAD = 2000  # inputs tried at each step when ordering by the stored ratings


def _scorable(message: dict) -> bool:
    return message.get("status") == "finished" and bool(message.get("outcome"))


def _from_stream(client: redis.Redis, wanted: set[str]) -> dict[str, tuple[str, dict]]:
    """match id -> (stream entry id, first finished message) of the matches ``wanted``."""
    found: dict[str, tuple[str, dict]] = {}
    start = "-"
    while wanted - found.keys():
        batch = client.xrange(MATCHES_FINISHED, start, "+", count=1000)
        if not batch:
            break
        for entry_id, fields in batch:
            try:
                message = loads(fields[b"m"])
            except (KeyError, ValueError):
                continue
            mid = message.get("match_id")
            if mid in wanted and mid not in found and _scorable(message):
                found[mid] = (entry_id.decode(), message)
        last = batch[-1][0].decode()
        ms, seq = last.split("-")
        start = f"{ms}-{int(seq) + 1}"
    return found


def _from_result(client: redis.Redis, result: dict) -> tuple[float, dict]:
    """A finished-match message rebuilt from a stored result (its log's outcome when it has one),
    with when the match ended (0 when unknown), for ordering."""
    table = sorted(result["standings"], key=lambda row: row["seat"])
    names = {}
    for row in table:
        key = entity(row)
        raw = client.hget(NAMES, key)
        names[key] = raw.decode() if raw else key
    seats = [({"player_id": row["player_id"]} if row.get("player_id") else {"bot": row["bot"]}) for row in table]
    for seat in seats:
        seat["name"] = names[entity(seat)]
    outcome = {"ranks": [row["rank"] for row in table], "scores": [row["score"] for row in table]}
    ended_at = 0.0
    try:
        ends = EventStore(client).ends(result["match_id"])
    except Exception:  # noqa: BLE001 - a log this release cannot read: the result alone will do
        ends = None
    if ends is not None:
        created, final = ends
        ended_at = float(final.get("at") or 0.0)
        logged = (final.get("data") or {}).get("outcome") if final.get("type") == ENDED else None
        if logged and len(logged.get("ranks", ())) == len(table):
            outcome = logged
        for seat, logged_seat in zip(seats, (created.get("data") or {}).get("seats") or ()):
            if logged_seat.get("name"):
                seat["name"] = logged_seat["name"]
    abandoned = [row["seat"] for row in table if row.get("abandoned")]
    return ended_at, {"match_id": result["match_id"], "game": result["game"], "status": "finished",
                      "seats": seats, "outcome": outcome, "abandoned": abandoned, "rebuilt_from": "result"}


class _Replay:
    """Ratings replayed in memory, to order inputs the way their results were scored."""

    def __init__(self, results: dict[str, dict]):
        self.results = results
        self.ratings: dict[tuple[str, str], Rating] = {}

    def _current(self, message: dict) -> dict[str, Rating]:
        keys = sorted({entity(s) for s in message["seats"]})
        return {k: self.ratings.get((message["game"], k)) or Rating.fresh() for k in keys}

    def fits(self, message: dict) -> bool:
        stored = self.results.get(message["match_id"])
        if stored is None:
            return False
        current = self._current(message)
        return all(k in current and current[k].value == change["before"]
                   for k, change in stored["ratings"].items())

    def apply(self, message: dict) -> None:
        current = self._current(message)
        for k, rating in rate(message, standings(message), current).items():
            self.ratings[(message["game"], k)] = rating


def order_as_scored(messages: list[dict], results: dict[str, dict]) -> tuple[list[dict], int]:
    """``messages`` in an order whose replay gives each stored result's ratings; keeps the given
    order wherever it already does. Returns (the order, how many steps no input fitted)."""
    replay, remaining, out, unfit = _Replay(results), list(messages), [], 0
    while remaining:
        pick = next((i for i, m in enumerate(remaining[:LOOKAHEAD]) if replay.fits(m)), None)
        if pick is None:
            pick, unfit = 0, unfit + 1
        message = remaining.pop(pick)
        replay.apply(message)
        out.append(message)
    return out, unfit


def backfill_inputs(client: redis.Redis) -> dict:
    """Give every stored result its input (idempotent: nothing to do when each has one)."""
    while True:
        with client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(RESULTS, INPUTS)
                results = {k.decode(): loads(v) for k, v in pipe.hgetall(RESULTS).items()}
                inputs = [loads(raw) for raw in pipe.lrange(INPUTS, 0, -1)]
                have = {m["match_id"] for m in inputs}
                missing = set(results) - have
                if not missing:
                    pipe.unwatch()
                    return {"results": len(results), "inputs": len(inputs), "added": 0}
                streamed = _from_stream(client, missing)
                hinted = []
                for mid in missing:
                    if mid in streamed:
                        entry_id, message = streamed[mid]
                        hinted.append((int(entry_id.split("-")[0]) / 1000.0, entry_id, message))
                    else:
                        ended_at, message = _from_result(client, results[mid])
                        hinted.append((ended_at, "", message))
                hinted.sort(key=lambda h: (h[0], h[1]))
                ordered, unfit = order_as_scored([h[2] for h in hinted] + inputs, results)
                pipe.multi()
                pipe.delete(INPUTS)
                for i in range(0, len(ordered), 500):
                    pipe.rpush(INPUTS, *[dumps(m) for m in ordered[i:i + 500]])
                pipe.execute()
            except redis.WatchError:
                continue
        report = {"results": len(results), "inputs": len(inputs), "added": len(missing),
                  "from_stream": len(streamed), "from_results": len(missing) - len(streamed), "unordered": unfit}
        if unfit:
            log.error("scoring inputs: %d steps matched no stored rating; a rebuild may differ there", unfit)
        return report


MIGRATIONS = [
    Migration(1, "every scored match is among scoring's inputs (rebuild-scores keeps every result)", backfill_inputs),
]
