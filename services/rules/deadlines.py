"""Turn deadlines: a seat that leaves a decision pending for ``turn_seconds`` is handed to a bot.

When a human seat starts waiting on a decision, a check is scheduled with RQ (``enqueue_in``)
on the rules service's own queue. The check hands the seat over (a ``match.seat_handed_over``
event, reason ``timeout``) if the seat is still to act and has not moved since. Deadlines are
kept in ``{m:<id>}:deadlines`` (seat -> unix time) so clients can see them.
"""
from __future__ import annotations

import time
from datetime import timedelta

import redis
from rq import Queue

from shared.eventstore.store import Conflict, keys
from shared.matches import Matches, MatchOver

RULES_QUEUE = "rules"
CHECK = "services.rules.jobs.check_deadline"


def deadlines_key(match_id: str) -> str:
    return keys(match_id)["deadlines"]


class Deadlines:
    def __init__(self, client: redis.Redis, matches: Matches):
        self.r = client
        self.matches = matches
        self.queue = Queue(RULES_QUEUE, connection=client)

    def after_change(self, mstate: dict, *, moved: int | None = None) -> None:
        """Schedule a check for each human seat that has just started waiting on a decision
        (``moved``: the seat that just acted, whose old deadline is over)."""
        limit = mstate.get("turn_seconds")
        if not limit:
            return  # no clock in this match
        key = deadlines_key(mstate["match_id"])
        if moved is not None:
            self.r.hdel(key, moved)
        if mstate["status"] != "active":
            self.r.delete(key)
            return
        waiting = {s for s in Matches.to_act(mstate) if mstate["controllers"][s] == "human"}
        current = {int(k): float(v) for k, v in self.r.hgetall(key).items()}
        gone = [s for s in current if s not in waiting]
        if gone:
            self.r.hdel(key, *gone)
        for seat in waiting - set(current):  # the check first: a crash before hset re-arms it later
            due = time.time() + limit
            self.queue.enqueue_in(timedelta(seconds=limit), CHECK, mstate["match_id"], seat, mstate["version"],
                                  job_id=f"deadline-{mstate['match_id']}-{seat}-{mstate['version']}")
            self.r.hset(key, seat, due)

    def of(self, mstate: dict) -> dict | None:
        """seat -> when its pending decision is due (None for a match without a clock)."""
        if not mstate.get("turn_seconds") or mstate["status"] != "active":
            return None
        raw = self.r.hgetall(deadlines_key(mstate["match_id"]))
        return {str(int(k)): float(v) for k, v in raw.items()} or None

    def check(self, match_id: str, seat: int, since_version: int) -> bool:
        """Hand the seat over if it has not acted since ``since_version`` and still must. True if it did."""
        self.matches.forget(match_id)
        mstate = self.matches.state(match_id)
        if mstate["status"] != "active" or mstate["controllers"][seat] != "human":
            return False
        if seat not in Matches.to_act(mstate):
            return False
        later = self.matches.store.read(match_id, after=since_version)
        if any((r.get("cause") or {}).get("seat") == seat for r in later):
            return False
        try:
            done = self.matches.hand_over(match_id, seat, "greedy", "timeout", expected_version=mstate["version"])
        except (Conflict, MatchOver):
            return False
        self.r.hdel(deadlines_key(match_id), seat)
        return done.state is not None
