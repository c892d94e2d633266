"""Redis-backed storage of match logs.

Keys of match M (hash-tagged, so one match lives in one Redis Cluster slot):

* ``{m:M}:log``   — the stream; entry id ``0-<seq>``, one field ``e`` holding the record's JSON
* ``{m:M}:meta``  — hash: version, head_hash, status, game, ... and ``tail``, the last append's
  records as the stream holds them (a JSON list) (a cache kept by every append)
* ``{m:M}:seed``  — the secret seed (hex)
* ``{m:M}:idem:<seat>:<key>`` — one string per Idempotency-Key of a seat, expiring on its own:
  ``pending <fingerprint> <token>`` while its request runs (``PENDING_TTL_S``), then
  ``done <fingerprint> <response>`` for ``IDEMPOTENCY_TTL_S`` (24 h)
* ``{m:M}:snaps`` — sorted set of state snapshots scored by version (a cache only)
* ``{m:M}:audit`` — the audit of the log up to one head hash (a cache only)
* ``{m:M}:deadlines`` — hash seat -> when its pending decision is due (the rules service's clocks)
* ``{m:M}:packed`` — a finished match's log once compacted (``shared.eventstore.compaction``):
  the stream, the snapshots and the deadlines are then gone, and ``read`` serves this blob

``append`` is one Lua script: it checks the expected version and head hash, replays a stored
idempotent response, adds the records, updates the meta hash, stores the idempotent response and
makes the caller's side writes (``SideWrites``: follow-up intents, player notices, turn clocks),
all or nothing: an accepted move is one durable write. ``head_read`` is one round trip: the head,
the damage marker, the clocks, the last append's records (a process one append behind folds them)
and (when asked) the seed's presence, which is all a read of a cached match costs;
``read_with_seed`` brings the seed with the records a state is folded from.
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

import redis
from redis.cluster import RedisCluster

from ..canonical import dumps, loads
from ..lru import Lru
from .chain import GENESIS, seal
from .damage import DamagedLog
from .packed import CorruptLog, packed_lines

MAX_SEQ = 2 ** 53              # no log gets near it; larger seqs in requests are refused (JSON-safe)
IDEMPOTENCY_TTL_S = 24 * 3600  # an Idempotency-Key's answer is kept this long (IETF draft)
PENDING_TTL_S = 60             # a claim outlives no request (a crashed process frees its keys)
PACKED_CACHE = 16              # decoded compacted logs kept per process (paging through one decodes it once)

# KEYS: meta, log, idempotency key, then the keys the side writes name (``SideWrites``).
# ARGV: expected version, fingerprint ('' without a key), response, GENESIS, prev hash, key ttl,
#       side writes (JSON, '' for none), number of meta fields, meta name/value pairs..., records...
# A key that holds an answer returns it ('dup'), one still pending in an older release's claim
# returns 'pending'; neither appends anything. A fresh key costs one command: the head is checked
# first (a retry of an answered move finds the match moved on, then the key is read), then the
# answer is written with SET ... NX, which fails for a key that holds something (its answer is
# then returned and nothing is appended). A record the stream refuses (a stream ahead of its
# meta) removes that answer again, so no key ever answers a move the log does not hold.
_APPEND = """
local meta, log, idem = KEYS[1], KEYS[2], KEYS[3]
local SIDE = {zadd = true, zaddnx = true, zrem = true, xadd = true, clock = true}
local keyed = ARGV[2] ~= ''
local function prior_answer()  -- what the key holds, as the answer; nil when it holds nothing
  local prior = redis.call('GET', idem)
  if not prior then return nil end
  if string.sub(prior, 1, 5) == 'done ' then return {'dup', prior} end
  return {'pending', prior}
end
local h = redis.call('HMGET', meta, 'version', 'head_hash')
local current = tonumber(h[1] or '0')
local head = h[2] or ARGV[4]
if current ~= tonumber(ARGV[1]) or head ~= ARGV[5] then  -- a retry of an answered key, or a conflict
  return (keyed and prior_answer()) or {'conflict', tostring(current)}
