"""Rate limits on writes and streams, per player token and per client address (the ``limits`` library).

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
draft-ietf-httpapi-ratelimit-headers: ``RateLimit-Policy: "<scope>";q=<quota>;w=<window s>`` and
``RateLimit: "<scope>";r=<remaining>;t=<s until the window resets>``, one item per limit that
applied. The counting and the reading of the window are one Redis call (``shared.ratewindow``).

The limits are counted by a before_request hook of ours with the ``limits`` library's parsing,
storage and keys (flask-limiter's own core; flask-limiter itself, which this replaced, resolved,
filtered and wrapped its limits in objects on every request, about a quarter of a POST's CPU). The
counters are the ones flask-limiter kept: ``LIMITS:LIMITER/ratelimit:<app>/<key>/<scope>/<amount>/
<multiples>/<granularity>``. A limit string may hold several limits (``"10/second;3000/minute"``):
each is counted, shortest window first, until one is exceeded.

On a single match store the rules service keeps its counters in the store and leaves a move's to
the move's append (``Limiter.counted_by_append``, ``Deferred``): the append's script counts them
first, refuses the move past a limit (``shared.eventstore.store.Limited``, a 429 here) and returns
the counts for the fields, so an accepted move costs no round trip of its own for its limits. A move
refused before its append (a bad body, an illegal move) is counted after it, by the after_request
hook; a caller whose window this process saw used up is counted, and refused, before any work.
"""
from __future__ import annotations

import logging
import math
import os
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from flask import Flask, Response, g, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.util import WindowStats

from .caller import principal
from .problems import ApiError, problem
from .lru import Lru
from .ratewindow import OneTripCounter

if TYPE_CHECKING:
    from .eventstore.store import SideWrites

WRITES = ("POST", "PUT", "PATCH", "DELETE")
DEFAULTS = {
    "RATE_LIMIT_WRITES_PER_TOKEN": "3000/minute",
    "RATE_LIMIT_WRITES_PER_ADDRESS": "60000/minute",
    "RATE_LIMIT_STREAMS_PER_TOKEN": "120/minute",
    "RATE_LIMIT_STREAMS_PER_ADDRESS": "3000/minute",
}
LOG = logging.getLogger("limits")
SPENT_WINDOWS = 4096  # used-up windows a process remembers (``Limiter.remember``)


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


def _breach_error(limit: Applied) -> ApiError:
    retry_after = max(1, math.ceil(limit.window.reset_time - time.time()))
    return ApiError(429, "Too Many Requests", f"rate limit exceeded: {limit.limit}; retry after {retry_after} s",
                    "rate-limited", retry_after=retry_after)


def _breach(limit: Applied) -> Response:
    err = _breach_error(limit)
    answer = problem(err.status, err.title, err.detail, err.slug, **err.extra)
    answer.headers["Retry-After"] = str(err.extra["retry_after"])
    return answer


