"""Turn deadlines: a seat that leaves a decision pending for ``turn_seconds`` is handed to a bot.

When a human seat starts waiting on a decision, its deadline is recorded twice: in
``{m:<id>}:deadlines`` (seat -> unix time, what clients see) and in ``rules:deadlines`` (a sorted
set of ``<match>|<seat>|<version>`` scored by when it is due). The rules consumer fires due
deadlines (``fire_due``): the seat is handed over (a ``match.seat_handed_over`` event, reason
``timeout``) if it is still to act and has not moved since. Claiming a due entry pushes its time
forward, so several consumers fire each deadline once, and one that dies mid-way is taken over.

On the request path the clocks are armed in the move's own append (``side_writes``: one script
call); ``after_change`` does the same with commands of its own, for the sweep and the changes
made elsewhere. Firing due deadlines, which needs the follow-ups too, is ``timeouts.fire_due``.
"""
from __future__ import annotations

import time

import redis

from shared.due import DueSet
from shared.eventstore.store import Conflict, SideWrites, keys
from shared.matches import Matches, MatchOver, NotFound

DUE = "rules:deadlines"  # sorted set: "<match>|<seat>|<version>" -> when the decision is due
RECLAIM_AFTER_S = 30  # a claimed deadline not fired by then (its consumer died) is due again


def deadlines_key(match_id: str) -> str:
    return keys(match_id)["deadlines"]


class Deadlines:
    def __init__(self, client: redis.Redis, matches: Matches):
        self.r = client
        self.matches = matches
        self.due = DueSet(client, DUE)

    def after_change(self, mstate: dict, *, moved: int | None = None) -> None:
        """Arm a deadline for each human seat that has just started waiting on a decision
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
        for seat in waiting - set(current):  # the due entry first: a crash before hset re-arms it later
            due = time.time() + limit
            self.r.zadd(DUE, {f"{mstate['match_id']}|{seat}|{mstate['version']}": due})
            self.r.hset(key, seat, due)

    def side_writes(self, writes: SideWrites, mstate: dict, *, moved: int | None = None) -> None:
        """What ``after_change`` does, as side writes of the append that makes ``mstate``."""
        limit = mstate.get("turn_seconds")
        if not limit:
            return
        waiting = {s: f"{mstate['match_id']}|{s}|{mstate['version']}" for s in Matches.to_act(mstate)
                   if mstate["controllers"][s] == "human"} if mstate["status"] == "active" else {}
        writes.clock(deadlines_key(mstate["match_id"]), DUE, moved=moved, over=mstate["status"] != "active",
                     due=time.time() + limit, waiting=waiting)

    def of(self, mstate: dict, clocks: dict[int, float] | None = None) -> dict | None:
        """seat -> when its pending decision is due (None for a match without a clock);
        ``clocks``: the clocks as the read of the head gave them (else they are read)."""
        if not mstate.get("turn_seconds") or mstate["status"] != "active":
            return None
        if clocks is None:
            raw = self.r.hgetall(deadlines_key(mstate["match_id"]))
            clocks = {int(k): float(v) for k, v in raw.items()}
        return {str(seat): due for seat, due in clocks.items()} or None

    def check(self, match_id: str, seat: int, since_version: int) -> bool:
        """Hand the seat over if it has not acted since ``since_version`` and still must. True if it did."""
        self.matches.forget(match_id)
        try:
            mstate = self.matches.state(match_id)
        except NotFound:
            return False
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
