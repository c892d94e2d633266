"""Redis-backed storage of match logs.

Keys of match M (hash-tagged, so one match lives in one Redis Cluster slot):

* ``{m:M}:log``   — the stream; entry id ``0-<seq>``, one field ``e`` holding the record's JSON
* ``{m:M}:meta``  — hash: version, head_hash, status, game, ... (a cache kept by every append)
* ``{m:M}:seed``  — the secret seed (hex)
* ``{m:M}:idem``  — hash: idempotency field -> the first response
* ``{m:M}:snaps`` — sorted set of state snapshots scored by version (a cache only)
* ``{m:M}:deadlines`` — hash seat -> when its pending decision is due (the rules service's clocks)

``append`` is one Lua script: it checks the expected version and head hash, replays a stored
idempotent response, adds the records and updates the meta hash, all or nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

import redis

from ..canonical import dumps, loads
from .chain import GENESIS, seal

_APPEND = """
local meta, log, idem = KEYS[1], KEYS[2], KEYS[3]
if ARGV[2] ~= '' then
  local prior = redis.call('HGET', idem, ARGV[2])
  if prior then return {'dup', prior} end
end
local current = tonumber(redis.call('HGET', meta, 'version') or '0')
if current ~= tonumber(ARGV[1]) then return {'conflict', tostring(current)} end
local head = redis.call('HGET', meta, 'head_hash') or ARGV[4]
if head ~= ARGV[5] then return {'conflict', tostring(current)} end
local nmeta = tonumber(ARGV[6])
local first = 7 + nmeta * 2
local v = current
for i = first, #ARGV do
  v = v + 1
  redis.call('XADD', log, '0-' .. v, 'e', ARGV[i])
end
redis.call('HSET', meta, 'version', v)
for i = 0, nmeta - 1 do
  redis.call('HSET', meta, ARGV[7 + 2 * i], ARGV[8 + 2 * i])
end
if ARGV[2] ~= '' then redis.call('HSET', idem, ARGV[2], ARGV[3]) end
return {'ok', tostring(v)}
"""


class Conflict(Exception):
    """The expected version is not the log's current version."""

    def __init__(self, current: int):
        super().__init__(f"the match is at version {current}")
        self.current = current


@dataclass
class AppendResult:
    version: int
    records: list[dict]
    duplicate: str | None = None  # the stored first response of a retried idempotent request


def keys(match_id: str) -> dict[str, str]:
    tag = f"{{m:{match_id}}}"
    return {k: f"{tag}:{k}" for k in ("log", "meta", "seed", "idem", "snaps", "deadlines")}


class EventStore:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._append = client.register_script(_APPEND)

    # ----- metadata ------------------------------------------------------------------------
    def exists(self, match_id: str) -> bool:
        return bool(self.r.exists(keys(match_id)["meta"]))

    def meta(self, match_id: str) -> dict[str, str]:
        raw = self.r.hgetall(keys(match_id)["meta"])
        return {k.decode(): v.decode() for k, v in raw.items()}

    def version(self, match_id: str) -> int:
        v = self.r.hget(keys(match_id)["meta"], "version")
        return int(v) if v is not None else 0

    def set_meta(self, match_id: str, **fields: str) -> None:
        self.r.hset(keys(match_id)["meta"], mapping=fields)

    # ----- the seed ------------------------------------------------------------------------
    def put_seed(self, match_id: str, seed: bytes) -> bytes:
        """Store the seed unless one exists; return the seed in force."""
        k = keys(match_id)["seed"]
        self.r.set(k, seed.hex(), nx=True)
        return bytes.fromhex(self.r.get(k).decode())

    def seed(self, match_id: str) -> bytes:
        raw = self.r.get(keys(match_id)["seed"])
        if raw is None:
            raise KeyError(match_id)
        return bytes.fromhex(raw.decode())

    # ----- the log -------------------------------------------------------------------------
    def append(
        self,
        match_id: str,
        expected_version: int,
        prev_hash: str,
        records: list[dict],
        seed: bytes,
        *,
        meta: dict[str, str] | None = None,
        idempotency_field: str | None = None,
        response: Callable[[list[dict]], str] | None = None,
    ) -> AppendResult:
        """Seal and append ``records`` (each with ``type``, ``data``, ``at``, ``engine`` and any of
        ``private``/``secret``/``cause``) after ``expected_version``; raises ``Conflict``."""
        sealed, prev = [], prev_hash
        for i, rec in enumerate(records, start=expected_version + 1):
            rec = dict(rec, seq=i)
            seal(rec, prev, seed)
            prev = rec["hash"]
            sealed.append(rec)
        fields = dict(meta or {})
        fields["head_hash"] = prev
        body = response(sealed) if response else ""
        k = keys(match_id)
        args: list = [expected_version, idempotency_field or "", body, GENESIS, prev_hash, len(fields)]
        for name, value in fields.items():
            args += [name, value]
        args += [dumps(rec) for rec in sealed]
        status, value = self._append(keys=[k["meta"], k["log"], k["idem"]], args=args)
        status = status.decode()
        if status == "dup":
            return AppendResult(version=-1, records=[], duplicate=value.decode())
        if status == "conflict":
            raise Conflict(int(value))
        return AppendResult(version=int(value), records=sealed)

    def read(self, match_id: str, after: int = 0, until: int | None = None, limit: int | None = None) -> list[dict]:
        """Records with ``after < seq <= until`` in order (at most ``limit``)."""
        hi = f"0-{until}" if until is not None else "+"
        entries = self.r.xrange(keys(match_id)["log"], f"0-{after + 1}", hi, count=limit)
        return [loads(fields[b"e"]) for _id, fields in entries]

    def idempotent_response(self, match_id: str, field: str) -> str | None:
        raw = self.r.hget(keys(match_id)["idem"], field)
        return raw.decode() if raw is not None else None

    # ----- snapshots (a cache: deleting them changes no answer) ----------------------------
    def save_snapshot(self, match_id: str, version: int, state: dict) -> None:
        self.r.zadd(keys(match_id)["snaps"], {dumps({"v": version, "s": state}): version})

    def latest_snapshot(self, match_id: str, at_most: int) -> tuple[int, dict] | None:
        found = self.r.zrevrangebyscore(keys(match_id)["snaps"], at_most, "-inf", start=0, num=1)
        if not found:
            return None
        snap = loads(found[0])
        return snap["v"], snap["s"]

    def delete_snapshots(self, match_id: str) -> None:
        self.r.delete(keys(match_id)["snaps"])

    def snapshots(self, match_id: str) -> dict[int, dict]:
        """Every stored snapshot, by version."""
        snaps = (loads(raw) for raw in self.r.zrange(keys(match_id)["snaps"], 0, -1))
        return {snap["v"]: snap["s"] for snap in snaps}

    def match_ids(self) -> Iterable[str]:
        for key in self.r.scan_iter(match="{m:*}:meta", count=500):
            yield key.decode()[3:].split("}")[0]
