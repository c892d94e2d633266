"""Rate limits on writes and streams, per player token and per client address (flask-limiter).

A request with a player's token counts against that player (all its tokens together); a request
without a valid token counts against its client address. One counter per request (one Redis round
trip, in the service's Redis via ``storage_uri``), four application-wide limits:

| variable | default | counts |
|---|---|---|
| ``RATE_LIMIT_WRITES_PER_TOKEN`` | ``3000/minute`` | POST, PUT, PATCH, DELETE by one player |
| ``RATE_LIMIT_WRITES_PER_ADDRESS`` | ``60000/minute`` | writes without a token (registration) from one address |
| ``RATE_LIMIT_STREAMS_PER_TOKEN`` | ``120/minute`` | SSE streams opened by one player |
| ``RATE_LIMIT_STREAMS_PER_ADDRESS`` | ``3000/minute`` | SSE streams opened without a token from one address |

Accounts are made without a token, so the address limit bounds how fast one client makes players
and the token limit bounds each player. ``RATE_LIMITS=off`` disables them. The rules service's bot
tokens are exempt (minted with the shared secret for one seat of one match). A breach answers 429
problem+json with ``Retry-After`` (seconds). Reads other than streams are not limited. When Redis
cannot be reached the limits are skipped (the request then meets Redis itself and answers for that).

Every answer to a limited request, success or not, carries the IETF fields of
draft-ietf-httpapi-ratelimit-headers (flask-limiter's own headers are the older ``X-RateLimit-*``
and put ``Retry-After`` on every answer, so these are written here, from the limits flask-limiter
evaluated for the request): ``RateLimit-Policy: "<scope>";q=<quota>;w=<window s>`` and
``RateLimit: "<scope>";r=<remaining>;t=<s until the window resets>``, one item per limit that
applied. The counting and the reading of the window are one Redis call (``shared.ratewindow``).
"""
from __future__ import annotations

import logging
import math
import os
import time

from flask import Flask, Response, request
from flask_limiter import ApplicationLimit, Limiter, RateLimitExceeded, RequestLimit

from . import ratewindow
from .caller import principal
from .problems import ApiError, problem

WRITES = ("POST", "PUT", "PATCH", "DELETE")
DEFAULTS = {
    "RATE_LIMIT_WRITES_PER_TOKEN": "3000/minute",
    "RATE_LIMIT_WRITES_PER_ADDRESS": "60000/minute",
    "RATE_LIMIT_STREAMS_PER_TOKEN": "120/minute",
    "RATE_LIMIT_STREAMS_PER_ADDRESS": "3000/minute",
}


def _setting(name: str) -> str:
    return os.environ.get(name, DEFAULTS[name])


def _caller():
    """The verified caller, or None (anonymous, or a bad token: the view answers 401 for that)."""
    try:
        return principal(required=False)
    except ApiError:
        return None


def _is_stream() -> bool:
    return request.method == "GET" and request.path.endswith("/stream")


def _is_write() -> bool:
    return request.method in WRITES


def _player_key() -> str:
    who = _caller()
    return f"player:{who.player_id}" if who is not None and who.player_id else ""


def _address_key() -> str:
    return f"address:{request.remote_addr or 'unknown'}"


def _anonymous() -> bool:
    return _caller() is None


def _limit(setting: str, key, scope: str, applies) -> ApplicationLimit:
    by_player = key is _player_key

    def exempt() -> bool:
        if request.environ.get("tabletop.serve_here"):  # counted by the worker that handed it off
            return True
        if not applies():
            return True
        return not key() if by_player else not _anonymous()

    return ApplicationLimit(lambda: _setting(setting), key_function=key, scope=scope, exempt_when=exempt)


def _reset_in(limit: RequestLimit) -> int:
    return max(0, math.ceil(limit.window[0] - time.time()))


def ratelimit_fields(limits: list[RequestLimit]) -> dict[str, str]:
    """The ``RateLimit`` and ``RateLimit-Policy`` fields for the limits that applied to a request."""
    policies, states = [], []
    for limit in limits:
        name = str(limit.request_args[-1]) if limit.request_args else "default"  # the scope
        policies.append(f'"{name}";q={limit.limit.amount};w={limit.limit.get_expiry()}')
        remaining = 0 if limit.breached else max(0, limit.remaining)
        reset = max(1, _reset_in(limit)) if limit.breached else _reset_in(limit)
        states.append(f'"{name}";r={remaining};t={reset}')
    return {"RateLimit-Policy": ", ".join(policies), "RateLimit": ", ".join(states)} if policies else {}


