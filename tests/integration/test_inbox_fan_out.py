"""A rules notice fanned out to the players' inboxes: on a single Redis the notices of one read in
one script call (one round trip, one durable write), on a cluster one command per event under the
match's lock; the same events either way, each once (a redelivered or older notice adds nothing)."""
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
    """``fan_out_many`` (the consumer's batch of one read: one script call on a single Redis) writes the
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
    done (the consumer leaves it unacknowledged, to be delivered again) and its match's last version
    is put back, so that the redelivery writes it; the rest are written."""
    r.set(inbox_key("px"), "not a stream")
    bad = {"match_id": "m2", "game": "duel", "version": 1, "status": "active", "to_act": [0],
           "players": [[0, "px", True]]}
    inbox = Inbox(r)
    assert inbox.fan_out_many([notice(2, [0]), bad, notice(3, [1])]) == [True, False, True]
    assert [k for k, _ in inbox_of(r, "pb")] == ["match_started", "your_turn"]
    assert r.get("mm:notice-seen:m2") is None  # not marked seen: its redelivery is not dropped
    with pytest.raises(RuntimeError, match="fan-out of notice m2 v1 failed"):
        inbox.fan_out(bad)  # the consumer's handler of a reclaimed entry: a failure it can see
    r.delete(inbox_key("px"))  # the inbox repaired, the redelivery goes through
    assert inbox.fan_out_many([bad]) == [True]
    assert [k for k, _ in inbox_of(r, "px")] == ["match_started", "your_turn"]


def test_a_malformed_notice_in_a_batch_fails_alone(r):
    """A notice the fan-out cannot read (no players) is said not done; the others are written."""
    broken = {"match_id": "m3", "game": "duel", "version": 1}
    assert Inbox(r).fan_out_many([notice(2, [0]), broken, notice(3, [1])]) == [True, False, True]
    assert [k for k, _ in inbox_of(r, "pb")] == ["match_started", "your_turn"]
    assert r.get("mm:notice-seen:m3") is None


def test_a_read_of_notices_costs_the_store_one_command(redis_url):
    """The notices of one read go to Redis as one script call, whatever their number: no pipeline
    of one call per notice, and no SCRIPT EXISTS before it (a real server's own command counts)."""
    import redis

    r = redis.Redis.from_url(redis_url)
    inbox = Inbox(r)
    inbox.fan_out_many([notice(1, [0])])  # the script is loaded once
    r.config_resetstat()
    batch = [notice(v, [v % 2]) for v in range(2, 27)]
    assert inbox.fan_out_many(batch) == [True] * len(batch)
    calls = {name: stat["calls"] for name, stat in r.info("commandstats").items()}
    top_level = {k: v for k, v in calls.items() if k not in ("cmdstat_set", "cmdstat_xadd", "cmdstat_config|resetstat")}
    assert top_level == {"cmdstat_evalsha": 1}, calls
    assert calls["cmdstat_xadd"] == len(batch)  # one your_turn per notice, inside the call
    r.close()
