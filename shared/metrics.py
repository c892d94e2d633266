"""Prometheus metrics of every process (``prometheus-client``).

* The three services answer ``GET /metrics`` (``install``). Gunicorn runs several workers, so the
  services use prometheus-client's multiprocess mode: ``deploy/gunicorn.py`` gives each server a
  fresh directory of per-worker files (``PROMETHEUS_MULTIPROC_DIR``) and marks a worker's files
  dead when it exits; ``/metrics`` adds up every worker's files.
* Consumers and bot workers serve the same text on ``METRICS_PORT`` (``serve``; unset, empty or 0:
  off), from this process — or from the multiprocess directory when ``PROMETHEUS_MULTIPROC_DIR``
  is set for them too.
* Some values are read from Redis when scraped (``StreamLag``, ``BotQueue``): a stopped consumer
  still shows its lag in its service's ``/metrics``, a bot queue scaled to zero workers its length.

Labels stay bounded: a route is its template (``/v1/matches/<match_id>/moves``, never a match id),
a status its class (``2xx``), a game its id, a bot its level.
"""
from __future__ import annotations

import logging
import os
import time
from typing import Iterable

import redis

if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # prometheus-client writes there from its import on
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry  # noqa: E402
from prometheus_client import Counter, Histogram  # noqa: E402
from prometheus_client import generate_latest, multiprocess  # noqa: E402
from prometheus_client.core import GaugeMetricFamily  # noqa: E402
from prometheus_client.registry import Collector  # noqa: E402

log = logging.getLogger(__name__)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}
UNMATCHED = "<unmatched>"  # a request no route matched (a 404): one label value, whatever the path

# ----- what the processes count ----------------------------------------------------------------
REQUESTS = Counter("tabletop_http_requests", "HTTP requests answered, by route template and status class",
                   ["service", "route", "method", "status"])
LATENCY = Histogram("tabletop_http_request_duration_seconds",
                    "Time from a request's arrival to its response (an SSE stream: to its headers)",
                    ["service", "route", "method"])
MOVES = Counter("tabletop_moves_appended", "Moves appended to match logs (a replayed idempotent move is not)",
                ["game"])
BOT_TURNS_QUEUED = Counter("tabletop_bot_turns_queued", "Bot turn jobs enqueued by the rules service",
                           ["level"])
BOT_TURNS = Counter("tabletop_bot_turns", "Bot turn jobs run by a worker, by outcome (played, stale, duplicate, "
                    "not_played, failed)", ["level", "outcome"])
BOT_TURN_SECONDS = Histogram("tabletop_bot_turn_duration_seconds", "Time a worker spent on one bot turn job",
                             ["level"],
                             buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120))
ANALYSIS_QUEUED = Counter("tabletop_analysis_jobs_queued", "Analysis RQ jobs enqueued by the rules service")
ANALYSIS_JOBS = Counter("tabletop_analysis_jobs", "Analysis RQ jobs run by a worker, by what happened (started, "
                        "done: the analysis it worked on was complete, failed)", ["outcome"])
ANALYSIS_DECISIONS = Counter("tabletop_analysis_decisions", "Decisions judged by analysis workers (its rate: "
                             "decisions per second)", ["game"])
ANALYSIS_DECISION_SECONDS = Histogram("tabletop_analysis_decision_duration_seconds",
                                      "Time a worker spent judging one decision", ["game"],
                                      buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30))
DEADLINES_FIRED = Counter("tabletop_deadlines_fired", "Due turn deadlines looked at: handed_over when the "
                          "seat went to a bot, moot when it had acted or the match had moved on", ["outcome"])
FOLLOWUP_SWEEPS = Counter("tabletop_followup_sweeps", "Sweeps of the follow-up intents (rules consumer)")
FOLLOWUPS_RERUN = Counter("tabletop_followups_rerun", "Matches whose follow-ups a sweep ran again (a process "
                          "died before running them, or a bot job was lost)")
STREAM_HANDOFFS = Counter("tabletop_stream_handoffs", "Held streams handed to the stream process "
                          "(handed_off) or served in the worker because it was not reachable (in_process)", ["outcome"])
STREAM_ENTRIES = Counter("tabletop_stream_entries", "Stream entries handled by a consumer group, by outcome "
                         "(ok, failed, parked)", ["stream", "group", "outcome"])


