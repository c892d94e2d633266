"""services/matchmaking/inbox_feed.py: one listener for every watched inbox (real Redis)."""
from __future__ import annotations

import time
from contextlib import ExitStack

from services.matchmaking.inbox import Inbox
from services.matchmaking.inbox_feed import BUFFER, InboxFeed, InboxListener
from shared.config import Config


def test_a_feed_gives_what_follows_a_cursor_or_none_when_its_buffer_does_not_reach_back():
    feed = InboxFeed("p", "5-0")
    assert feed.after("5-0") == [] and feed.after("4-0") is None
    feed.add([(f"{6 + i}-0", "your_turn", {"i": i}) for i in range(BUFFER + 10)])
    assert feed.after("5-0") is None  # the oldest fell out of the buffer
    newest = feed.after(f"{5 + BUFFER + 5}-0")
    assert [e[2]["i"] for e in newest] == list(range(BUFFER + 5, BUFFER + 10))
    assert feed.wait_beyond(f"{5 + BUFFER + 5}-0", 0.01) and not feed.wait_beyond(feed.last, 0.01)


def test_one_listener_delivers_the_events_of_many_inboxes_on_one_connection(r, redis_url):
    inbox = Inbox(r)
    listener = InboxListener(Config(redis_url=redis_url), inbox.head, block_s=0.5)
    players = [f"player-{i}" for i in range(50)]
    before = int(r.info("clients")["connected_clients"])
    with_feeds = {}
    with ExitStack() as stack:
        for p in players:
            with_feeds[p] = stack.enter_context(listener.watch(p))
        for p in players:
            inbox.post(p, "invitation", {"for": p})
        for p, feed in with_feeds.items():
            deadline = time.monotonic() + 10
            while not feed.after("0-0") and time.monotonic() < deadline:
                feed.wait_beyond(feed.floor, 0.2)
            assert [e[2] for e in feed.after(feed.floor)] == [{"for": p}]
        assert listener.watched() == 50
        # one blocking connection for all of them (plus at most the test's own)
        assert int(r.info("clients")["connected_clients"]) - before <= 2
    assert listener.watched() == 0  # a feed goes with its last watcher
