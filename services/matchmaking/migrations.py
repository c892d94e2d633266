"""Matchmaking's schema migrations (area ``matchmaking``, ``shared.migrations``; docs/migrations.md).

1. ``{mm}`` hash tag: the queue's and the tables' keys, once ``mm:...``, move under ``{mm}:...``
   (one Redis Cluster slot for their transactions) — ``slot.migrate_legacy_keys``, which used to
   run on its own at every start (its marker ``{mm}:legacy-keys-migrated`` still counts).
2. Every registered name is taken: releases before unique names (2c4e00b and earlier) stored a
   player's name only in ``mm:player:<id>``; each is claimed in ``mm:names`` (normalised, HSETNX),
   the oldest registration first when two players share a name, so nobody can register an old
   player's name again. Names that the current rules would refuse (too long, control characters)
   are claimed too: their owners keep them.
3. Open tables follow consent and have today's indexes. Releases up to 2c4e00b let a host seat
   other players at an open table without asking and indexed open tables only by creation time;
   today a table carries ``updated_at`` (idle expiry) and is indexed by game, host, invitee and
   activity. Each open table without ``updated_at`` gets one (now: a full idle period from the
   upgrade), every seat of a player other than the host becomes an invitation to that player
   (``INVITE_TTL_S`` from now, told in their inbox: nobody stays seated without having accepted),
   and it is indexed as a table created today would be.
"""
from __future__ import annotations

import redis

from shared.canonical import dumps, loads
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


def _open_tables(client: redis.Redis) -> dict:
    import time

    from .inbox import Inbox
    from .settings import Limits
    from .tables import Tables, table_key

    now, ttl = time.time(), Limits().invite_ttl_s
    inbox = Inbox(client)
    converted = invited = 0
    for raw in client.scan_iter(match=table_key("*"), count=1000):
        blob = client.get(raw)
        try:
            table = loads(blob) if blob else None
        except ValueError:
            continue
        if not isinstance(table, dict) or table.get("status") != "open" or "updated_at" in table:
            continue
        asked = []
        for i, seat in enumerate(table["seats"]):
            if seat.get("player_id") and seat["player_id"] != table["host"]:
                table["seats"][i] = {"invited": seat["player_id"], "name": seat.get("name", seat["player_id"]),
                                     "expires_at": now + ttl}
                asked.append(i)
        table["updated_at"] = now
        pipe = client.pipeline(transaction=True)
        pipe.set(raw, dumps(table))
        Tables._index(pipe, table)
        pipe.execute()
        for i in asked:
            seat = table["seats"][i]
            inbox.post(seat["invited"], "invitation", {"table_id": table["table_id"], "game": table["game"],
                                                       "host": table["host"], "seat": i,
                                                       "expires_at": seat["expires_at"]})
        converted += 1
        invited += len(asked)
    return {"tables": converted, "invitations": invited}


MIGRATIONS = [
    Migration(1, "queue and table keys under the {mm} hash tag", _hash_tag),
    Migration(2, "every registered player's name is taken", _claim_names),
    Migration(3, "open tables of older releases ask their players and are indexed", _open_tables),
]
