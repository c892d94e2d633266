"""A container health check without curl (the image is python:slim): ``python -m deploy.healthcheck URL``
exits 0 when ``URL`` answers 200 within the timeout, 1 otherwise.

The services are checked on ``/readyz`` (they reach their Redis), consumers and bot workers on
their exporter's ``/healthz`` (``METRICS_PORT``: the process answers and, for a consumer, its main
loop has stepped within ``LOOP_STALE_S``)."""
from __future__ import annotations

import sys
import urllib.request


def main(argv: list[str]) -> int:
    url = argv[1] if len(argv) > 1 else "http://127.0.0.1:8000/readyz"
    timeout = float(argv[2]) if len(argv) > 2 else 3.0
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return 0 if answer.status == 200 else 1
    except OSError as err:  # refused, timed out, or an HTTP error status
        print(f"unhealthy: {url}: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
