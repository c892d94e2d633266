"""Rate limits on writes and streams, per player token and per client address (the ``limits`` library).

A request with a player's token counts against that player (all its tokens together); a request
without a valid token counts against its client address. One counter per request, in the
service's Redis via ``storage_uri``, counted in leases (``shared.ratewindow``: a process takes
several hits of a busy caller's window in one round trip and spends them without one; limits of
fewer than 64 a window are counted one Redis call per request), four application-wide limits:

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
draft-ietf-httpapi-ratelimit-headers: ``RateLimit-Policy: "<scope>";q=<quota>;w=<window s>`` and
``RateLimit: "<scope>";r=<remaining>;t=<s until the window resets>``, one item per limit that
applied. The counting and the reading of the window are one Redis call, or none while the
process holds a lease of the caller's window (``shared.ratewindow``, which says how far ``r`` may
be behind for a caller served by several processes).

The limits are counted by a before_request hook of ours with the ``limits`` library's parsing,
storage and keys (flask-limiter's own core; flask-limiter itself, which this replaced, resolved,
filtered and wrapped its limits in objects on every request, about a quarter of a POST's CPU). The
counters are the ones flask-limiter kept: ``LIMITS:LIMITER/ratelimit:<app>/<key>/<scope>/<amount>/
<multiples>/<granularity>``. A limit string may hold several limits (``"10/second;3000/minute"``):
each is counted, shortest window first, until one is exceeded.
"""
from __future__ import annotations

import logging
import math
import os
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from flask import Flask, Response, g, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.util import WindowStats

from .caller import principal
from .problems import ApiError, problem
from .ratewindow import OneTripCounter

WRITES = ("POST", "PUT", "PATCH", "DELETE")
DEFAULTS = {
    "RATE_LIMIT_WRITES_PER_TOKEN": "3000/minute",
    "RATE_LIMIT_WRITES_PER_ADDRESS": "60000/minute",
    "RATE_LIMIT_STREAMS_PER_TOKEN": "120/minute",
    "RATE_LIMIT_STREAMS_PER_ADDRESS": "3000/minute",
}
LOG = logging.getLogger("limits")
COUNTED = "tabletop.rate_limits"  # environ: (the limits counted, the one exceeded) by a lean path


def _setting(name: str) -> str:
    return os.environ.get(name, DEFAULTS[name])


@lru_cache(maxsize=64)
def _parsed(limit_string: str) -> tuple[RateLimitItem, ...]:
    """The limits a setting names, shortest window first (read on every request, parsed once)."""
    return tuple(sorted(parse_many(limit_string)))


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
    """The player a request counts against ("" for an anonymous caller or a bot token)."""
    who = _caller()
    return f"player:{who.player_id}" if who is not None and who.player_id else ""


def _address_key() -> str:
    """The client address an anonymous request counts against ("" for a caller with a token)."""
    return f"address:{request.remote_addr or 'unknown'}" if _caller() is None else ""


@dataclass(frozen=True)
class Rule:
    """One application limit: the setting that holds it, whom it counts, its scope, which requests."""
    setting: str
    key: Callable[[], str]
    scope: str
    applies: Callable[[], bool]


RULES = (
    Rule("RATE_LIMIT_WRITES_PER_TOKEN", _player_key, "writes-token", _is_write),
    Rule("RATE_LIMIT_WRITES_PER_ADDRESS", _address_key, "writes-address", _is_write),
    Rule("RATE_LIMIT_STREAMS_PER_TOKEN", _player_key, "streams-token", _is_stream),
    Rule("RATE_LIMIT_STREAMS_PER_ADDRESS", _address_key, "streams-address", _is_stream),
)


@dataclass(frozen=True)
class Applied:
    """A limit counted for the request being served, and its window after the count."""
    scope: str
    limit: RateLimitItem
    window: WindowStats
    breached: bool


def _reset_in(limit: Applied) -> int:
    return max(0, math.ceil(limit.window.reset_time - time.time()))


def ratelimit_fields(limits: list[Applied]) -> dict[str, str]:
    """The ``RateLimit`` and ``RateLimit-Policy`` fields for the limits that applied to a request."""
    policies, states = [], []
    for limit in limits:
        policies.append(f'"{limit.scope}";q={limit.limit.amount};w={limit.limit.get_expiry()}')
        remaining = 0 if limit.breached else max(0, limit.window.remaining)
        reset = max(1, _reset_in(limit)) if limit.breached else _reset_in(limit)
        states.append(f'"{limit.scope}";r={remaining};t={reset}')
    return {"RateLimit-Policy": ", ".join(policies), "RateLimit": ", ".join(states)} if policies else {}