def answer_fields(app: Flask) -> dict[str, str]:
    """The RateLimit fields of the request being served, for an answer another process writes
    (a stream handed to the stream process, which counts nothing itself)."""
    limiter = app.extensions.get("tabletop_limiter")
    try:
        return ratelimit_fields(limiter.current_limits) if limiter is not None else {}
    except Exception:  # the limits' Redis is unreachable: the answer goes out without the fields
        return {}


def _breach(limit: RequestLimit) -> Response:
    retry_after = max(1, math.ceil(limit.window[0] - time.time()))
    answer = problem(429, "Too Many Requests", f"rate limit exceeded: {limit.limit}; retry after {retry_after} s",
                     "rate-limited", retry_after=retry_after)
    answer.headers["Retry-After"] = str(retry_after)
    return answer


def install(app: Flask, storage_uri: str) -> Limiter | None:
    """Apply the limits to every route of ``app`` (None when ``RATE_LIMITS=off``)."""
    if os.environ.get("RATE_LIMITS", "on").lower() in ("off", "0", "false", "no"):
        return None
    if storage_uri.startswith("unix://"):  # redis-py's spelling of a socket; the limits library's is this
        storage_uri = "redis+" + storage_uri
    limiter = Limiter(
        _address_key, app=app, storage_uri=storage_uri, storage_options=_pool_options(storage_uri),
        strategy=ratewindow.NAME, key_prefix=f"ratelimit:{app.name}",
        headers_enabled=False, swallow_errors=True, on_breach=_breach,
        application_limits=[
            _limit("RATE_LIMIT_WRITES_PER_TOKEN", _player_key, "writes-token", _is_write),
            _limit("RATE_LIMIT_WRITES_PER_ADDRESS", _address_key, "writes-address", _is_write),
            _limit("RATE_LIMIT_STREAMS_PER_TOKEN", _player_key, "streams-token", _is_stream),
            _limit("RATE_LIMIT_STREAMS_PER_ADDRESS", _address_key, "streams-address", _is_stream),
        ],
    )

    @limiter.request_filter
    def _unlimited() -> bool:
        """No limit applies (a read other than a stream, or a stream counted by the worker that
        handed it off): flask-limiter then skips resolving and filtering its limits, which is most
        of its work on a read, with the same outcome as every limit's own exemption."""
        return not (_is_write() or _is_stream()) or bool(request.environ.get("tabletop.serve_here"))

    @app.errorhandler(RateLimitExceeded)
    def _limited(err: RateLimitExceeded):
        return err.response or _breach_fallback(err)

    app.extensions["tabletop_limiter"] = limiter

    @app.after_request
    def _ratelimit_headers(response: Response) -> Response:
        try:
            applied = limiter.current_limits
            if applied:
                response.headers.update(ratelimit_fields(applied))
        except Exception:  # the limits' Redis is unreachable: the answer goes out without the fields
            logging.getLogger("limits").warning("rate limit fields skipped", exc_info=True)
        return response

    return limiter


POOL_CONNECTIONS = 64  # the counters' connections per process
POOL_WAIT_S = 10       # a request waits this long for one (a burst of requests queues, never fails)


def _pool_options(storage_uri: str) -> dict:
    """A bounded pool that waits for a free connection: redis-py's default pool refuses the 101st
    concurrent request ("Too many connections"), which a burst of streams opening at once reaches."""
    if not storage_uri.startswith("redis://"):
        return {}
    import redis

    return {"connection_pool": redis.BlockingConnectionPool.from_url(
        storage_uri, max_connections=POOL_CONNECTIONS, timeout=POOL_WAIT_S)}


def _breach_fallback(err: RateLimitExceeded) -> Response:
    answer = problem(429, "Too Many Requests", f"rate limit exceeded: {err.description}", "rate-limited")
    answer.headers["Retry-After"] = "60"
    return answer
