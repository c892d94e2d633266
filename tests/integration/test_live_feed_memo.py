"""services/rules/live.py's ``Feed.memo``: a message is built once per audience and version, also
when many watchers woken by the same change ask for it while it is being built (no Redis)."""
from __future__ import annotations

import threading

import pytest

from services.rules import live
from services.rules.live import Feed


class _WaitCounted(threading.Event):
    """An Event that says when someone starts waiting on it (``waiting``, one release per wait)."""
    waiting = None

    def wait(self, timeout=None):
        type(self).waiting.release()
        return super().wait(timeout)


class _Threading:
    """``threading`` as services/rules/live.py sees it, with its Events counting their waiters."""
    Event = _WaitCounted

    def __getattr__(self, name):
        return getattr(threading, name)


def test_watchers_asking_while_it_is_built_wait_for_the_one_build(monkeypatch):
    feed = Feed("m", 0)
    started, release = threading.Event(), threading.Event()
    builds = []

    def build():
        builds.append(1)
        started.set()
        release.wait(30)  # as a seat's state read from Redis yields to the other watchers
        return "message"

    got = []
    first = threading.Thread(target=lambda: got.append(feed.memo(("turn", 3, 0), build)))
    others = [threading.Thread(target=lambda: got.append(feed.memo(("turn", 3, 0), build))) for _ in range(20)]
    _WaitCounted.waiting = threading.Semaphore(0)
    monkeypatch.setattr(live, "threading", _Threading())
    first.start()
    assert started.wait(30)
    for t in others:
        t.start()
    # every other watcher is waiting for the build in progress before it ends
    assert all(_WaitCounted.waiting.acquire(timeout=30) for _ in others), "a watcher did not wait for the build"
    release.set()
    for t in [first, *others]:
        t.join(30)
    assert got == ["message"] * 21 and len(builds) == 1
    assert feed.memo(("turn", 3, 1), lambda: "another audience") == "another audience"


def test_a_failed_build_is_not_kept_and_the_next_watcher_builds_again():
    feed = Feed("m", 0)

    def broken():
        raise RuntimeError("redis is down")

    with pytest.raises(RuntimeError):
        feed.memo(("turn", 4, 0), broken)
    assert feed.memo(("turn", 4, 0), lambda: "built") == "built"
