"""A rules notice fanned out to the players' inboxes: on a single Redis one script call per notice
(one durable write), on a cluster one command per event under the match's lock; the same events
either way, each once (a redelivered or older notice adds nothing)."""
from __future__ import annotations

import pytest

from services.matchmaking.inbox import Inbox, inbox_key


def notice(version, to_act, status="active"):
    return {"match_id": "m1", "game": "duel", "version": version, "status": status, "to_act": to_act,
            "players": [[0, "pa", True], [1, "pb", True], [2, "pc", False]]}


def inbox_of(r, player):
    return [(f[b"type"].decode(), f[b"m"].decode()) for _id, f in r.xrange(inbox_key(player))]


@pytest.mark.parametrize("one_call", [True, False], ids=["script", "lock"])
def test_each_player_gets_each_event_once(r, one_call):
    inbox = Inbox(r)
    if not one_call:
        inbox._fan_out_script = None  # what a cluster client gets
    for n in (notice(2, [0, 1, 2]), notice(3, [1]), notice(3, [1]), notice(2, [0]), notice(5, [], "finished")):
        inbox.fan_out(n)
    kinds = {p: [k for k, _ in inbox_of(r, p)] for p in ("pa", "pb", "pc")}
    assert kinds == {"pa": ["match_started", "your_turn", "match_ended"],
                     "pb": ["match_started", "your_turn", "your_turn", "match_ended"],
                     "pc": ["match_started", "match_ended"]}
    assert int(r.get("mm:notice-seen:m1")) == 5 and r.ttl("mm:notice-seen:m1") > 0


def test_both_ways_write_the_same_events(r):
    written = {}
    for one_call in (True, False):
        r.flushall()
        inbox = Inbox(r)
        if not one_call:
            inbox._fan_out_script = None
        inbox.fan_out(notice(2, [0, 1]))
        inbox.fan_out(notice(4, [1]))
        written[one_call] = {p: inbox_of(r, p) for p in ("pa", "pb", "pc")}
    assert written[True] == written[False]


@pytest.mark.parametrize("one_call", [True, False], ids=["script", "lock"])
def test_notices_fanned_out_together_write_what_one_by_one_writes(r, one_call):
    """``fan_out_many`` (the consumer's batch of one read: one pipeline on a single Redis) writes the
    same events as ``fan_out`` of each notice in order, redeliveries and older notices included."""
    batch = [notice(2, [0, 1, 2]), notice(3, [1]), notice(3, [1]), notice(2, [0]), notice(5, [], "finished")]
    written = {}
    for together in (False, True):
        r.flushall()
        inbox = Inbox(r)
        if not one_call:
            inbox._fan_out_script = None
        if together:
            assert inbox.fan_out_many(batch) == [True] * len(batch)
        else:
            for n in batch:
                inbox.fan_out(n)
        written[together] = {p: [k for k, _ in inbox_of(r, p)] for p in ("pa", "pb", "pc")}
    assert written[True] == written[False]
    assert written[True]["pb"] == ["match_started", "your_turn", "your_turn", "match_ended"]


def test_a_notice_that_fails_in_a_batch_is_said_so_and_the_others_stand(r):
    """A notice whose fan-out fails (here: a player's inbox key holds a string) is reported as not
    done (the consumer leaves it unacknowledged, to be delivered again); the rest are written."""
    r.set(inbox_key("px"), "not a stream")
    bad = {"match_id": "m2", "game": "duel", "version": 1, "status": "active", "to_act": [0],
           "players": [[0, "px", True]]}
    assert Inbox(r).fan_out_many([notice(2, [0]), bad, notice(3, [1])]) == [True, False, True]
    assert [k for k, _ in inbox_of(r, "pb")] == ["match_started", "your_turn"]
