"""Configuration from the environment, with local defaults."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import redis


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


def _seconds_or_off(raw: str) -> float | None:
    return None if raw.strip().lower() in ("off", "") else float(raw)


@dataclass(frozen=True)
class Config:
    redis_url: str = field(default_factory=lambda: _env("REDIS_URL", "redis://127.0.0.1:6379/0"))
    # RQ (bot turns) on a Redis of its own when set; the match store otherwise
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


def load() -> Config:
    return Config()


def store_client(config: Config) -> redis.Redis:
    """The match store (logs, metadata, the streams between services)."""
    return redis.Redis.from_url(config.redis_url, health_check_interval=30)


def queue_client(config: Config) -> redis.Redis:
    """The Redis of the RQ queues (bot turns): ``QUEUE_REDIS_URL``, else the match store."""
    return redis.Redis.from_url(config.queue_redis_url or config.redis_url, health_check_interval=30)
