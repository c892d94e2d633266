"""Shared pytest fixtures: a private Redis server per test session, flushed for each test, and
fakeredis beside it for store-level tests (``tests/support/backends.py``)."""
from __future__ import annotations

import pytest
import redis

from shared import localredis

from . import backends


def pytest_generate_tests(metafunc):
    backends.parametrize(metafunc)  # a ``store`` test taking ``r``: [real] and [fake]


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
def r(request):
    """A client of this session's Redis server, flushed; in a ``store`` test, that and fakeredis."""
    client = backends.client(request)
    yield client
    client.close()


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    """Every service of deploy/Procfile, on free ports, with a Redis of its own."""
    from tests.support.stack import start_stack

    workdir = tmp_path_factory.mktemp("stack")
    server = localredis.start(workdir / "redis")
    s = start_stack(server.url, workdir)
    yield s
    s.kill()
    server.stop()


@pytest.fixture
def make_app(redis_url, monkeypatch):
    """The matchmaking Flask app on the test's Redis, built with the settings given (environment
    variables for the call: ``make_app(CORS_ORIGINS="*")``); CORS off unless one says otherwise."""
    from services.matchmaking.app import create_app
    from shared.config import Config

    def make(**env):
        monkeypatch.delenv("CORS_ORIGINS", raising=False)
        for k, v in env.items():
            monkeypatch.setenv(k, str(v))
        app = create_app(Config(redis_url=redis_url, auth_secret="unit-secret", rules_url="http://127.0.0.1:9"))
        app.config["TESTING"] = True
        return app
    return make
