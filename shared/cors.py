"""Cross-origin requests from browsers (CORS), with flask-cors, for the origins in ``CORS_ORIGINS``.

``CORS_ORIGINS`` is a comma-separated list of origins (``https://play.example.org,http://localhost:5173``),
or ``*`` for any origin; unset or empty, no origin is allowed (no CORS headers at all, browsers keep
their same-origin rule). Preflight requests (``OPTIONS`` with ``Access-Control-Request-Method``) are
answered for every route; the API authenticates with a bearer token, never with cookies, so
credentials are not allowed. The headers a client reads are exposed (``EXPOSED_HEADERS``).
"""
from __future__ import annotations

import os

from flask import Flask
from flask_cors import CORS

ALLOWED_HEADERS = ("Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID", "Cache-Control")
EXPOSED_HEADERS = ("Retry-After", "RateLimit", "RateLimit-Policy", "X-Next-Cursor", "Link", "WWW-Authenticate",
                   "Content-Disposition")
METHODS = ("GET", "HEAD", "POST", "DELETE", "OPTIONS")
MAX_AGE_S = 600  # how long a browser may cache a preflight's answer


class CorsConfigError(ValueError):
    pass


def origins(raw: str | None = None) -> list[str]:
    """The allowed origins from ``CORS_ORIGINS`` (``["*"]`` for any; ``[]`` for none)."""
    raw = os.environ.get("CORS_ORIGINS", "") if raw is None else raw
    found = []
    for item in raw.split(","):
        item = item.strip().rstrip("/")
        if not item:
            continue
        if item != "*" and ("://" not in item or "/" in item.split("://", 1)[1]):
            raise CorsConfigError(f"CORS_ORIGINS: {item!r} is not an origin (scheme://host[:port]) nor *")
        found.append(item)
    return ["*"] if "*" in found else found


def install(app: Flask) -> CORS | None:
    """Answer cross-origin requests from the configured origins (None when there are none)."""
    allowed = origins()
    app.extensions["cors_origins"] = allowed
    if not allowed:
        return None
    return CORS(app, resources={r"/*": {"origins": allowed if allowed != ["*"] else "*"}},
                allow_headers=list(ALLOWED_HEADERS), expose_headers=list(EXPOSED_HEADERS), methods=list(METHODS),
                supports_credentials=False, max_age=MAX_AGE_S, vary_header=True, send_wildcard=allowed == ["*"])
