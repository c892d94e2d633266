"""Configuration from the environment, with local defaults.

The match store is one Redis server (``REDIS_URL``) or a Redis Cluster (``REDIS_CLUSTER_NODES``,
``host:port,host:port,...``: any of its nodes; the client finds the others). RQ cannot use a
cluster, so with a cluster the queues need a plain Redis of their own (``QUEUE_REDIS_URL``).
Every process builds its clients here: ``store_client`` (match logs, metadata, the streams between
services, scoring's and matchmaking's data), ``queue_client`` (RQ) and ``limits_storage_uri``
(the rate limits' counters, ``shared/limits.py``).
"""
from __future__ import annotations

import functools
import logging
import os
import time
from dataclasses import dataclass, field

import redis
from redis.cluster import ClusterNode, RedisCluster

from .redisoptions import connection_options

log = logging.getLogger("config")

# Errors a Redis Cluster gives while a master is down or failing over: an outage, waited out like a
# refused connection (never a client-side error such as keys of several slots in one command).
CLUSTER_OUTAGE = (redis.exceptions.ClusterDownError, redis.exceptions.TryAgainError,
                  redis.exceptions.MasterDownError, redis.exceptions.SlotNotCoveredError)


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


def _seconds_or_off(raw: str) -> float | None:
    return None if raw.strip().lower() in ("off", "") else float(raw)


class ConfigError(Exception):
    """The environment names an impossible set-up (said in the message)."""


@dataclass(frozen=True)
class Config:
    redis_url: str = field(default_factory=lambda: _env("REDIS_URL", "redis://127.0.0.1:6379/0"))
    # the match store on a Redis Cluster when set: "host:port,host:port,..." (REDIS_URL is then unused)
    redis_cluster_nodes: str = field(default_factory=lambda: _env("REDIS_CLUSTER_NODES", "").strip())
    # RQ (bot turns) on a Redis of its own when set; the match store otherwise (required with a cluster)
    queue_redis_url: str = field(default_factory=lambda: _env("QUEUE_REDIS_URL", ""))
    auth_secret: str = field(default_factory=lambda: _env("AUTH_SECRET", "dev-secret-change-me"))
    matchmaking_url: str = field(default_factory=lambda: _env("MATCHMAKING_URL", "http://127.0.0.1:8001"))
    rules_url: str = field(default_factory=lambda: _env("RULES_URL", "http://127.0.0.1:8002"))
    scoring_url: str = field(default_factory=lambda: _env("SCORING_URL", "http://127.0.0.1:8003"))
    snapshot_every: int = field(default_factory=lambda: int(_env("SNAPSHOT_EVERY", "50")))
    bot_queue: str = field(default_factory=lambda: _env("BOT_QUEUE", "bots"))
    bot_retry_after_s: float = field(default_factory=lambda: float(_env("BOT_RETRY_AFTER_S", "20")))
    table_wait_s: float = field(default_factory=lambda: float(_env("TABLE_WAIT_S", "15")))
    max_match_events: int = field(default_factory=lambda: int(_env("MAX_MATCH_EVENTS", "20000")))
    # the search bot's budget per move: at most this many ISMCTS iterations (empty: the game's
    # tuned count) and at most this many seconds of thinking
    search_iterations: int | None = field(default_factory=lambda: int(_env("SEARCH_ITERATIONS", "") or 0) or None)
    search_seconds: float = field(default_factory=lambda: float(_env("SEARCH_SECONDS", "0.8")))
    # a finished match is compacted this long after its end ("off": never, by the rules consumer)
    compact_after_s: float | None = field(default_factory=lambda: _seconds_or_off(_env("COMPACT_AFTER_S", "600")))
    # held streams (shared/held_streams.py): a keep-alive after this many quiet seconds; at most
    # this many streams held at once per player (a token's) and per address (without a token), per
    # process; how often the tokens of held streams are checked again (rotation or expiry ends them)
    sse_keepalive_s: float = field(default_factory=lambda: float(_env("SSE_KEEPALIVE_S", "15")))
    max_streams_per_player: int = field(default_factory=lambda: int(_env("MAX_STREAMS_PER_PLAYER", "32")))
    max_streams_per_address: int = field(default_factory=lambda: int(_env("MAX_STREAMS_PER_ADDRESS", "256")))
    stream_recheck_s: float = field(default_factory=lambda: float(_env("STREAM_RECHECK_S", "2")))
    # a busy match wakes its watchers at most this often (their messages batched in one write)
    stream_coalesce_s: float = field(default_factory=lambda: float(_env("STREAM_COALESCE_S", "0.1")))
    # the rules service's stream process (services/rules/stream_server.py): its Unix socket; empty:
    # streams are served by the worker that received them
    stream_handoff_socket: str = field(default_factory=lambda: _env("STREAM_HANDOFF_SOCKET", ""))

    @property
    def cluster(self) -> bool:
        """Whether the match store is a Redis Cluster."""
        return bool(self.redis_cluster_nodes)

    def check(self) -> Config:
        """Raise ``ConfigError`` for a set-up that cannot work; returns itself."""
        check_store(self.redis_cluster_nodes, self.queue_redis_url)
        return self


