"""services/rules/live.py's ``Feed.memo``: a message is built once per audience and version, also
when many watchers woken by the same change ask for it while it is being built (no Redis)."""
from __future__ import annotations

import threading

import pytest

from services.rules.live import Feed


def test_watchers_asking_while_it_is_built_wait_for_the_one_build():
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
    first.start()
    assert started.wait(30)
    others = [threading.Thread(target=lambda: got.append(feed.memo(("turn", 3, 0), build))) for _ in range(20)]
    for t in others:
        t.start()
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
