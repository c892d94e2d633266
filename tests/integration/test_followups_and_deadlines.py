"""What follows a change of a match, at the store: bot turns, the intent that makes them
recoverable, turn deadlines and their hand-over (services/rules/followups.py, deadlines.py), and
the due set both sweep (shared/due.py). Each test runs on a real Redis and on fakeredis.

The crash tests of the whole stack are in tests/faults/test_followups.py; these check, one step
at a time, what each step leaves in the store.
"""
from dataclasses import replace

import pytest
from rq import Queue

from services.rules import timeouts
from services.rules.deadlines import Deadlines
from services.rules.followups import Followups
from services.rules.runtime import Runtime
from shared.config import load
from shared.due import DueSet
from shared.eventstore import EventStore
from shared.eventstore.store import Conflict
from shared.matches import Matches

pytestmark = pytest.mark.store  # each test taking `r`: on a real Redis and on fakeredis

HUMAN_AND_BOT = [{"player_id": "a"}, {"bot": "random"}]
TWO_HUMANS = [{"player_id": "a"}, {"player_id": "b"}]


def runtime(r, **settings) -> Runtime:
    """The rules service's parts on the client ``r`` (the match store and the bot queue both)."""
    config = replace(load(), compact_after_s=None, **settings)
    matches = Matches(EventStore(r))
    deadlines = Deadlines(r, matches)
    return Runtime(config, r, matches, Followups(r, r, matches, deadlines, config), deadlines)


def create(rt: Runtime, seats, **message) -> dict:
    return rt.create_match({"match_id": "m", "game": "duel", "options": {}, "seats": seats, **message})


def bot_jobs(rt: Runtime) -> list[str]:
    return Queue(rt.config.bot_queue, connection=rt.redis).job_ids


def fire_due(rt: Runtime) -> int:
    """Fire the deadlines that fell due, as the rules consumer does (services/rules/consumer.py)."""
    return timeouts.fire_due(rt.deadlines, rt.followups)


def move(rt: Runtime, seat: int):
    """A legal move of ``seat``, submitted, and nothing after it (as if the process died)."""
    head = rt.matches.state("m")
    game = rt.matches.game_of(head)
    return rt.matches.submit("m", seat, game.legal_moves(head["game"], seat)[0], head["version"])


# ----- the due set (shared/due.py) ---------------------------------------------------------------
def test_a_due_set_hands_each_due_member_to_one_taker_until_its_lease_runs_out(r):
    due = DueSet(r, "things")
    r.zadd("things", {"early": 10, "later": 20, "future": 100})
    assert due.claim(now=25, lease_s=30, limit=1) == ["early"]  # the earliest first, at most `limit`
    assert due.claim(now=25, lease_s=30) == ["later"]  # "early" is leased until 55
    assert due.claim(now=25, lease_s=30) == []
    assert r.zscore("things", "early") == 55 and r.zscore("things", "future") == 100
    assert sorted(due.claim(now=60, lease_s=30)) == ["early", "later"]  # leases over: due again
    r.zrem("things", "early")  # the taker is done
    assert due.claim(now=1000, lease_s=1) == ["later", "future"]  # by when each fell due


# ----- follow-ups (services/rules/followups.py) ---------------------------------------------------
def test_a_new_match_enqueues_its_bot_turn_and_keeps_only_the_watchdog(r):
    rt = runtime(r)
    mstate = create(rt, HUMAN_AND_BOT)
    assert bot_jobs(rt) == [f"turn-m-1-{mstate['version']}"]
    assert list(rt.followups.pending()) == ["m|watch"]  # the intent is cleared; the bot is watched


def test_a_change_whose_follow_ups_never_ran_is_followed_up_by_the_sweep(r):
    rt = runtime(r, bot_retry_after_s=0)  # every intent falls due at once
    first = create(rt, HUMAN_AND_BOT)
    intent = rt.followups.expect("m")
    done = move(rt, 0)  # the process dies here: no follow-ups
    assert intent in rt.followups.pending() and bot_jobs(rt) == [f"turn-m-1-{first['version']}"]
    assert rt.followups.sweep() == 1  # the intent and the watchdog of one match
    assert bot_jobs(rt) == [f"turn-m-1-{first['version']}", f"turn-m-1-{done.version}"]
    assert list(rt.followups.pending()) == ["m|watch"]
    assert rt.matches.store.version("m") == done.version  # a follow-up appends nothing


def test_a_sweep_re_enqueues_a_lost_bot_turn_but_never_a_live_one_twice(r):
    rt = runtime(r, bot_retry_after_s=0)
    create(rt, HUMAN_AND_BOT)
    job = bot_jobs(rt)[0]
    assert rt.followups.sweep() == 1  # the watchdog falls due: the job is still queued, so it stays one
    assert bot_jobs(rt) == [job]
    Queue(rt.config.bot_queue, connection=r).remove(job)  # the job is lost
    r.delete(f"rq:job:{job}")
    assert rt.followups.sweep() == 1
    assert bot_jobs(rt) == [job]  # enqueued again, for the same seat and version


def test_a_refused_change_cancels_its_intent_and_a_failed_one_leaves_it_for_the_sweep(r):
    rt = runtime(r)
    create(rt, TWO_HUMANS)
    with pytest.raises(Conflict), rt.followups.changing("m"):
        raise Conflict(1)  # refused: nothing appended
    assert rt.followups.pending() == {}
    with pytest.raises(ConnectionError), rt.followups.changing("m") as intent:
        raise ConnectionError("the process lost its store mid-change")
    assert list(rt.followups.pending()) == [intent]


# ----- deadlines (services/rules/deadlines.py) -----------------------------------------------------
def test_a_seat_that_starts_waiting_gets_a_deadline_and_loses_it_once_it_moves(r):
    rt = runtime(r)
    mstate = create(rt, TWO_HUMANS, turn_seconds=30)
    clocks = rt.deadlines.of(mstate)
    assert set(clocks) == {"0", "1"}  # duel: both commit at once
    assert r.zcard(rt.deadlines.due.key) == 2
    done = move(rt, 0)
    rt.followups.after_change(done.state, moved=0)
    assert set(rt.deadlines.of(done.state)) == {"1"}


def test_a_due_deadline_hands_the_seat_to_a_bot_once(r):
    rt = runtime(r, bot_retry_after_s=0)
    mstate = create(rt, TWO_HUMANS, turn_seconds=30)
    move_0 = move(rt, 0)
    rt.followups.after_change(move_0.state, moved=0)
    key = rt.deadlines.due.key
    for entry in r.zrange(key, 0, -1):
        r.zadd(key, {entry: 0})  # 30 s later: every deadline is due
    assert fire_due(rt) == 2  # seat 0's is moot (it moved), seat 1's fires
    after = rt.matches.state("m")
    assert after["controllers"] == ["human", "greedy"] and after["version"] == move_0.version + 1
    assert bot_jobs(rt) == [f"turn-m-1-{after['version']}"]  # the new bot plays the seat's turn
    assert r.zcard(key) == 0 and rt.deadlines.of(after) is None
    assert rt.deadlines.check("m", 1, mstate["version"]) is False  # a second firing changes nothing
