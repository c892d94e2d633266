"""The match index: every match findable by game, player, status and creation time, newest first.

Kept in Redis beside the logs it summarises (all keys in one slot, ``{mi}``):

* ``{mi}:summary``         — hash match id -> the match's summary (JSON)
* ``{mi}:all``             — sorted set of match ids scored by creation time
* ``{mi}:game:<game>``, ``{mi}:player:<player id>``, ``{mi}:status:<status>`` — the same, per filter

A summary is built from two records of the match's log — ``match.created`` (game, seats and
names, creation time) and the last (version, status, result, end time) — so the whole index is
rebuildable from the logs (:meth:`MatchIndex.rebuild`, ``python -m services.rules.indexer
--rebuild``). The rules service indexes a match when it creates it; the indexer process refreshes
it from ``stream:matches:finished`` when it ends. A query never scans: it walks the smallest of the
sorted sets its filters name and checks membership in the others.
"""
from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass

import redis

from shared.canonical import dumps, loads
from shared.envelope import ABORTED, CREATED, ENDED
from shared.eventstore.store import EventStore, keys

PREFIX = "{mi}"
SUMMARIES = f"{PREFIX}:summary"
ALL = f"{PREFIX}:all"
STATUSES = ("active", "finished", "aborted")
WALK = 200  # entries read from a sorted set at a time while filtering


def filter_key(kind: str, value: str) -> str:
    return f"{PREFIX}:{kind}:{value}"


class BadCursor(ValueError):
    pass


def encode_cursor(score: float, match_id: str) -> str:
    return base64.urlsafe_b64encode(f"{score!r}|{match_id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[float, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        score, match_id = raw.split("|", 1)
        value = float(score)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise BadCursor("the cursor is not one this server gave out") from None
    if not math.isfinite(value):
        raise BadCursor("the cursor is not one this server gave out")
    return value, match_id


@dataclass
class Page:
    items: list[dict]
    next_cursor: str | None


def summarize(created: dict, last: dict) -> dict:
    """A match's summary from its first record (match.created) and its last."""
    d = created["data"]
    status = {ENDED: "finished", ABORTED: "aborted"}.get(last["type"], "active")
    seats = [{"seat": i, **{k: s[k] for k in ("player_id", "bot", "name") if k in s}} for i, s in enumerate(d["seats"])]
    return {
        "match_id": d["match_id"], "game": d["game"], "seats": seats, "status": status, "version": last["seq"],
        "created_at": created["at"], "finished_at": last["at"] if status != "active" else None,
        "result": last["data"]["outcome"] if last["type"] == ENDED else None,
    }


class MatchIndex:
    def __init__(self, client: redis.Redis):
        self.r = client
        self.store = EventStore(client)

    # ----- writing -------------------------------------------------------------------------
    def refresh(self, match_id: str) -> dict | None:
        """(Re-)index one match from its log; idempotent. None when the match does not exist."""
        ends = self.store.ends(match_id)  # from the stream, or the compact log of a compacted match
        if ends is None:
            return None
        created, final = ends
        if created["type"] != CREATED:
            return None
        summary = summarize(created, final)
        score = summary["created_at"]
        sets = [ALL, filter_key("game", summary["game"]), filter_key("status", summary["status"])]
        sets += [filter_key("player", s["player_id"]) for s in summary["seats"] if "player_id" in s]
        pipe = self.r.pipeline(transaction=True)
        pipe.hset(SUMMARIES, match_id, dumps(summary))
        for other in STATUSES:
            if other != summary["status"]:
                pipe.zrem(filter_key("status", other), match_id)
        for key in sets:
            pipe.zadd(key, {match_id: score})
        pipe.execute()
        return summary

    def drop_all(self) -> None:
        batch = []
        for key in self.r.scan_iter(match=f"{PREFIX}:*", count=500):
            batch.append(key)
            if len(batch) >= 500:
                self.r.delete(*batch)
                batch = []
        if batch:
            self.r.delete(*batch)

    def rebuild(self) -> int:
        """Drop the index and index every match again from its log. Returns how many."""
        self.drop_all()
        return sum(self.refresh(match_id) is not None for match_id in self.store.match_ids())

    # ----- reading -------------------------------------------------------------------------
    def query(self, *, game: str | None = None, player: str | None = None, status: str | None = None,
              since: float | None = None, until: float | None = None, cursor: str | None = None,
              limit: int = 20) -> Page:
        """Matches newest first (by creation time) that pass every filter given; ``cursor`` continues
        a previous page. Raises ``BadCursor``."""
        sets = [filter_key(kind, value) for kind, value in (("game", game), ("player", player), ("status", status))
                if value is not None] or [ALL]
        sizes = [self.r.zcard(key) for key in sets]
        driver = sets[sizes.index(min(sizes))]
        others = [key for key in sets if key != driver]
        after = decode_cursor(cursor) if cursor else None
        high: float | str = "+inf" if until is None else until
        if after is not None and (until is None or after[0] <= until):
            high = after[0]
        low: float | str = "-inf" if since is None else since
        found: list[tuple[str, float]] = []
        offset = 0
        step = WALK if others else limit + 1  # with no membership to check, each entry read is kept
        while len(found) <= limit:
            batch = self.r.zrevrangebyscore(driver, high, low, start=offset, num=step, withscores=True)
            if not batch:
                break
            offset += len(batch)
            candidates = [(m.decode(), s) for m, s in batch]
            if after is not None:
                candidates = [(m, s) for m, s in candidates if s < after[0] or (s == after[0] and m < after[1])]
            if others and candidates:
                pipe = self.r.pipeline(transaction=False)
                for m, _s in candidates:
                    for key in others:
                        pipe.zscore(key, m)
                scores = pipe.execute()
                n = len(others)
                candidates = [c for i, c in enumerate(candidates) if all(x is not None for x in scores[i * n:(i + 1) * n])]
            found.extend(candidates)
        page = found[:limit]
        next_cursor = encode_cursor(page[-1][1], page[-1][0]) if len(found) > limit else None
        return Page(self.summaries([m for m, _s in page]), next_cursor)

    def summaries(self, match_ids: list[str]) -> list[dict]:
        """The stored summaries, with each match's version and status read live from its log's meta
        (the index may lag a move or an ending by a moment)."""
        if not match_ids:
            return []
        raw = self.r.hmget(SUMMARIES, match_ids)
        pipe = self.r.pipeline(transaction=False)
        for m in match_ids:
            pipe.hmget(keys(m)["meta"], "version", "status")
        live = pipe.execute()
        out = []
        for blob, (version, status) in zip(raw, live):
            if blob is None:
                continue
            summary = loads(blob)
            if version is not None:
                summary["version"] = int(version)
            if status is not None:
                summary["status"] = status.decode()
            out.append(summary)
        return out