def check_store(cluster: str, queue_redis_url: str) -> None:
    """``ConfigError`` unless ``REDIS_CLUSTER_NODES`` (``cluster``) is empty, or well formed with a
    ``QUEUE_REDIS_URL`` beside it."""
    if not cluster.strip():
        return
    parse_nodes(cluster)
    if not queue_redis_url:
        raise ConfigError("REDIS_CLUSTER_NODES is set but QUEUE_REDIS_URL is not: the RQ queues (bot turns) "
                          "cannot live on a Redis Cluster; point QUEUE_REDIS_URL at a plain Redis server")


def load() -> Config:
    """The configuration of this process; raises ``ConfigError`` for an impossible one."""
    return Config().check()


def cluster_nodes(config: Config) -> list[tuple[str, int]]:
    """The startup nodes of ``REDIS_CLUSTER_NODES`` as (host, port)."""
    return parse_nodes(config.redis_cluster_nodes)


def parse_nodes(spec: str) -> list[tuple[str, int]]:
    """``host:port,host:port,...`` as (host, port) pairs; ``ConfigError`` for anything else."""
    nodes = []
    for item in spec.split(","):
        host, sep, port = item.strip().rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ConfigError(f"REDIS_CLUSTER_NODES: {item.strip()!r} is not host:port "
                              "(expected host:port,host:port,...)")
        nodes.append((host, int(port)))
    return nodes


def store_client(config: Config, *, max_connections: int | None = None, wait_s: float | None = None,
                 connect_wait_s: float = float("inf"), **options) -> redis.Redis | RedisCluster:
    """The match store (logs, metadata, the streams between services): a ``redis.Redis`` on
    ``REDIS_URL``, or a ``RedisCluster`` from ``REDIS_CLUSTER_NODES``.

    ``max_connections`` with ``wait_s``: a bounded pool (per node on a cluster) where a caller
    waits up to ``wait_s`` for a free connection rather than fail. Other ``options`` go to every
    connection (``socket_timeout``...). A cluster client needs a reachable node to start: this
    waits for one (up to ``connect_wait_s``), as every process waits out a Redis outage."""
    options.setdefault("health_check_interval", 30)
    if max_connections is not None:
        options["max_connections"] = max_connections
    if not config.cluster:
        if wait_s is not None:
            pool = redis.BlockingConnectionPool.from_url(config.redis_url, timeout=wait_s, **connection_options(),
                                                         **options)
            return redis.Redis(connection_pool=pool)
        return redis.Redis.from_url(config.redis_url, **connection_options(), **options)
    # the connection options go to each node's pool (a cluster client takes no parser of its own),
    # and to the client, which would otherwise give its pools its own notifications setting
    connection = connection_options()
    pool_class = redis.ConnectionPool if wait_s is None else functools.partial(redis.BlockingConnectionPool,
                                                                                timeout=wait_s)
    options["connection_pool_class"] = functools.partial(pool_class, **connection)
    options["maint_notifications_config"] = connection["maint_notifications_config"]
    options.pop("health_check_interval")  # not a cluster option; the cluster client refreshes its own topology
    (host, port), *others = cluster_nodes(config)
    # Given a URL, redis-py builds each node's pool from ``connection_pool_class`` (else it ignores it).
    startup = dict(url=f"redis://{host}:{port}/0", startup_nodes=[ClusterNode(h, p) for h, p in others])
    deadline, delay = time.monotonic() + connect_wait_s, 0.2
    while True:
        try:
            return RedisCluster(**startup, require_full_coverage=False, **options)
        except (redis.exceptions.RedisClusterException, redis.ConnectionError, *CLUSTER_OUTAGE) as err:
            if time.monotonic() >= deadline:
                raise
            log.warning("redis cluster %s not reachable yet (%s); retrying", config.redis_cluster_nodes, err)
            time.sleep(delay)
            delay = min(2.0, delay * 2)


def queue_client(config: Config) -> redis.Redis:
    """The Redis of the RQ queues (bot turns): ``QUEUE_REDIS_URL``, else the match store (a single
    server; with a cluster ``QUEUE_REDIS_URL`` is required)."""
    return redis.Redis.from_url(config.queue_redis_url or config.redis_url, health_check_interval=30,
                                **connection_options())


def limits_storage_uri(config: Config) -> str:
    """Where the rate limits (``shared/limits.py``) keep their counters, in the ``limits`` library's URI form:
    ``RATE_LIMIT_REDIS_URL`` when set; else, on a single match store with a queue Redis of its own
    (``QUEUE_REDIS_URL``), that queue Redis (a counter is no match data, and a move then costs the
    match store one durable write, its append); else the match store."""
    explicit = _env("RATE_LIMIT_REDIS_URL", "")
    if explicit:
        return explicit
    if not config.cluster and config.queue_redis_url:
        return config.queue_redis_url
    if config.cluster:
        return "redis+cluster://" + ",".join(f"{h}:{p}" for h, p in cluster_nodes(config))
    return config.redis_url


def is_cluster(client: object) -> bool:
    """Whether ``client`` talks to a Redis Cluster."""
    return isinstance(client, RedisCluster)