def answer_fields(app: Flask) -> dict[str, str]:
    """The RateLimit fields of the request being served, for an answer another process writes
    (a stream handed to the stream process, which counts nothing itself)."""
    if app.extensions.get("tabletop_limiter") is None:
        return {}
    return ratelimit_fields(g.get("_rate_limits", []))


def _breach(limit: Applied) -> Response:
    retry_after = max(1, math.ceil(limit.window.reset_time - time.time()))
    answer = problem(429, "Too Many Requests", f"rate limit exceeded: {limit.limit}; retry after {retry_after} s",
                     "rate-limited", retry_after=retry_after)
    answer.headers["Retry-After"] = str(retry_after)
    return answer


class Limiter:
    """Counts the application limits of each request in a ``limits`` storage (``storage_uri``)."""

    def __init__(self, app_name: str, storage_uri: str):
        self.prefix = f"ratelimit:{app_name}"
        self.counter = OneTripCounter(storage_from_string(storage_uri, **_pool_options(storage_uri)))

    def check(self) -> Response | None:
        """The before_request hook: count the request against the limits that apply to it (kept for
        the answer's fields); a 429 when one is exceeded. A request no limit applies to (a read
        other than a stream, a stream counted by the worker that handed it off, a bot's) costs
        nothing more. When the counters' Redis fails the limits are skipped. A request that a
        lean path in front of the app counted already (``COUNTED`` in its environ: the rules
        service's moves, ``services/rules/fast_moves.py``) is not counted again."""
        counted = request.environ.get(COUNTED)
        if counted is not None:
            g._rate_limits, breach = counted
        elif not (_is_write() or _is_stream()) or request.environ.get("tabletop.serve_here"):
            g._rate_limits = []
            return None
        else:
            g._rate_limits, breach = self.count(_is_write(), _is_stream(), _player_key, _address_key)
        return None if breach is None else _breach(breach)

    def count(self, write: bool, stream: bool, player_key: Callable[[], str],
              address_key: Callable[[], str]) -> tuple[list[Applied], Applied | None]:
        """Count a request (a write, a stream) against the limits that apply to it: the limits
        counted and the one exceeded (None). ``player_key`` and ``address_key`` name whom it counts
        against ("" for none). The counters' Redis failing, nothing is counted."""
        applied: list[Applied] = []
        keys = {_player_key: player_key, _address_key: address_key}
        try:
            for rule in RULES:
                if not (write if rule.applies is _is_write else stream):
                    continue
                key = keys[rule.key]()
                if not key:
                    continue
                for item in _parsed(_setting(rule.setting)):
                    allowed, window = self.counter.hit(item, self.prefix, key, rule.scope)
                    applied.append(Applied(rule.scope, item, window, not allowed))
                    if not allowed:
                        LOG.info("ratelimit %s (%s) exceeded at %s", item, key, rule.scope)
                        return applied, applied[-1]
        except Exception:  # noqa: BLE001 - the counters' Redis is unreachable: the request goes on unlimited
            LOG.exception("rate limits skipped: their storage failed")
            return [], None
        return applied, None

    @staticmethod
    def add_fields(response: Response) -> Response:
        """The after_request hook: the RateLimit fields of the limits the request was counted against."""
        applied = g.get("_rate_limits")
        if applied:
            response.headers.update(ratelimit_fields(applied))
        return response


def install(app: Flask, storage_uri: str) -> Limiter | None:
    """Apply the limits to every route of ``app`` (None when ``RATE_LIMITS=off``)."""
    if os.environ.get("RATE_LIMITS", "on").lower() in ("off", "0", "false", "no"):
        return None
    if storage_uri.startswith("unix://"):  # redis-py's spelling of a socket; the limits library's is this
        storage_uri = "redis+" + storage_uri
    limiter = Limiter(app.name, storage_uri)
    app.before_request(limiter.check)
    app.after_request(limiter.add_fields)
    app.extensions["tabletop_limiter"] = limiter
    return limiter


POOL_CONNECTIONS = 64  # the counters' connections per process
POOL_WAIT_S = 10       # a request waits this long for one (a burst of requests queues, never fails)


def _pool_options(storage_uri: str) -> dict:
    """A bounded pool that waits for a free connection: redis-py's default pool refuses the 101st
    concurrent request ("Too many connections"), which a burst of streams opening at once reaches."""
    if not storage_uri.startswith("redis://"):
        return {}
    import redis

    from .redisoptions import connection_options

    return {"connection_pool": redis.BlockingConnectionPool.from_url(
        storage_uri, max_connections=POOL_CONNECTIONS, timeout=POOL_WAIT_S, **connection_options())}
