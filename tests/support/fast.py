"""``make test-fast`` (``pytest -p tests.support.fast``): the inner loop, with no server started.

It runs

* the unit tests: every test under ``UNIT`` (the games' rules, the engine, the import graph);
* the store-level tests (marker ``store``, ``tests/support/backends.py``) on fakeredis: their
  ``[fake]`` runs, and their tests that take no Redis at all;

and leaves out everything marked ``slow``, every ``[real]`` run and every test that takes a
fixture that starts a server (``redis_server``, ``redis_url``, ``stack``). Anything else that
would start a Redis in this process anyway fails at once instead (``shared.localredis.start``
is disabled). ``make test`` runs the whole suite against real servers, as CI does.

A new module of unit tests that needs no server joins by being listed in ``UNIT``; a new store
test joins by being marked ``store``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from shared import localredis

from .backends import REAL_ONLY, STORE

ROOT = Path(__file__).resolve().parents[2]
UNIT = ("tests/games", "tests/engine", "tests/test_import_cycles.py", "tests/test_schedule.py")


def _unit(item: pytest.Item) -> bool:
    return any(item.path == ROOT / unit or item.path.is_relative_to(ROOT / unit) for unit in UNIT)


def is_fast(item: pytest.Item) -> bool:
    """Whether ``item`` belongs to the fast loop (see the module's docstring)."""
    names = set(getattr(item, "fixturenames", ()))
    if item.get_closest_marker("slow") is not None or names & REAL_ONLY:
        return False
    if "r" in names:
        callspec = getattr(item, "callspec", None)
        return callspec is not None and callspec.params.get("r") == "fake"
    return _unit(item) or item.get_closest_marker(STORE) is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    left_out = [item for item in items if not is_fast(item)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if is_fast(item)]


def _no_server(*_args, **_kwargs):
    raise RuntimeError("make test-fast starts no Redis server: this test belongs to `make test` "
                       "(take the `redis_url` or `stack` fixture, or leave the module out of UNIT)")


_start = localredis.start


def pytest_configure(config: pytest.Config) -> None:
    localredis.start = _no_server


def pytest_unconfigure(config: pytest.Config) -> None:
    localredis.start = _start
