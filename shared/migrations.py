"""Schema versions of the stored data and the migrations between them (``docs/migrations.md``).

Stored data other than the match logs changes only through migrations that run once, at start,
idempotently, logged. The data is split in *areas*, each owned by one part of the system, and each
area carries its own schema version in a key of its own (a plain string, so it works on a Redis
Cluster, where one key lives in one slot and an area's keys may spread over many):

* ``schema:<area>``      — the area's schema version (absent: 0, data of a release before versions)
* ``schema:<area>:lock`` — held (``SET NX PX``) by the one process migrating the area
* ``schema:<area>:log``  — a list, one JSON line per migration applied (version, name, when, by
  whom, how long, what it did)

A migration is a numbered step ``(version, name, function)``; ``function(client)`` brings data of
version ``version - 1`` (or of any earlier release) to ``version`` and returns a small JSON-able
report. Every function is idempotent — it may be run again on data it already migrated (a process
that died midway, two operators) and then changes nothing — because the version key is only
written after the function returned.

``ensure(client, area, migrations)`` runs at the start of every process that uses an area: when
the stored version is the newest it returns at once (one ``GET``); otherwise the first process to
take the area's lock migrates, one step at a time, and every other process starting meanwhile
waits until the version is written (or the lock falls free — its holder died — and takes it
itself). A stored version newer than the code knows is refused (``SchemaTooNew``): a downgrade is
not supported. No existing tool fitted (see ``docs/migrations.md``), hence this small module.
"""
from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import redis

from .config import CLUSTER_OUTAGE

log = logging.getLogger("migrations")

LOCK_TTL_MS = 120_000      # a migrator renews it after every step; a dead one frees the area this long after
WAIT_POLL_S = 0.2
WAIT_TIMEOUT_S = 1800.0    # how long a process waits for another process's migration of its area
REDIS_WAIT_S = 120.0       # how long start-up waits for the store to answer at all

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    apply: Callable[[redis.Redis], object]


class SchemaTooNew(RuntimeError):
    """The store holds data of a newer schema than this code knows (a downgrade)."""


def version_key(area: str) -> str:
    return f"schema:{area}"


def lock_key(area: str) -> str:
    return f"schema:{area}:lock"


def log_key(area: str) -> str:
    return f"schema:{area}:log"


def current_version(client: redis.Redis, area: str) -> int:
    raw = client.get(version_key(area))
    return int(raw) if raw is not None else 0


def target(migrations: Sequence[Migration]) -> int:
    return migrations[-1].version if migrations else 0


def check(migrations: Sequence[Migration]) -> None:
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise ValueError(f"migrations must be numbered 1, 2, 3... in order; got {versions}")


def history(client: redis.Redis, area: str) -> list[dict]:
    return [json.loads(raw) for raw in client.lrange(log_key(area), 0, -1)]


def ensure(client: redis.Redis, area: str, migrations: Sequence[Migration], *,
           wait_timeout_s: float = WAIT_TIMEOUT_S) -> list[dict]:
    """Bring ``area`` to the newest version of ``migrations``; returns the steps this process
    applied (empty when the data was current or another process migrated it)."""
    check(migrations)
    newest = target(migrations)
    deadline = time.time() + REDIS_WAIT_S
    while True:
        try:
            return _ensure(client, area, migrations, newest, wait_timeout_s)
        except (redis.ConnectionError, redis.TimeoutError, redis.exceptions.BusyLoadingError, *CLUSTER_OUTAGE):
            if time.time() > deadline:
                raise
            log.warning("schema %s: the store does not answer yet; waiting", area)
            time.sleep(1.0)


def _ensure(client, area, migrations, newest, wait_timeout_s) -> list[dict]:
    applied: list[dict] = []
    give_up = time.time() + wait_timeout_s
    while True:
        version = current_version(client, area)
        if version > newest:
            raise SchemaTooNew(f"the store's {area!r} data is at schema version {version}; this release knows "
                               f"versions up to {newest} (downgrades are not supported)")
        if version == newest:
            return applied
        token = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(4)}"
        if client.set(lock_key(area), token, nx=True, px=LOCK_TTL_MS):
            try:
                applied += _migrate(client, area, migrations, token)
            finally:
                client.eval(_RELEASE, 1, lock_key(area), token)
            continue
        if time.time() > give_up:
            raise TimeoutError(f"schema {area}: another process has held the migration lock for over "
                               f"{wait_timeout_s:.0f} s")
        time.sleep(WAIT_POLL_S)


def _migrate(client, area, migrations, token) -> list[dict]:
    applied = []
    version = current_version(client, area)  # read again under the lock
    for step in migrations:
        if step.version <= version:
            continue
        log.warning("schema %s: migrating to version %d (%s)", area, step.version, step.name)
        t0 = time.time()
        report = step.apply(client)
        entry = {"area": area, "version": step.version, "name": step.name, "at": t0,
                 "seconds": round(time.time() - t0, 3), "by": token.rsplit("-", 1)[0], "report": report}
        pipe = client.pipeline(transaction=False)
        pipe.rpush(log_key(area), json.dumps(entry, sort_keys=True, default=str))
        pipe.set(version_key(area), step.version)
        pipe.execute()
        client.eval(_RENEW, 1, lock_key(area), token, LOCK_TTL_MS)
        log.warning("schema %s: now at version %d (%s, %.2f s): %s", area, step.version, step.name,
                    entry["seconds"], json.dumps(report, sort_keys=True, default=str))
        applied.append(entry)
    return applied
