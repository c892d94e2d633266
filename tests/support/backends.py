"""Store-level tests on two backends: a real Redis server and fakeredis (the stack's own fake).

A test marked ``store`` (``@pytest.mark.store``, or ``pytestmark = pytest.mark.store`` for a whole
module) that takes the ``r`` fixture runs twice: ``[real]`` against this session's Redis server
(flushed for the test) and ``[fake]`` against a fresh fakeredis server, whose Lua scripting
runs on ``lupa``. So a Lua script, a pipeline or an expiry that behaves differently on the fake is
a failing test, not a surprise in production.

A ``store`` test that also takes a fixture that only a real server can give (``redis_url``,
``redis_server``, ``stack``: it hands the server's address to another process) runs ``[real]``
only, and so does one marked ``@pytest.mark.real_redis("why")``: it uses a command fakeredis
does not have (say which).

Items that need no server — the ``[fake]`` runs and every test whose fixtures start none — are
what ``make test-fast`` runs (``tests/support/fast.py``); ``make test`` runs everything.
"""
from __future__ import annotations

import fakeredis
import pytest
import redis

BACKENDS = ("real", "fake")
STORE = "store"                                        # the marker that asks for both backends
REAL = "real_redis"                                    # the marker of a store test fakeredis cannot run
REAL_ONLY = frozenset({"redis_url", "redis_server", "stack"})  # fixtures that start or name a real server


def wants_both(metafunc: pytest.Metafunc) -> bool:
    """Whether this test runs on both backends (else ``r`` is the real server)."""
    names = set(metafunc.fixturenames)
    marked = metafunc.definition.get_closest_marker
    return marked(STORE) is not None and marked(REAL) is None and "r" in names and not names & REAL_ONLY


def parametrize(metafunc: pytest.Metafunc) -> None:
    """``pytest_generate_tests``: a ``store`` test taking ``r`` gets ``[real]`` and ``[fake]``."""
    if wants_both(metafunc):
        metafunc.parametrize("r", BACKENDS, indirect=True)


def backend_of(request: pytest.FixtureRequest) -> str:
    return getattr(request, "param", "real")


def fake_client() -> fakeredis.FakeRedis:
    """A client of a fakeredis server of its own (nothing shared with another test)."""
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


def client(request: pytest.FixtureRequest) -> redis.Redis:
    """The ``r`` of a test: fakeredis for ``[fake]``, else the session's real server, flushed.
    The real server is looked up only here, so a ``[fake]`` run starts no server."""
    if backend_of(request) == "fake":
        return fake_client()
    return redis.Redis.from_url(request.getfixturevalue("redis_url"))
