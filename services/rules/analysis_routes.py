"""``POST|GET /v1/matches/{id}/analysis``: move-by-move analysis of a finished match (API.md,
"Analysis"), run by the analysis workers (``services.analysis``) on the ``analysis`` queue.

An analysis is kept per match, engine version and budget (``shared.analysis_jobs``); asking again
returns the same one, and queues its RQ jobs again only when none of them will still run (every
worker that had them died), so the job resumes from the decisions already judged.
"""
from __future__ import annotations

import os

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job

from shared import metrics
from shared.analysis_jobs import QUEUE, Jobs, job_id
from shared.bots import analysis
from shared.web import ApiError, error_responses

from .routes import _state

blp = Blueprint("analysis", __name__, url_prefix="/v1/matches", description="Move-by-move analysis of finished matches")
ANALYSE = "services.analysis.worker.analyse"
JOB_TIMEOUT_S = 6 * 3600


def parallel() -> int:
    """How many RQ jobs (workers at once) one analysis is queued as."""
    return max(1, int(os.environ.get("ANALYSIS_PARALLEL", "2")))


class AnalysisBody(Schema):
    budget = fields.Integer(load_default=analysis.DEFAULT_BUDGET, strict=True,
                            validate=validate.Range(min=analysis.MIN_BUDGET, max=analysis.MAX_BUDGET),
                            metadata={"description": "search iterations per decision"})


class AnalysisArgs(Schema):
    budget = fields.Integer(validate=validate.Range(min=analysis.MIN_BUDGET, max=analysis.MAX_BUDGET),
                            metadata={"description": "the analysis at this budget (default: the last one asked)"})


class SeatFigures(Schema):
    seat = fields.Integer()
    decisions = fields.Integer()
    mean_loss = fields.Float()
    accuracy = fields.Float(metadata={"description": "100 × (1 − mean loss)"})
    inaccuracies = fields.Integer()
    mistakes = fields.Integer()
    blunders = fields.Integer()


class JudgedDecision(Schema):
    version = fields.Integer(metadata={"description": "the version the move was posted at"})
    seat = fields.Integer()
    played = fields.Dict()
    best = fields.Dict()
    value_played = fields.Float(metadata={"description": "the seat's expected share of the win, in [0, 1]"})
    value_best = fields.Float()
    loss = fields.Float(metadata={"description": "value_best − value_played, never negative"})


class AnalysisOut(Schema):
    status = fields.String(metadata={"description": "queued, running, done or failed"})
    progress = fields.Float(metadata={"description": "the share of decisions judged, 0 to 1"})
    engine = fields.String()
    budget = fields.Integer()
    total = fields.Integer(metadata={"description": "decisions to judge (null until a worker counted them)"},
                           allow_none=True)
    seats = fields.List(fields.Nested(SeatFigures))
    decisions = fields.List(fields.Nested(JudgedDecision))
    error = fields.String()


def _jobs() -> Jobs:
    return Jobs(current_app.extensions["followups"].queue.connection)


def _latest_key(match_id: str) -> str:
    return f"analysis:latest:{match_id}"


def document(jobs: Jobs, job: str) -> dict | None:
    """The analysis as ``GET`` answers it (None when never asked)."""
    record = jobs.get(job)
    if record is None:
        return None
    judged = jobs.judged(job)
    verdicts = [judged[i] for i in sorted(judged)]
    total = record.get("total")
    out = {"status": record["status"], "engine": record["engine"], "budget": record["budget"], "total": total,
           "progress": round(len(verdicts) / total, 4) if total else (1.0 if total == 0 else 0.0),
           "seats": analysis.summarize(record["game"], record["seats"], verdicts), "decisions": verdicts}
    if record.get("error") and record["status"] == "failed":
        out["error"] = record["error"]
    return out


def _all_key(match_id: str) -> str:
    return f"analysis:of:{match_id}"


def done_analysis(match_id: str) -> dict | None:
    """The match's done analysis at the highest budget (for the export), or None."""
    jobs = _jobs()
    docs = [document(jobs, j.decode()) for j in jobs.r.smembers(_all_key(match_id))]
    done = [d for d in docs if d is not None and d["status"] == "done"]
    return max(done, key=lambda d: d["budget"]) if done else None


def _alive(q: Queue, rq_id: str) -> bool:
    """Whether an RQ job will still run: waiting, or held by a live worker."""
    try:
        job = Job.fetch(rq_id, connection=q.connection)
    except NoSuchJobError:
        return False
    status = str(getattr(job.get_status(refresh=False), "value", job.get_status(refresh=False)))
    if status == "queued":
        return q.connection.lpos(q.key, rq_id) is not None
    if status == "started":
        return bool(job.worker_name) and bool(q.connection.exists(f"rq:worker:{job.worker_name}"))
    return status in ("scheduled", "deferred")


def _enqueue(jobs: Jobs, job: str) -> None:
    """Queue the analysis's RQ jobs that will not run any more (all of them the first time)."""
    q = Queue(QUEUE, connection=jobs.r)
    for i in range(parallel()):
        rq_id = f"analysis-{job}-{i}".replace("|", "-")
        if not _alive(q, rq_id):
            q.enqueue_call(func=ANALYSE, args=(job,), job_id=rq_id, timeout=JOB_TIMEOUT_S, result_ttl=3600,
                           failure_ttl=24 * 3600)
            metrics.ANALYSIS_QUEUED.inc()


@blp.route("/<match_id>/analysis")
class AnalysisResource(MethodView):
    @blp.arguments(AnalysisBody)
    @blp.response(202, AnalysisOut)
    @blp.alt_response(200, schema=AnalysisOut, description="the analysis is done")
    @error_responses(blp, 404, 409, 501)
    def post(self, body, match_id):
        """Ask for the analysis of a finished match (queued on the analysis workers); 409 while the
        match is active. Asking again returns the same analysis (per engine version and budget)."""
        mstate = _state(match_id)
        if mstate["status"] == "active":
            raise ApiError(409, "Conflict", "the match is still active: it is analysed once it has ended",
                           "match-active")
        jobs = _jobs()
        job = job_id(match_id, mstate["engine"], body["budget"])
        jobs.create(job, match_id=match_id, game=mstate["game_id"], engine=mstate["engine"], budget=body["budget"],
                    seats=len(mstate["seats"]))
        jobs.r.set(_latest_key(match_id), job)
        jobs.r.sadd(_all_key(match_id), job)
        record = jobs.get(job)
        if record["status"] != "done":
            if record["status"] == "failed":
                jobs.set_status(job, "queued")
            _enqueue(jobs, job)
        out = document(jobs, job)
        return out, 200 if out["status"] == "done" else 202

    @blp.arguments(AnalysisArgs, location="query")
    @blp.response(200, AnalysisOut)
    @error_responses(blp, 400, 404, 501)
    def get(self, args, match_id):
        """The analysis: status, progress, each seat's figures and every decision judged so far;
        404 when it was never asked for."""
        mstate = _state(match_id)
        jobs = _jobs()
        if "budget" in args:
            job = job_id(match_id, mstate["engine"], args["budget"])
        else:
            raw = jobs.r.get(_latest_key(match_id))
            job = raw.decode() if raw else None
        out = document(jobs, job) if job else None
        if out is None:
            raise ApiError(404, "Not Found", f"no analysis of match {match_id} was asked for"
                           + (f" at budget {args['budget']}" if "budget" in args else ""), "no-analysis")
        return out
