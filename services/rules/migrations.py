"""The rules service's schema migrations (area ``rules``, ``shared.migrations``; docs/migrations.md).

1. Every match is in the match index. Releases before the index (2c4e00b and earlier) had none;
   the indexer fills it from ``stream:matches:finished`` for finished matches only, so matches
   still in progress were missing until ``make reindex-matches``. Every match whose log has no
   summary in ``{mi}:summary`` is indexed from its log (``MatchIndex.refresh``).
2. Idempotency-Keys one string each. Releases before (2c4e00b and earlier) kept a match's answers
   in one hash ``{m:<id>}:idem`` (field ``<seat>:<key>`` -> answer, never expiring). Each answer
   becomes ``{m:<id>}:idem:<seat>:<key>`` = ``done <fingerprint> <answer>`` for
   ``IDEMPOTENCY_TTL_S`` (24 h) from the upgrade — the fingerprint of the request recomputed from
   the log (the move is the cause of the answer's first event, the expected version the one before
   it), so a retry of the same request still gets its first answer and another body a 422 — and
   the hash is deleted.
3. Follow-ups of matches of older releases. Releases before durable follow-up intents (2c4e00b and
   earlier) queued bot turns as RQ jobs of another shape and tracked them in
   ``rules:awaiting-bots``; the current workers cannot play those jobs and nothing would queue the
   turn again. Every active match, and every ended one whose result was never published, gets a
   follow-up intent due now (``rules:followups``): the rules consumer's sweep then enqueues its
   bot turns, arms its deadlines and publishes its result, each idempotently.
   ``rules:awaiting-bots`` is deleted.
4. Finished matches of older releases are compacted like new ones. Releases before compaction
   (2c4e00b and earlier) never scheduled it, and today's schedule is a follow-up of a match's end,
   so their finished matches would keep their streams and snapshots for ever. Every ended match
   that is neither compacted nor scheduled is put in ``rules:compactions``, ``COMPACT_AFTER_S``
   from now (with compaction off: nothing; ``make compact`` still compacts the backlog).
5. Snapshots of older releases are dropped. A snapshot now carries the layout of the code that made
   it (``shared.envelope.state_layout``) and reads pass over any other, so those written before
   (every release up to b2b240a) are never used again; they only hold memory. Each snapshot without
   a layout is removed (an active match writes new ones as it goes on).
"""
from __future__ import annotations

import logging
import time

import redis

from shared.canonical import loads
from shared.eventstore.store import IDEMPOTENCY_TTL_S, EventStore, idempotency_key, keys
from shared.matches import request_fingerprint
from shared.migrations import Migration

from .followups import FOLLOWUPS
from .index import SUMMARIES, MatchIndex

log = logging.getLogger("rules.migrations")
LEGACY_AWAITING_BOTS = "rules:awaiting-bots"


def _index_every_match(client: redis.Redis) -> dict:
    index = MatchIndex(client)
    indexed = failed = seen = 0
    for match_id in index.store.match_ids():
        seen += 1
        if client.hexists(SUMMARIES, match_id):
            continue
        try:
            indexed += index.refresh(match_id) is not None
        except Exception:  # noqa: BLE001 - one unreadable log must not stop the others (logged)
            failed += 1
            log.exception("could not index match %s", match_id)
    return {"matches": seen, "indexed": indexed, "failed": failed}


def _legacy_fingerprint(store: EventStore, match_id: str, answer: dict) -> str | None:
    events = answer.get("events") or []
    if not events or "seq" not in events[0]:
        return None
    first = store.read(match_id, after=events[0]["seq"] - 1, limit=1)
    cause = (first[0].get("cause") or {}) if first else {}
    if "move" not in cause:
        return None
    return request_fingerprint(cause["move"], events[0]["seq"] - 1)


def _idempotency_strings(client: redis.Redis) -> dict:
    store = EventStore(client)
    converted = unknown = matches = 0
    for raw in client.scan_iter(match="{m:*}:idem", count=1000):
        key = raw.decode()
        if client.type(key) != b"hash":
            continue
        match_id = key[3:].split("}")[0]
        matches += 1
        for field, answer in client.hgetall(key).items():
            text = answer.decode()
            try:
                fingerprint = _legacy_fingerprint(store, match_id, loads(text))
            except (ValueError, KeyError, TypeError):
                fingerprint = None
            # an answer whose request cannot be recomputed keeps a fingerprint no body has: a retry
            # then gets 422 (key reused) rather than a second move
            unknown += fingerprint is None
            client.set(idempotency_key(match_id, field.decode()), f"done {fingerprint or 'unknown'} {text}",
                       ex=IDEMPOTENCY_TTL_S, nx=True)
            converted += 1
        client.delete(key)
    return {"matches": matches, "keys": converted, "without_fingerprint": unknown}


def _followups_for_old_matches(client: redis.Redis) -> dict:
    store = EventStore(client)
    now, active, unpublished = time.time(), 0, 0
    for match_id in store.match_ids():
        status, published = client.hmget(keys(match_id)["meta"], "status", "published")
        status = status.decode() if status else None
        if status == "active":
            active += 1
        elif status in ("finished", "aborted") and published != b"1":
            unpublished += 1
        else:
            continue
        client.zadd(FOLLOWUPS, {f"{match_id}|upgrade": now}, nx=True)
    client.delete(LEGACY_AWAITING_BOTS)
    return {"active": active, "unpublished": unpublished}


def migrate(client: redis.Redis, *, tokens: bool = False) -> None:
    """Bring the rules service's data (with ``tokens``, also the tokens it checks) to this release's
    schema, once: every rules process runs it at start, before it serves or consumes anything."""
    from shared.auth import auth_migrations
    from shared.migrations import ensure

    if tokens:
        ensure(client, "auth", auth_migrations())
    ensure(client, "rules", MIGRATIONS)


def _compact_old_matches(client: redis.Redis) -> dict:
    from shared.config import load

    from .compactions import COMPACTIONS

    after_s = load().compact_after_s
    if after_s is None:
        return {"scheduled": 0, "compaction": "off"}
    store, at, scheduled = EventStore(client), time.time() + after_s, 0
    for match_id in store.match_ids():
        status, compacted = client.hmget(keys(match_id)["meta"], "status", "compacted")
        if status in (b"finished", b"aborted") and not compacted and not client.exists(keys(match_id)["packed"]):
            scheduled += client.zadd(COMPACTIONS, {match_id: at}, nx=True)
    return {"scheduled": scheduled, "after_s": after_s}


def _drop_snapshots_without_layout(client: redis.Redis) -> dict:
    store, dropped, matches = EventStore(client), 0, 0
    for match_id in store.match_ids():
        key = keys(match_id)["snaps"]
        stale = [raw for raw in client.zrange(key, 0, -1) if "layout" not in loads(raw)]
        if stale:
            matches += 1
            dropped += client.zrem(key, *stale)
    return {"matches": matches, "snapshots": dropped}


MIGRATIONS = [
    Migration(1, "every match is in the match index", _index_every_match),
    Migration(2, "Idempotency-Key answers one string each, expiring", _idempotency_strings),
    Migration(3, "follow-ups (bot turns, deadlines, results) of matches of older releases", _followups_for_old_matches),
    Migration(4, "finished matches of older releases are scheduled for compaction", _compact_old_matches),
    Migration(5, "snapshots of older releases (without a layout) are dropped", _drop_snapshots_without_layout),
]
