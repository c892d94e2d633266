"""Matchmaking's schema migrations (area ``matchmaking``, ``shared.migrations``; docs/migrations.md).

1. ``{mm}`` hash tag: the queue's and the tables' keys, once ``mm:...``, move under ``{mm}:...``
   (one Redis Cluster slot for their transactions) — ``slot.migrate_legacy_keys``, which used to
   run on its own at every start (its marker ``{mm}:legacy-keys-migrated`` still counts).
2. Every registered name is taken: releases before unique names (2c4e00b and earlier) stored a
   player's name only in ``mm:player:<id>``; each is claimed in ``mm:names`` (normalised, HSETNX),
   the oldest registration first when two players share a name, so nobody can register an old
   player's name again. Names that the current rules would refuse (too long, control characters)
   are claimed too: their owners keep them.
"""
from __future__ import annotations

import redis

from shared.migrations import Migration

from .players import NAMES, normalise
from .slot import migrate_legacy_keys


def _hash_tag(client: redis.Redis) -> dict:
    return {"renamed": migrate_legacy_keys(client)}


def _claim_names(client: redis.Redis) -> dict:
    players = []
    for raw in client.scan_iter(match="mm:player:*", count=1000):
        key = raw.decode()
        player_id = key[len("mm:player:"):]
        if ":" in player_id:
            continue
        name, created = client.hmget(key, "name", "created_at")
        if name is None:
            continue
        players.append((float(created or 0), player_id, name.decode()))
    claimed = shared = 0
    for _created, player_id, name in sorted(players):
        owner = client.hget(NAMES, normalise(name))
        if owner is None:
            claimed += client.hsetnx(NAMES, normalise(name), player_id)
        elif owner.decode() != player_id:
            shared += 1  # an older player holds the same name: it stays taken
    return {"players": len(players), "claimed": claimed, "duplicates": shared}


MIGRATIONS = [
    Migration(1, "queue and table keys under the {mm} hash tag", _hash_tag),
    Migration(2, "every registered player's name is taken", _claim_names),
]
