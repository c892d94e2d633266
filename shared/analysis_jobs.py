"""Analysis jobs on the queue Redis: one record per (match, engine version, budget), its judged
decisions, and the chunk claims that let several workers share one match.

The rules service creates a job and enqueues its RQ jobs on the ``analysis`` queue; workers
(``services.analysis``) fill it in through this module and read the match only through the
public API; the rules service reads it back for ``GET /v1/matches/{id}/analysis``. Like an RQ
job's result it lives on the queue Redis (a plain server: RQ cannot use a cluster).

Keys (``<job>`` is ``<match>|<engine>|<budget>``):

* ``analysis:job:<job>`` — hash: ``status`` (queued, running, done, failed), ``match``, ``game``,
  ``engine``, ``budget``, ``seats``, ``total`` (decisions to judge, once a worker has counted them),
  ``error``;
* ``analysis:done:<job>`` — hash: decision index -> its verdict (JSON). Written with HSETNX as each
  decision is judged, so a worker killed mid-job loses at most the decision it was judging, and a
  decision judged twice (a claim taken over from a slow worker) is counted once;
* ``analysis:claim:<job>:<chunk>`` — the worker judging that chunk; it expires ``claim_ttl_s``
  after the worker's last judged decision, so a dead worker's chunk is taken over;
* ``analysis:status:<status>`` — sets of jobs per status, for the metrics.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

import redis

STATUSES = ("queued", "running", "done", "failed")
QUEUE = "analysis"


def claim_ttl_s() -> int:
    return int(os.environ.get("ANALYSIS_CLAIM_TTL_S", "120"))


def chunk_size() -> int:
    return max(1, int(os.environ.get("ANALYSIS_CHUNK", "4")))


def job_id(match_id: str, engine: str, budget: int) -> str:
    return f"{match_id}|{engine}|{budget}"


def _job_key(job: str) -> str:
    return f"analysis:job:{job}"


def _done_key(job: str) -> str:
    return f"analysis:done:{job}"


def _claim_key(job: str, chunk: int) -> str:
    return f"analysis:claim:{job}:{chunk}"


# KEYS[1]: the job hash, KEYS[2..]: the status sets; ARGV[1]: the new status, ARGV[2]: 1 to create
# the job only if absent (then ARGV[3..] are its fields), ARGV[2] 0: move it, unless it is done.
_SET_STATUS = """
local exists = redis.call('EXISTS', KEYS[1]) == 1
if ARGV[2] == '1' then
  if exists then return 0 end
  for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
elseif not exists then return 0
elseif redis.call('HGET', KEYS[1], 'status') == 'done' and ARGV[1] ~= 'done' then return 0 end
for i = 2, #KEYS do redis.call('SREM', KEYS[i], KEYS[1]) end
redis.call('HSET', KEYS[1], 'status', ARGV[1])
redis.call('SADD', 'analysis:status:' .. ARGV[1], KEYS[1])
return 1
"""
_STATUS_SETS = [f"analysis:status:{s}" for s in STATUSES]

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass
class Jobs:
    """The analysis records on the queue Redis ``r``."""

    r: redis.Redis

    def create(self, job: str, *, match_id: str, game: str, engine: str, budget: int, seats: int) -> bool:
        """Create the job, queued; False when it exists already (then nothing changes)."""
        fields = {"match": match_id, "game": game, "engine": engine, "budget": budget, "seats": seats}
        flat = [str(x) for kv in fields.items() for x in kv]
        return bool(self.r.eval(_SET_STATUS, 1 + len(_STATUS_SETS), _job_key(job), *_STATUS_SETS, "queued", "1", *flat))

    def set_status(self, job: str, status: str, error: str | None = None) -> bool:
        """Move the job to ``status`` (a done job stays done); False when it did not move."""
        moved = bool(self.r.eval(_SET_STATUS, 1 + len(_STATUS_SETS), _job_key(job), *_STATUS_SETS, status, "0"))
        if moved and error is not None:
            self.r.hset(_job_key(job), "error", error[:500])
        return moved

    def get(self, job: str) -> dict | None:
        raw = self.r.hgetall(_job_key(job))
        if not raw:
            return None
        out = {k.decode(): v.decode() for k, v in raw.items()}
        for k in ("budget", "seats", "total"):
            if k in out:
                out[k] = int(out[k])
        return out

    def set_total(self, job: str, total: int) -> None:
        self.r.hsetnx(_job_key(job), "total", total)

    def judged(self, job: str) -> dict[int, dict]:
        """Every decision judged so far: index -> verdict."""
        return {int(k): json.loads(v) for k, v in self.r.hgetall(_done_key(job)).items()}

    def judged_count(self, job: str) -> int:
        return int(self.r.hlen(_done_key(job)))

    def judged_indexes(self, job: str) -> set[int]:
        return {int(k) for k in self.r.hkeys(_done_key(job))}

    def record(self, job: str, index: int, verdict: dict) -> bool:
        """Store one judged decision; False when it was stored already (it is not counted twice)."""
        return bool(self.r.hsetnx(_done_key(job), index, json.dumps(verdict, sort_keys=True)))

    def claim(self, job: str, chunk: int, worker: str) -> bool:
        """Take a chunk for ``worker`` unless another holds it (a claim lives ``claim_ttl_s``)."""
        return bool(self.r.set(_claim_key(job, chunk), worker, nx=True, ex=claim_ttl_s()))

    def keep(self, job: str, chunk: int, worker: str) -> None:
        """Extend our claim after a judged decision."""
        self.r.set(_claim_key(job, chunk), worker, ex=claim_ttl_s(), xx=True)

    def release(self, job: str, chunk: int, worker: str) -> None:
        self.r.eval(_RELEASE, 1, _claim_key(job, chunk), worker)

    def counts(self) -> dict[str, int]:
        """How many jobs are in each status."""
        with self.r.pipeline(transaction=False) as pipe:
            for s in STATUSES:
                pipe.scard(f"analysis:status:{s}")
            return dict(zip(STATUSES, pipe.execute()))
