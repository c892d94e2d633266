"""Shared pytest fixtures: a private Redis server per test session, flushed for each test."""
from __future__ import annotations

import pytest
import redis

from shared import localredis


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = localredis.start(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server):
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    client.close()
    return redis_server.url


@pytest.fixture
def r(redis_url):
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()