class Limiter:
    """Counts the application limits of each request in a ``limits`` storage (``storage_uri``).

    ``in_store``: the storage is the match store's own Redis (a single server), so that an endpoint
    named in ``counted_by_append`` has its limits counted by the append its request makes, in the
    same script call (``Deferred``): an accepted move then costs one round trip and one durable
    write, its counter included."""

    def __init__(self, app_name: str, storage_uri: str, *, in_store: bool = False):
        self.prefix = f"ratelimit:{app_name}"
        self.storage = storage_from_string(storage_uri, **_pool_options(storage_uri))
        self.counter = OneTripCounter(self.storage)
        self.in_store = in_store
        self.counted_by_append: set[str] = set()
        self.spent = Lru(SPENT_WINDOWS)  # (scope, limit, key) -> when a window seen used up resets

    def _spent(self, due: list[tuple[str, RateLimitItem, str]]) -> bool:
        """Whether this process saw one of ``due``'s windows used up, and it has not reset since."""
        now = time.time()
        return any((reset := self.spent.get(f"{scope}/{item}/{key}")) is not None and reset > now
                   for scope, item, key in due)

    def remember(self, due: list[tuple[str, RateLimitItem, str]], applied: list[Applied]) -> None:
        """Note the windows ``applied`` left used up (a counter only grows within its window)."""
        for (scope, item, key), limit in zip(due, applied):
            if limit.breached or limit.window.remaining <= 0:
                self.spent.put(f"{scope}/{item}/{key}", limit.window.reset_time)

    def check(self) -> Response | None:
        """The before_request hook: count the request against the limits that apply to it (kept for
        the answer's fields); a 429 when one is exceeded. A request no limit applies to (a read
        other than a stream, a stream counted by the worker that handed it off, a bot's) costs
        nothing more. When the counters' Redis fails the limits are skipped."""
        g._rate_limits = []
        if not (_is_write() or _is_stream()) or request.environ.get("tabletop.serve_here"):
            return None
        due = []  # (scope, limit, key) of every limit that applies, in order
        try:
            for rule in RULES:
                key = rule.key() if rule.applies() else ""
                due += [(rule.scope, item, key) for item in _parsed(_setting(rule.setting))] if key else []
        except Exception:  # noqa: BLE001 - the token's Redis failed: as a failing storage, no limits
            LOG.exception("rate limits skipped: whom to count could not be told")
            return None
        if not due:
            return None
        # left to the append unless a window is known used up: a caller over its limit is then
        # refused here, before any work, as every other request is
        if self.in_store and request.endpoint in self.counted_by_append and not self._spent(due):
            g._rate_limits_deferred = Deferred(self, due)
            return None
        return self._count(due)

    def _count(self, due: list[tuple[str, RateLimitItem, str]]) -> Response | None:
        """Count ``due`` (scope, limit, key) in order, one round trip each, up to the first exceeded."""
        g._rate_limits = applied = []
        try:
            for scope, item, key in due:
                allowed, window = self.counter.hit(item, self.prefix, key, scope)
                applied.append(Applied(scope, item, window, not allowed))
                if not allowed:
                    LOG.info("ratelimit %s (%s) exceeded at %s", item, key, scope)
                    self.remember(due, applied)
                    return _breach(applied[-1])
        except Exception:  # noqa: BLE001 - the counters' Redis is unreachable: the request goes on unlimited
            LOG.exception("rate limits skipped: their storage failed")
            g._rate_limits = []
        self.remember(due, applied)
        return None

    def counter_key(self, item: RateLimitItem, key: str, scope: str) -> str:
        """The Redis key of a counter (the ``limits`` library's, as ``OneTripCounter`` counts it)."""
        return self.storage.prefixed_key(item.key_for(self.prefix, key, scope))

    def add_fields(self, response: Response) -> Response:
        """The after_request hook: the RateLimit fields of the limits the request was counted
        against. A request whose count was left to its append but never reached it (refused
        before: a bad body, an illegal move) is counted here, so every request counts."""
        deferred = g.pop("_rate_limits_deferred", None)
        if deferred is not None and not deferred.settle():
            self._count(deferred.due)
        applied = g.get("_rate_limits")
        if applied:
            response.headers.update(ratelimit_fields(applied))
        return response


class Deferred:
    """The limits of a request that its append counts (``Limiter.counted_by_append``): ``onto``
    puts their counters into the append's side writes, and the append's counts become the
    request's windows (``settle``)."""

    def __init__(self, limiter: Limiter, due: list[tuple[str, RateLimitItem, str]]):
        self.limiter, self.due = limiter, due
        self.side: SideWrites | None = None

    def onto(self, side: SideWrites) -> SideWrites:
        """``side`` with the counters of the request's limits (those of the first append only)."""
        if self.side is None:
            self.side = side
            for scope, item, key in self.due:
                side.count(self.limiter.counter_key(item, key, scope), item.get_expiry(), item.amount)
        return side

    def settle(self) -> bool:
        """The request's windows from the append's counts; False when no append counted them."""
        if self.side is None or self.side.counted is None:
            return False
        now = time.time()
        g._rate_limits = [Applied(scope, item, WindowStats(now + max(left, 0), max(0, item.amount - count)),
                                  count > item.amount)
                          for (scope, item, _key), (count, left) in zip(self.due, self.side.counted)]
        self.limiter.remember(self.due, g._rate_limits)
        return True


def counted_by_the_append(effects: Callable[[dict, dict | None], SideWrites] | None):
    """``effects`` (a change's side writes, ``shared.matches.Effects``) with the request's rate-limit
    counters added, when they were left to its append (else ``effects`` as it is)."""
    deferred = g.get("_rate_limits_deferred")
    if deferred is None or effects is None:
        return effects
    return lambda new, prior: deferred.onto(effects(new, prior))


def refusal() -> ApiError:
    """The 429 of a request whose append a counter refused (``shared.eventstore.store.Limited``)."""
    deferred = g.pop("_rate_limits_deferred")
    deferred.settle()
    return _breach_error(next(a for a in g._rate_limits if a.breached))


def install(app: Flask, storage_uri: str, *, in_store: bool = False) -> Limiter | None:
    """Apply the limits to every route of ``app`` (None when ``RATE_LIMITS=off``); ``in_store``:
    the counters' storage is the match store's Redis (``Limiter``)."""
    if os.environ.get("RATE_LIMITS", "on").lower() in ("off", "0", "false", "no"):
        return None
    if storage_uri.startswith("unix://"):  # redis-py's spelling of a socket; the limits library's is this
        storage_uri = "redis+" + storage_uri
    limiter = Limiter(app.name, storage_uri, in_store=in_store)
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

    return {"connection_pool": redis.BlockingConnectionPool.from_url(
        storage_uri, max_connections=POOL_CONNECTIONS, timeout=POOL_WAIT_S)}