end
local ops = nil
if ARGV[7] ~= '' then  -- checked before anything is written (a script is not rolled back)
  ops = cjson.decode(ARGV[7])
  for _, op in ipairs(ops) do
    if not SIDE[op[1]] then return redis.error_reply('unknown side write ' .. tostring(op[1])) end
  end
end
-- the answer is stored only if the key holds nothing (one command for the check and the write);
-- a key that holds something is answered from it, and nothing is appended
if keyed and not redis.call('SET', idem, 'done ' .. ARGV[2] .. ' ' .. ARGV[3], 'EX', ARGV[6], 'NX') then
  return prior_answer() or {'conflict', tostring(current)}
end
local nmeta = tonumber(ARGV[8])
local first = 9 + nmeta * 2
local v = current
for i = first, #ARGV do
  v = v + 1
  local added = redis.pcall('XADD', log, '0-' .. v, 'e', ARGV[i])
  if type(added) == 'table' and added.err then  -- a stream ahead of its meta: nothing is answered
    if keyed then redis.call('DEL', idem) end
    return added
  end
end
-- the head, this append's records (the tail a reader one append behind folds from) and the meta
-- fields in one HSET
local tail = {}
for i = first, #ARGV do tail[#tail + 1] = ARGV[i] end
local fields = {'version', v, 'tail', '[' .. table.concat(tail, ',') .. ']'}
for i = 0, nmeta - 1 do
  fields[#fields + 1] = ARGV[9 + 2 * i]
  fields[#fields + 1] = ARGV[10 + 2 * i]
end
redis.call('HSET', meta, unpack(fields))
if ops then
  for _, op in ipairs(ops) do
    local name, key = op[1], KEYS[tonumber(op[2])]
    if name == 'zadd' then redis.call('ZADD', key, op[3], op[4])
    elseif name == 'zaddnx' then redis.call('ZADD', key, 'NX', op[3], op[4])
    elseif name == 'zrem' then redis.call('ZREM', key, op[3])
    elseif name == 'xadd' then redis.call('XADD', key, 'MAXLEN', '~', op[3], '*', op[4], op[5])
    elseif name == 'clock' then
      -- op: 'clock', clocks hash, due set, moved seat ('' none), '1' when over, due time,
      --     then seat/member pairs of every seat now waiting (member: its entry in the due set)
      local clocks, dueset = key, KEYS[tonumber(op[3])]
      if op[4] ~= '' then redis.call('HDEL', clocks, op[4]) end
      if op[5] == '1' then redis.call('DEL', clocks) else
        local waiting = {}
        for i = 7, #op, 2 do waiting[op[i]] = op[i + 1] end
        local current_clocks = redis.call('HGETALL', clocks)
        local armed = {}
        for i = 1, #current_clocks, 2 do
          local seat = current_clocks[i]
          if waiting[seat] then armed[seat] = true else redis.call('HDEL', clocks, seat) end
        end
        for i = 7, #op, 2 do
          if not armed[op[i]] then
            redis.call('ZADD', dueset, op[6], op[i + 1])
            redis.call('HSET', clocks, op[i], op[6])
          end
        end
      end
    end
  end
end
return {'ok', tostring(v)}
"""

# The head as one read (a cached read costs this and nothing more): version, head hash, damage
# marker, whether the seed exists (asked only when ARGV[1] is '1', else -1), whether a log exists
# (asked only without a meta), the match's clocks (the deadlines hash, flat) and the last append's
# records (``HEAD_FIELDS``).
_HEAD = """
local h = redis.call('HMGET', KEYS[1], 'version', 'head_hash', 'damaged', 'tail')
local seed = -1
if ARGV[1] == '1' then seed = redis.call('EXISTS', KEYS[2]) end
local haslog = 1
if not h[1] then haslog = redis.call('EXISTS', KEYS[3], KEYS[4]) end
return {h[1], h[2], h[3], seed, haslog, redis.call('HGETALL', KEYS[5]), h[4]}
"""
HEAD_FIELDS = ["version", "head_hash", "damaged", "tail"]  # of the meta, as a head read asks them

# Claim an Idempotency-Key: the stored value when the key is taken, else nothing (and it is ours).
_CLAIM = """
local prior = redis.call('GET', KEYS[1])
if prior then return prior end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return false
"""

# Free a claim that produced no answer (only our own, still pending).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class IdempotentRequest:
    """What an Idempotency-Key holds: a request still running, or its stored answer."""
    done: bool
    fingerprint: str
    response: str | None = None  # the stored answer (JSON) once done

    @classmethod
    def parse(cls, raw: bytes | str) -> IdempotentRequest:
        text = raw.decode() if isinstance(raw, bytes) else raw
        state, fingerprint, rest = text.split(" ", 2)
        return cls(state == "done", fingerprint, rest if state == "done" else None)


class Conflict(Exception):
    """The expected version is not the log's current version."""

    def __init__(self, current: int):
        super().__init__(f"the match is at version {current}")
        self.current = current


class Head(NamedTuple):
    """A match's head as one read gives it (``EventStore.head_read``)."""
    version: int           # 0 when there is no meta
    head_hash: str | None
    damaged: str | None    # the damage marker a read left in the meta
    has_seed: bool | None  # None when the read did not ask (``head_read(seed=False)``)
    has_log: bool          # with version 0: a log without its meta (damaged) rather than no match
    clocks: dict[int, float]  # seat -> when its pending decision is due (``{m:M}:deadlines``)
    tail: bytes | None = None  # the last append's records as the append wrote them (a JSON list)

    def tail_records(self, after: int) -> list[dict] | None:
        """The records after version ``after`` up to this head, from the last append's tail,
        when it holds exactly those (None else: the reader is further behind, or the meta has no
        tail, as a match last changed by an older release): what a process one append behind the
        head folds from instead of reading the log. They are the stream's records, byte for byte;
        the caller checks, as for the stream's, that they follow its state (seq and prev_hash)."""
        if not self.tail or after >= self.version:
            return None
        try:
            found = loads(self.tail)
        except ValueError:
            return None
        if not (isinstance(found, list) and found and all(isinstance(r, dict) for r in found)):
            return None
        if found[0].get("seq") != after + 1 or found[-1].get("seq") != self.version \
                or found[-1].get("hash") != self.head_hash:
            return None
        return found


@dataclass
class AppendResult:
    version: int
    records: list[dict]
    duplicate: str | None = None  # the stored first response of a retried idempotent request
    duplicate_fingerprint: str | None = None  # the body fingerprint that first response answered


class KeyPending(Exception):
    """The Idempotency-Key is held by a claim still pending (an older release's request)."""

    def __init__(self, prior: IdempotentRequest):
        super().__init__("a request with this Idempotency-Key is still being processed")
        self.prior = prior


class SideWrites:
    """Writes outside the log that an append makes in the same script call, so that an accepted
    move costs the store one durable write: follow-up intents, notices, clocks. Each names its
    keys by value; on a Redis Cluster they must all share the match's slot (``EventStore.append``
    refuses them otherwise). Applied only when the append is (never for a conflict or a replay)."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.ops: list[list] = []

    def __bool__(self) -> bool:
        return bool(self.ops)

    def _key(self, key: str) -> int:
        if key not in self.keys:
            self.keys.append(key)
        return 4 + self.keys.index(key)  # after meta, log and the idempotency key

    def zadd(self, key: str, member: str, score: float, *, nx: bool = False) -> None:
        self.ops.append(["zaddnx" if nx else "zadd", self._key(key), repr(float(score)), member])

    def zrem(self, key: str, member: str) -> None:
        self.ops.append(["zrem", self._key(key), member])

    def xadd(self, key: str, field: str, value: str, *, maxlen: int) -> None:
        """An entry (id ``*``) on a stream capped at about ``maxlen``."""
        self.ops.append(["xadd", self._key(key), str(int(maxlen)), field, value])

    def clock(self, clocks: str, due_set: str, *, moved: int | None, over: bool, due: float,
              waiting: dict[int, str]) -> None:
        """Turn clocks: drop ``moved``'s (it acted), all of them when ``over``; drop those of seats
        no longer ``waiting``; arm each waiting seat that has none (``clocks[seat] = due`` and its
        member ``waiting[seat]`` in ``due_set`` at ``due``); a clock already running keeps its time."""
        op = ["clock", self._key(clocks), self._key(due_set), "" if moved is None else str(moved),
              "1" if over else "0", repr(float(due))]
        for seat, member in sorted(waiting.items()):
            op += [str(seat), member]
        self.ops.append(op)


SNAPSHOTS_TRIED = 4  # snapshots a read looks through for one the installed code made


@functools.lru_cache(maxsize=4096)
def keys(match_id: str) -> Mapping[str, str]:
    """The match's keys by role (one read-only mapping per match, made once per process)."""
    tag = f"{{m:{match_id}}}"
    roles = ("log", "meta", "seed", "idem", "snaps", "audit", "deadlines", "packed")
    return MappingProxyType({k: f"{tag}:{k}" for k in roles})


def idempotency_key(match_id: str, field: str) -> str:
    """The string holding one Idempotency-Key (``field`` = ``<seat>:<key>``), in the match's slot."""
    return f"{keys(match_id)['idem']}:{field}"


class EventStore:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._append = client.register_script(_APPEND)
        self._head = client.register_script(_HEAD)
        self._claim = client.register_script(_CLAIM)
        self._release = client.register_script(_RELEASE)
        self._packed = Lru(PACKED_CACHE)  # match id -> (blob, its records as JSON lines)

    # ----- metadata ------------------------------------------------------------------------
    def exists(self, match_id: str) -> bool:
        return bool(self.r.exists(keys(match_id)["meta"]))

    def meta(self, match_id: str) -> dict[str, str]:
        raw = self.r.hgetall(keys(match_id)["meta"])
        return {k.decode(): v.decode() for k, v in raw.items()}

    def version(self, match_id: str) -> int:
        v = self.r.hget(keys(match_id)["meta"], "version")
        return int(v) if v is not None else 0

    def head(self, match_id: str) -> tuple[int, str | None]:
        """(version, head hash) as Redis has them now, in one round trip; (0, None) for no match."""
        version, head_hash = self.r.hmget(keys(match_id)["meta"], ["version", "head_hash"])
        return (int(version), head_hash.decode() if head_hash else None) if version is not None else (0, None)

    def head_status(self, match_id: str) -> tuple[int, str | None, str | None, bool, bool]:
        """(version, head hash, damage marker, the seed exists, a log exists) in one call;
        version 0 when there is no meta (then "a log exists" tells a damaged match from none:
        the meta and the stream are written together, and the blob only while the meta is there)."""
        return self.head_read(match_id)[:5]

    def head_read(self, match_id: str, *, clocks: bool = True, seed: bool = True) -> Head:
        """``head_status`` and the match's turn clocks (seat -> due time) in one round trip: a read
        of a match whose state the process has cached costs this and nothing more. With ``clocks``
        it is one script call (the head and the clocks read at one instant); without (a match that
        has no turn clock, so no clocks to read), HMGET of the head, with EXISTS of the seed in
        the same pipeline when ``seed``, and a second round trip only when the meta is missing.
        ``seed=False``: the seed's presence is not asked (``has_seed`` is None); a reader whose
        state is current needs nothing of the seed, and ``read_with_seed`` checks it where a state
        is built from the log."""
        k = keys(match_id)
        if clocks:
            version, head_hash, damaged, has_seed, has_log, flat, tail = self._head(
                keys=[k["meta"], k["seed"], k["log"], k["packed"], k["deadlines"]], args=["1" if seed else "0"])
        else:
            if seed:
                pipe = self.r.pipeline(transaction=False)
                pipe.hmget(k["meta"], HEAD_FIELDS)
                pipe.exists(k["seed"])
                (version, head_hash, damaged, tail), has_seed = pipe.execute()
            else:
                (version, head_hash, damaged, tail), has_seed = self.r.hmget(k["meta"], HEAD_FIELDS), -1
            flat = []
            has_log = 1 if version is not None else self.r.exists(k["log"], k["packed"])
        found = {int(flat[i]): float(flat[i + 1]) for i in range(0, len(flat), 2)}
        seeded = None if int(has_seed) < 0 else bool(has_seed)
        if version is None:
            return Head(0, None, None, seeded, bool(has_log), found)
        return Head(int(version), head_hash.decode() if head_hash else None, damaged.decode() if damaged else None,
                    seeded, True, found, tail)

    def mark_damaged(self, match_id: str, damage: DamagedLog) -> None:
        """Remember in the meta that a read met this damage (every process then answers it at
        once); only while the meta exists. The audit, which reads everything again, clears it."""
        k = keys(match_id)["meta"]
        if self.r.exists(k):
            self.r.hset(k, "damaged", damage.marker())

    def clear_damaged(self, match_id: str) -> None:
        self.r.hdel(keys(match_id)["meta"], "damaged")

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
            if self.exists(match_id):  # the meta is written after the seed: the seed was lost
                raise DamagedLog(match_id, None, "the match's seed is missing")
            raise KeyError(match_id)
        try:
            return bytes.fromhex(raw.decode())
        except ValueError:
            raise DamagedLog(match_id, None, "the match's seed is not hex") from None

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
        fingerprint: str = "-",
        response: Callable[[list[dict]], str] | None = None,
        idempotency_ttl_s: int = IDEMPOTENCY_TTL_S,
        side: SideWrites | None = None,
    ) -> AppendResult:
        """Seal and append ``records`` (each with ``type``, ``data``, ``at``, ``engine`` and any of
        ``private``/``secret``/``cause``) after ``expected_version``; raises ``Conflict``.

        With ``idempotency_field``, the answer ``response`` gives is stored with the request's
        ``fingerprint`` under that key, and a key already answered returns its stored answer
        (``duplicate``, with ``duplicate_fingerprint``) instead of appending; the answer is kept
        ``idempotency_ttl_s``; a key an older release's claim holds raises ``KeyPending``.
        ``side``: writes made in the same call when the records are appended (one durable write).
        One script call in all: on ``appendfsync always``, one fsync."""
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
        idem = idempotency_key(match_id, idempotency_field) if idempotency_field else k["idem"]
        side_keys = side.keys if side else []
        if side_keys and isinstance(self.r, RedisCluster):
            slot = self.r.keyslot(k["meta"])
            strays = [key for key in side_keys if self.r.keyslot(key) != slot]
            if strays:
                raise ValueError(f"side writes outside the match's slot on a cluster: {strays}")
        args: list = [expected_version, fingerprint if idempotency_field else "", body, GENESIS, prev_hash,
                      int(idempotency_ttl_s), dumps(side.ops) if side else "", len(fields)]
        for name, value in fields.items():
            args += [name, value]
        args += [dumps(rec) for rec in sealed]
        status, value = self._append(keys=[k["meta"], k["log"], idem, *side_keys], args=args)
        status = status.decode()
        if status == "dup":
            prior = IdempotentRequest.parse(value)
            return AppendResult(version=-1, records=[], duplicate=prior.response,
                                duplicate_fingerprint=prior.fingerprint)
        if status == "pending":
            raise KeyPending(IdempotentRequest.parse(value))
        if status == "conflict":
            raise Conflict(int(value))
        return AppendResult(version=int(value), records=sealed)

    def read(self, match_id: str, after: int = 0, until: int | None = None, limit: int | None = None) -> list[dict]:
        """Records with ``after < seq <= until`` in order (at most ``limit``), from the stream or,
        once the match is compacted, from its compact log (the same records, byte for byte)."""
        found = self.read_stream(match_id, after, until, limit)
        return self._or_packed(match_id, found, after, until, limit)

    def read_with_seed(self, match_id: str, after: int = 0, until: int | None = None) -> tuple[list[dict], bytes | None]:
        """``read`` and the match's seed as stored (its hex, None when it is missing) in one round
        trip (a pipeline of the stream's range and the seed): what a state built or advanced
        from the log reads. A missing seed with a meta is damage the caller answers; the records
        are not parsed then (``DamagedLog`` of the seed comes first)."""
        k = keys(match_id)
        hi = f"0-{until}" if until is not None else "+"
        pipe = self.r.pipeline(transaction=False)
        pipe.xrange(k["log"], f"0-{after + 1}", hi)
        pipe.get(k["seed"])
        entries, seed_hex = pipe.execute()
        if seed_hex is None:
            return [], None
        found = [parse_entry(match_id, entry_id, fields) for entry_id, fields in entries]
        return self._or_packed(match_id, found, after, until, None), seed_hex

    def _or_packed(self, match_id: str, found: list[dict], after: int, until: int | None,
                   limit: int | None) -> list[dict]:
        """``found`` (from the stream), or, when the stream had none, the compacted log's records."""
        if found or (limit is not None and limit <= 0) or (until is not None and until <= after):
            return found
        lines = self._packed_lines(match_id)  # nothing in the stream: none there, or compacted
        if lines is None:
            return []
        stop = len(lines) if until is None else min(until, len(lines))
        if limit is not None:
            stop = min(stop, after + limit)
        return [loads(line) for line in lines[max(after, 0):stop]]

    def read_stream(self, match_id: str, after: int = 0, until: int | None = None,
                    limit: int | None = None) -> list[dict]:
        """``read`` from the stream only (empty once the match is compacted)."""
        hi = f"0-{until}" if until is not None else "+"
        entries = self.r.xrange(keys(match_id)["log"], f"0-{after + 1}", hi, count=limit)
        return [parse_entry(match_id, entry_id, fields) for entry_id, fields in entries]

    def ends(self, match_id: str) -> tuple[dict, dict] | None:
        """The log's first record (``match.created``) and its last; None for no log."""
        first = self.read(match_id, limit=1)
        if not first:
            return None
        version = self.version(match_id)
        last = self.read(match_id, after=version - 1, limit=1) if version > 1 else first
        return first[0], (last[-1] if last else first[0])

    def _packed_lines(self, match_id: str) -> list[str] | None:
        """The compacted log's records as JSON lines (None when the match has none), decoded once
        per process while it stays in a small cache (the blob and the seed are compared, so a
        replaced match id is never served from the cache). Raises ``DamagedLog`` for a blob that
        is damaged, cut short or gone while the meta says compacted, or a missing seed; a damaged
        log is never cached."""
        k = keys(match_id)
        pipe = self.r.pipeline(transaction=False)
        pipe.get(k["packed"])
        pipe.get(k["seed"])
        pipe.hget(k["meta"], "compacted")
        blob, seed_hex, compacted = pipe.execute()
        if blob is None:
            self._packed.drop(match_id)
            if compacted is not None:
                raise DamagedLog(match_id, 1, "the compacted log is gone (the meta says compacted)")
            return None
        cached = self._packed.get(match_id)
        if cached is not None and cached[0] == (blob, seed_hex):
            return cached[1]
        self._packed.drop(match_id)
        if seed_hex is None:
            raise DamagedLog(match_id, None, "the match's seed is missing: the compacted log cannot be read")
        try:
            lines = packed_lines(blob, bytes.fromhex(seed_hex.decode()))
        except CorruptLog as err:
            raise DamagedLog(match_id, err.seq, f"the compacted log: {err.reason}") from None
        except ValueError:
            raise DamagedLog(match_id, None, "the match's seed is not hex") from None
        self._packed.put(match_id, ((blob, seed_hex), lines))
        return lines

    # ----- idempotency keys ----------------------------------------------------------------
    def claim_idempotency(self, match_id: str, field: str, fingerprint: str, token: str) -> IdempotentRequest | None:
        """Take the key for a request with this body ``fingerprint``: None when it is now ours
        (pending, identified by ``token``), else what the key already holds."""
        prior = self._claim(keys=[idempotency_key(match_id, field)],
                            args=[f"pending {fingerprint} {token}", PENDING_TTL_S])
        return IdempotentRequest.parse(prior) if prior else None

    def release_idempotency(self, match_id: str, field: str, fingerprint: str, token: str) -> None:
        """Free our pending claim on a key whose request produced no answer to keep."""
        self._release(keys=[idempotency_key(match_id, field)], args=[f"pending {fingerprint} {token}"])

    def idempotent_request(self, match_id: str, field: str) -> IdempotentRequest | None:
        raw = self.r.get(idempotency_key(match_id, field))
        return IdempotentRequest.parse(raw) if raw is not None else None

    # ----- the audit (a cache: deleting it changes no answer) ------------------------------
    # Both caches carry the ``layout`` of what made them (``shared.envelope.state_layout``: engine
    # version and code fingerprint); one made by other code (an earlier release) is ignored.
    def cached_audit(self, match_id: str, digest: str, layout: str) -> dict | None:
        """What the audit stored for exactly this content (``digest``: of the records, the seed,
        the snapshots and the served state it checked), made by code of this ``layout``."""
        raw = self.r.get(keys(match_id)["audit"])
        if raw is None:
            return None
        try:
            stored = loads(raw)
        except ValueError:
            return None
        fresh = isinstance(stored, dict) and stored.get("digest") == digest and stored.get("layout") == layout
        return stored["audit"] if fresh else None

    def save_audit(self, match_id: str, digest: str, audit: dict, layout: str) -> None:
        self.r.set(keys(match_id)["audit"], dumps({"digest": digest, "layout": layout, "audit": audit}))

    # ----- snapshots (a cache: deleting them changes no answer) ----------------------------
    def save_snapshot(self, match_id: str, version: int, state: dict, layout: str) -> None:
        self.r.zadd(keys(match_id)["snaps"], {dumps({"v": version, "layout": layout, "s": state}): version})

    def latest_snapshot(self, match_id: str, at_most: int, layout_of) -> tuple[int, dict] | None:
        """The newest snapshot at or before ``at_most`` whose layout is ``layout_of(state)`` (the
        layout the code installed now gives that state); older code's snapshots are passed over
        (among the nearest few: past those, the fold starts from the log's beginning)."""
        found = self.r.zrevrangebyscore(keys(match_id)["snaps"], at_most, "-inf", start=0, num=SNAPSHOTS_TRIED)
        for raw in found:
            snap = loads(raw)
            if snap.get("layout") is not None and snap["layout"] == layout_of(snap["s"]):
                return snap["v"], snap["s"]
        return None

    def delete_snapshots(self, match_id: str) -> None:
        self.r.delete(keys(match_id)["snaps"])

    def snapshots(self, match_id: str, layout: str) -> dict[int, dict]:
        """Every stored snapshot made by code of ``layout``, by version."""
        snaps = (loads(raw) for raw in self.r.zrange(keys(match_id)["snaps"], 0, -1))
        return {snap["v"]: snap["s"] for snap in snaps if snap.get("layout") == layout}

    def match_ids(self) -> Iterable[str]:
        for key in self.r.scan_iter(match="{m:*}:meta", count=500):
            yield key.decode()[3:].split("}")[0]


def parse_entry(match_id: str, entry_id: bytes, fields: dict) -> dict:
    """One stream entry's record; ``DamagedLog`` naming it when it does not parse."""
    seq_text = entry_id.decode().rpartition("-")[2]
    seq = int(seq_text) if seq_text.isdigit() else None
    raw = fields.get(b"e")
    if raw is None:
        raise DamagedLog(match_id, seq, "the stream entry holds no record")
    try:
        rec = loads(raw)
    except ValueError as err:  # not JSON, not UTF-8
        raise DamagedLog(match_id, seq, f"does not parse ({err})") from None
    if not isinstance(rec, dict) or not isinstance(rec.get("type"), str) or not isinstance(rec.get("data"), dict):
        raise DamagedLog(match_id, seq, "is not a record (a JSON object with a type and data)")
    return rec
