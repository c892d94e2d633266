"""Matchmaking's consumer paces its reads of the players' notices: after a read that found a few it
lingers (``NOTICE_LINGER_S``) so that a busy stack's notices are fanned out in batches, but after a
full batch it reads on at once, so that a backlog is drained at the store's speed rather than one
batch per linger (which would cap the stack at ``batch / linger`` moves a second)."""
from __future__ import annotations

from services.matchmaking import consumer
from services.matchmaking.inbox import Inbox, inbox_key
from shared.canonical import dumps
from shared.notices import PLAYER_NOTICES
from shared.streams import Consumer, poll_together


def test_the_pause_after_a_read():
    assert consumer.pause_after(0, 200, linger_s=0.05) == 0.0     # nothing found: the read waited already
    assert consumer.pause_after(1, 200, linger_s=0.05) == 0.05    # a few: let the next ones gather
    assert consumer.pause_after(199, 200, linger_s=0.05) == 0.05
    assert consumer.pause_after(200, 200, linger_s=0.05) == 0.0   # a full batch: a backlog, read on


def test_a_backlog_of_notices_is_read_in_full_batches_without_lingering(r):
    inbox = Inbox(r)
    for version in range(1, 451):
        r.xadd(PLAYER_NOTICES, {"m": dumps({"match_id": "m1", "game": "duel", "version": version,
                                            "status": "active", "to_act": [version % 2],
                                            "players": [[0, "pa", True], [1, "pb", True]]})})
    notices = Consumer(r, PLAYER_NOTICES, "matchmaking", lambda _id, m: inbox.fan_out(m),
                       batch=consumer.NOTICE_BATCH,
                       handle_many=lambda entries: inbox.fan_out_many([m for _id, m in entries]))
    reads, pauses = [], []
    while not reads or reads[-1]:
        reads.append(poll_together([notices], block_ms=10))
        pauses.append(consumer.pause_after(reads[-1], notices.batch, linger_s=0.05))
    assert reads == [200, 200, 50, 0]
    assert pauses == [0.0, 0.0, 0.05, 0.0]
    # every notice fanned out once: a's turns at the even versions, b's at the odd ones
    assert len(r.xrange(inbox_key("pa"))) == 1 + 225 and len(r.xrange(inbox_key("pb"))) == 1 + 225
