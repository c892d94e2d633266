"""Analysis as RQ jobs on the ``analysis`` queue: ``analyse(job)`` judges a finished match.

The worker reads the match only through the public API (its export, public once the match has
ended) and writes only to the queue Redis (``shared.analysis_jobs``). The rules service enqueues
several RQ jobs per analysis; each runs this same loop, claiming chunks of decisions atomically
until every decision is judged, so several workers finish one match sooner. Each verdict is
stored as soon as it is made: a worker killed mid-job loses only the decision it was on, and its
claim expires so another worker's loop takes the chunk over (it skips what is stored). The last
loop to see every decision judged marks the job done.
"""
from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from functools import lru_cache

from rq import get_current_job

from shared import metrics
from shared.analysis_jobs import Jobs, chunk_size
from shared.bots import analysis
from shared.config import load, queue_client
from shared.export import parse
from tabletop_client import Tabletop

log = logging.getLogger("analysis")
WAIT_S = 0.2  # between looks at chunks other workers hold


@lru_cache(maxsize=1)
def _client() -> Tabletop:
    return Tabletop(rules_url=load().rules_url, retries=2)


def _worker_name() -> str:
    job = get_current_job()
    if job is not None and job.worker_name:
        return job.worker_name
    return f"{socket.gethostname()}.{os.getpid()}.{uuid.uuid4().hex[:6]}"


@lru_cache(maxsize=1)
def _jobs() -> Jobs:
    return Jobs(queue_client(load()))


def analyse(job: str) -> str:
    """Judge every decision of the analysis ``job`` not judged yet (the RQ job)."""
    jobs = _jobs()
    record = jobs.get(job)
    if record is None or record["status"] == "done":
        return "nothing to do"
    jobs.set_status(job, "running")
    metrics.ANALYSIS_JOBS.labels("started").inc()
    try:
        done = _run(jobs, job, record, _worker_name())
    except Exception as err:
        jobs.set_status(job, "failed", f"{type(err).__name__}: {err}")
        metrics.ANALYSIS_JOBS.labels("failed").inc()
        raise
    return done


def _run(jobs: Jobs, job: str, record: dict, worker: str) -> str:
    records = parse(_client().export(record["match"])).records
    game = analysis.game_of(records)
    ds = list(analysis.decisions(records, game))
    jobs.set_total(job, len(ds))
    size = chunk_size()
    chunks = [range(i, min(i + size, len(ds))) for i in range(0, len(ds), size)]
    judged_here = 0
    while True:
        stored = jobs.judged_indexes(job)
        open_chunks = [c for c, span in enumerate(chunks) if any(i not in stored for i in span)]
        if not open_chunks:
            break
        taken = next((c for c in open_chunks if jobs.claim(job, c, worker)), None)
        if taken is None:  # all held by other workers: wait for them, or for a dead one's claim to expire
            time.sleep(WAIT_S)
            continue
        try:
            for i in chunks[taken]:
                if i in stored:
                    continue
                t0 = time.perf_counter()
                verdict = analysis.judge(game, ds[i], budget=record["budget"], match_id=record["match"])
                if jobs.record(job, i, verdict.to_json()):
                    judged_here += 1
                    metrics.ANALYSIS_DECISIONS.labels(game.id).inc()
                metrics.ANALYSIS_DECISION_SECONDS.labels(game.id).observe(time.perf_counter() - t0)
                jobs.keep(job, taken, worker)
        finally:
            jobs.release(job, taken, worker)
    if jobs.set_status(job, "done"):
        metrics.ANALYSIS_JOBS.labels("done").inc()
    log.info("analysis %s: %d of %d decisions judged here", job, judged_here, len(ds))
    return f"judged {judged_here} of {len(ds)}"