# ----- what is read from Redis at scrape time ---------------------------------------------------
def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class StreamLag(Collector):
    """``tabletop_stream_lag_entries{stream, group, state}``: per consumer group, entries delivered
    but not acknowledged (``pending``) and entries not delivered yet (``undelivered``)."""

    UNDELIVERED_CAP = 100_000  # Redis < 7 has no "lag" field: entries are counted, up to this many

    def __init__(self, client: redis.Redis, groups: Iterable[tuple[str, str]]):
        self.r, self.groups = client, list(groups)

    def collect(self):
        family = GaugeMetricFamily("tabletop_stream_lag_entries",
                                   "Entries a consumer group has not finished: pending (delivered, not "
                                   "acknowledged) or undelivered", labels=["stream", "group", "state"])
        by_stream: dict[str, list[str]] = {}
        for stream, group in self.groups:
            by_stream.setdefault(stream, []).append(group)
        for stream, groups in by_stream.items():
            try:
                groups_info = self.r.xinfo_groups(stream) if self.r.exists(stream) else []
                info = {_text(g["name"]): g for g in groups_info}
                for group in groups:
                    pending, undelivered = self._lag(stream, info.get(group))
                    family.add_metric([stream, group, "pending"], pending)
                    family.add_metric([stream, group, "undelivered"], undelivered)
            except redis.RedisError as err:  # a scrape never fails on Redis; the series are missing instead
                log.warning("metrics: stream lag of %s not read: %s", stream, err)
        yield family

    def _lag(self, stream: str, group: dict | None) -> tuple[int, int]:
        if group is None:  # the group is made from the stream's start when its consumer first runs
            return 0, self.r.xlen(stream)
        pending = int(group.get("pending") or 0)
        if group.get("lag") is not None:
            return pending, int(group["lag"])
        last = _text(group["last-delivered-id"])
        after = self.r.xrange(stream, min=f"({last}", max="+", count=self.UNDELIVERED_CAP)
        return pending, len(after)


class BotQueue(Collector):
    """The RQ queue of bot turns: jobs waiting, being played, and failed (kept 24 h)."""

    def __init__(self, queue_client: redis.Redis, queue: str):
        self.r, self.queue = queue_client, queue

    def collect(self):
        try:
            now = time.time()
            with self.r.pipeline(transaction=False) as pipe:
                pipe.llen(f"rq:queue:{self.queue}")
                pipe.zcard(f"rq:wip:{self.queue}")
                pipe.zcount(f"rq:failed:{self.queue}", now, "+inf")
                waiting, started, failed = pipe.execute()
        except redis.RedisError as err:
            log.warning("metrics: bot queue not read: %s", err)
            return
        for name, what, value in (("waiting", "Bot turn jobs waiting in the queue", waiting),
                                  ("started", "Bot turn jobs a worker is playing", started),
                                  ("failed_jobs", "Bot turn jobs that failed (kept 24 h)", failed)):
            yield GaugeMetricFamily(f"tabletop_bot_turns_{name}", what, value=value)


class AnalysisQueue(Collector):
    """Analyses by status (queued, running, done, failed) and the ``analysis`` RQ queue's length."""

    def __init__(self, queue_client: redis.Redis):
        self.r = queue_client

    def collect(self):
        from .analysis_jobs import QUEUE, Jobs

        try:
            counts = Jobs(self.r).counts()
            waiting = self.r.llen(f"rq:queue:{QUEUE}")
        except redis.RedisError as err:
            log.warning("metrics: analysis jobs not read: %s", err)
            return
        family = GaugeMetricFamily("tabletop_analysis_jobs_by_status", "Analyses (per match, engine version "
                                   "and budget) by status", labels=["status"])
        for status, n in counts.items():
            family.add_metric([status], n)
        yield family
        yield GaugeMetricFamily("tabletop_analysis_queue_waiting", "Analysis RQ jobs waiting in the queue",
                                value=waiting)


class DueSets(Collector):
    """The rules service's sorted sets of things that fall due: how many, and how many are overdue."""

    def __init__(self, client: redis.Redis, sets: dict[str, str]):
        self.r, self.sets = client, sets  # metric name part -> key

    def collect(self):
        family = GaugeMetricFamily("tabletop_due_entries", "Entries of the rules service's due sets "
                                   "(followups, deadlines), overdue or not", labels=["set", "state"])
        try:
            now = time.time()
            with self.r.pipeline(transaction=False) as pipe:
                for key in self.sets.values():
                    pipe.zcount(key, "-inf", now)
                    pipe.zcount(key, f"({now}", "+inf")
                counts = pipe.execute()
        except redis.RedisError as err:
            log.warning("metrics: due sets not read: %s", err)
            return
        for i, name in enumerate(self.sets):
            family.add_metric([name, "overdue"], counts[2 * i])
            family.add_metric([name, "waiting"], counts[2 * i + 1])
        yield family


# ----- exposition ------------------------------------------------------------------------------
def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


class _Scrape(Collector):
    """What one scrape shows: this process's metrics (or every process's, from the multiprocess
    directory) and the values read from Redis."""

    def __init__(self, extra: Iterable[Collector] = ()):
        self.extra = list(extra)

    def collect(self):
        path = multiprocess_dir()
        if path:
            yield from multiprocess.MultiProcessCollector(CollectorRegistry(), path=path).collect()
        else:
            yield from REGISTRY.collect()
        for collector in self.extra:
            yield from collector.collect()


