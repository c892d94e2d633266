"""What Prometheus metrics cost a request: a trivial Flask endpoint with ``shared.metrics.install``
(a counter and a histogram per request, written to prometheus-client's multiprocess files, as
under gunicorn) against the same endpoint without it (the baseline), in one process through
Flask's test client, so that only the metrics differ; and the time of one ``/metrics`` scrape.

``python -m bench.metrics_overhead [--requests=N] [--runs=N]``
"""
from __future__ import annotations

import os
import sys
import tempfile
import time

from bench.common import argv_int, emit, median

if "prometheus_client" in sys.modules:
    sys.exit("run this benchmark in a fresh process (the multiprocess mode is chosen at import)")
METRICS_DIR = tempfile.mkdtemp(prefix="bench-metrics-")
os.environ["PROMETHEUS_MULTIPROC_DIR"] = METRICS_DIR

from flask import Flask  # noqa: E402

from shared import metrics  # noqa: E402


def make_app(with_metrics: bool) -> Flask:
    app = Flask("bench")

    @app.get("/v1/things/<thing_id>")
    def thing(thing_id):
        return {"id": thing_id}

    if with_metrics:
        metrics.install(app, "bench")
    return app


def per_request_us(app: Flask, requests: int) -> float:
    client = app.test_client()
    t0 = time.perf_counter()
    for i in range(requests):
        client.get(f"/v1/things/{i}")
    return (time.perf_counter() - t0) / requests * 1e6


def main() -> None:
    requests, runs = argv_int("requests", 5000), argv_int("runs", 5)
    plain, metered = make_app(False), make_app(True)
    per_request_us(plain, 200), per_request_us(metered, 200)  # warm up
    base, with_metrics = [], []
    for _ in range(runs):  # interleaved, so that the machine's noise hits both alike
        base.append(per_request_us(plain, requests))
        with_metrics.append(per_request_us(metered, requests))
    client = metered.test_client()
    scrape_ms = []
    for _ in range(20):
        t0 = time.perf_counter()
        body = client.get("/metrics").data
        scrape_ms.append((time.perf_counter() - t0) * 1000)
    emit(bench="metrics_overhead", requests=requests, runs=runs,
         baseline_us_per_request=round(median(base), 1),
         with_metrics_us_per_request=round(median(with_metrics), 1),
         overhead_us_per_request=round(median(with_metrics) - median(base), 1),
         ratio=round(median(with_metrics) / median(base), 3),
         scrape_ms=round(median(scrape_ms), 2), exposition_bytes=len(body))


if __name__ == "__main__":
    main()
