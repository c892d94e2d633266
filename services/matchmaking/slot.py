"""Matchmaking's queue and table keys share one Redis Cluster slot: the hash tag ``{mm}``.

Their transactions span several keys — a ticket, its pool, its player's live ticket and ticket set
(``Queue``); a table and its indexes, under WATCH (``Tables``) — and on a cluster a transaction or
a script may only touch keys of one slot. Players, names, inboxes, the rating cache and the pool
locks are single-key data: they keep their ``mm:`` names and spread over the cluster.

Before the tag, these keys were named ``mm:...``. ``migrate_legacy_keys`` renames the keys of a
deployment that ran the old names (a single Redis server: there is no older cluster deployment),
so no waiting ticket or open table is lost on upgrade; it runs when matchmaking starts, once.
"""
from __future__ import annotations

import logging

import redis

from shared.config import is_cluster

TAG = "{mm}"
# old prefix -> new prefix (the tables' index prefixes first: "mm:tables:" would not match "mm:table:")
LEGACY_PREFIXES = ("mm:tables:", "mm:table:", "mm:invites:", "mm:ticket:", "mm:pool:", "mm:pools",
                   "mm:live:", "mm:player-tickets:")
MIGRATED = f"{TAG}:legacy-keys-migrated"

log = logging.getLogger("matchmaking.slot")


def key(suffix: str) -> str:
    """A key in matchmaking's slot: ``{mm}:<suffix>``."""
    return f"{TAG}:{suffix}"


def migrate_legacy_keys(client: redis.Redis) -> int:
    """Rename every ``mm:...`` key of the old layout to its ``{mm}:...`` name (never over a key that
    already exists). Idempotent and cheap after its first run (a marker key). Returns keys renamed."""
    if is_cluster(client) or client.exists(MIGRATED):
        return 0
    renamed = 0
    for raw in client.scan_iter(match="mm:*", count=1000):
        old = raw.decode()
        if old.startswith(LEGACY_PREFIXES):
            try:
                renamed += bool(client.renamenx(old, TAG + old[len("mm"):]))
            except redis.ResponseError:  # renamed meanwhile by another starting process
                continue
    client.set(MIGRATED, "1")
    if renamed:
        log.warning("renamed %d matchmaking keys to the %s hash tag (one Redis Cluster slot)", renamed, TAG)
    return renamed