def exposition(extra: Iterable[Collector] = ()) -> bytes:
    """The text exposition format of everything ``_Scrape`` shows."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Scrape(extra))
    return generate_latest(registry)


def install(app, service: str, collectors: Iterable[Collector] = ()) -> None:
    """Count and time every request of the Flask ``app`` and answer ``GET /metrics``.
    ``app.extensions["metrics"]`` is the list of collectors read at scrape time (add to it)."""
    from flask import Response, g, request

    app.extensions["metrics"] = list(collectors)

    def started() -> None:
        g.metrics_t0 = time.perf_counter()

    children: dict[tuple, tuple] = {}  # (route, method, status class) -> the labelled counter and histogram

    def finished(response):
        t0 = g.pop("metrics_t0", None)
        rule = request.url_rule
        key = (rule.rule if rule is not None else UNMATCHED,
               request.method if request.method in METHODS else "OTHER", response.status_code // 100)
        counted = children.get(key)
        if counted is None:  # bounded: routes x methods x 5 status classes
            route, method, status = key
            counted = children[key] = (REQUESTS.labels(service, route, method, f"{status}xx"),
                                       LATENCY.labels(service, route, method))
        counted[0].inc()
        if t0 is not None:
            counted[1].observe(time.perf_counter() - t0)
        return response

    # first of all the before_request functions: a request refused by another (a 414) is timed too
    app.before_request_funcs.setdefault(None, []).insert(0, started)
    app.after_request(finished)

    def metrics():
        return Response(exposition(app.extensions["metrics"]), mimetype=None,
                        headers={"Content-Type": CONTENT_TYPE_LATEST})

    app.add_url_rule("/metrics", "metrics", metrics, methods=["GET"])


# ----- the exporter of consumers and workers ----------------------------------------------------
_loop = {"last": None}  # monotonic time of the main loop's last step, once it has one


def stepped() -> None:
    """The main loop finished a step (successful or not: waiting out a Redis outage is alive)."""
    _loop["last"] = time.monotonic()


def loop_stale_s() -> float:
    return float(os.environ.get("LOOP_STALE_S") or 120)


def healthy() -> tuple[bool, str]:
    """Whether the main loop has stepped within ``LOOP_STALE_S`` (a process without such a loop,
    like an RQ worker, is healthy while it answers)."""
    last = _loop["last"]
    if last is None:
        return True, "ok"
    age = time.monotonic() - last
    if age > loop_stale_s():
        return False, f"the main loop last stepped {age:.0f} s ago (LOOP_STALE_S={loop_stale_s():g})"
    return True, "ok"


def exporter_app(collectors: Iterable[Collector] = ()):
    """The exporter's WSGI app: ``/healthz`` (200, or 503 when the main loop is stuck) and the
    metrics on any other path."""
    from prometheus_client import make_wsgi_app

    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Scrape(collectors))
    metrics_app = make_wsgi_app(registry)

    def app(environ, start_response):
        if environ.get("PATH_INFO") == "/healthz":
            ok, why = healthy()
            start_response("200 OK" if ok else "503 Service Unavailable", [("Content-Type", "text/plain")])
            return [why.encode()]
        return metrics_app(environ, start_response)

    return app


def serve(collectors: Iterable[Collector] = (), *, retry_s: float = 2.0) -> int | None:
    """For consumers and workers: serve ``/metrics`` and ``/healthz`` on ``METRICS_PORT`` (address
    ``METRICS_ADDR``, 0.0.0.0 by default) from a background thread. Returns the port, or None when
    ``METRICS_PORT`` is unset, empty or 0. A port that is taken never stops the process's real
    work: the exporter logs it and keeps trying to bind every ``retry_s`` in the background."""
    port = int(os.environ.get("METRICS_PORT") or 0)
    if not port:
        return None
    import threading
    from wsgiref.simple_server import WSGIRequestHandler, make_server

    from prometheus_client.exposition import ThreadingWSGIServer

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):  # one line per scrape and probe is noise
            pass

    app = exporter_app(collectors)
    address = os.environ.get("METRICS_ADDR", "0.0.0.0")

    def bind():
        return make_server(address, port, app, ThreadingWSGIServer, handler_class=Quiet)

    def keep_trying():
        while True:
            time.sleep(retry_s)
            try:
                server = bind()
            except OSError:
                continue
            log.info("metrics port %s is free now: serving", port)
            server.serve_forever()

    try:
        server = bind()
    except OSError as err:
        log.error("metrics port %s cannot be bound (%s); retrying every %ss, the work goes on", port, err, retry_s)
        threading.Thread(target=keep_trying, name="metrics", daemon=True).start()
        return port
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
    log.info("metrics on :%s/metrics, loop health on :%s/healthz", port, port)
    return port
