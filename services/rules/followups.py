"""What follows a change of a match: bot turns, turn deadlines, the finished-match message and,
for a finished match, its compaction later on (``compactions``).

Follow-ups come from the log, not from the request that appended. Before a process changes a
match it records an intent (``expect``: a member ``<match>|<token>`` of ``rules:followups``,
scored by when it falls due); after the change it runs ``after_change``, which clears that intent
last. While a bot is to act, the member ``<match>|watch`` stays as a watchdog for a lost job.
``sweep`` (the rules consumer, every second or so) takes every intent that fell due — a process
that died between the append and its follow-ups, a lost bot job — and runs the follow-ups again
from the match's state as the log has it. Every follow-up is idempotent (one bot job per match,
seat and version; one deadline per seat and version; scoring counts a finished match once), so
running them twice is harmless.

On a single Redis (the product's match store) a change made through ``change`` writes no intent
of its own: its append writes, in the same script call (``shared.eventstore.store.SideWrites``),
the member ``<match>|watch`` when something outside the store must follow (a bot is to act, the
match is over), or removes it when nothing must, together with the players' notice and the turn
clocks. A move between humans thus costs the store one durable write and nothing after it; a
process dying after the append leaves the watch to fall due, and ``sweep`` runs the follow-ups.
On a Redis Cluster those sets live in other slots than the match, so there ``change`` records the
intent first and runs ``after_change`` afterwards, as every other change does.
"""
from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

import redis
from redis.cluster import RedisCluster
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job

from shared import faults, metrics
from shared.auth import Tokens
from shared.canonical import dumps
from shared.config import Config
from shared.due import DueSet
from shared.engine.errors import IllegalMove
from shared.eventstore.store import Conflict, SideWrites, keys
from shared.matches import (
    Effects,
    Forbidden,
    KeyReused,
    Matches,
    MatchOver,
    NotFound,
    RequestInProgress,
    Submitted,
)
from shared.notices import NOTICES_MAXLEN, PLAYER_NOTICES, notice_of, publish_notice
from shared.streams import MATCHES_FINISHED, publish

from .compactions import COMPACTIONS, Compactions
from .deadlines import Deadlines

log = logging.getLogger("rules.followups")

FOLLOWUPS = "rules:followups"  # sorted set: "<match>|<token>" -> when its follow-ups must be checked
PLAY_TURN = "services.bots.worker.play_turn"
REFUSALS = (Conflict, MatchOver, Forbidden, IllegalMove, NotFound, RequestInProgress, KeyReused)  # nothing appended


class Followups:
    def __init__(self, client: redis.Redis, queue_client: redis.Redis, matches: Matches, deadlines: Deadlines,
                 config: Config):
        self.r = client
        self.matches = matches
        self.deadlines = deadlines
        self.queue = Queue(config.bot_queue, connection=queue_client)
        self.grace_s = config.bot_retry_after_s
        self.tokens = Tokens(config.auth_secret)
        self.due = DueSet(client, FOLLOWUPS)
        self.compactions = Compactions(client, matches.store, config.compact_after_s)
        # one durable write per change: the sets below share no slot with a match on a cluster
        self.one_write = not isinstance(client, RedisCluster)

    # ----- a change through the request path -------------------------------------------------
    def change(self, match_id: str, apply: Callable[[Effects | None], Submitted], *,
               moved: int | None = None) -> Submitted:
        """Make a change (``apply(effects)``, e.g. ``Matches.submit`` with ``effects``) and run
        its follow-ups. On a single Redis the append writes the intent, notice and clocks itself
        (one script call) and only what lies outside the store follows; on a cluster the intent is
        recorded before and ``after_change`` runs after. A replayed answer changes nothing."""
        if not self.one_write:
            with self.changing(match_id) as intent:
                done = apply(None)
            faults.point("after-append")
            if done.replayed:
                self.cancel(intent)
            else:
                self.after_change(done.state, [intent], moved=moved)
            return done
        done = apply(self.effects(moved))
        faults.point("after-append")
        if not done.replayed:
            self.after_commit(done.state)
        return done

    def effects(self, moved: int | None) -> Effects:
        """The side writes of the append that makes a new state (``moved``: the seat that acted):
        the watch while something outside the store must follow, the players' notice, the clocks."""
        def side(mstate: dict, prior: dict | None = None) -> SideWrites:
            writes = SideWrites()
            to_act = Matches.to_act(mstate)
            watch = f"{mstate['match_id']}|watch"
            if self.watched(mstate, to_act):
                writes.zadd(FOLLOWUPS, watch, time.time() + self.grace_s)
            elif prior is None or self.watched(prior):
                # a move between people after a move between people removes nothing: the append
                # that made ``prior`` removed the watch already (one that another path set since
                # only falls due, and the sweep, finding nothing to do, removes it)
                writes.zrem(FOLLOWUPS, watch)
            notice = notice_of(mstate, to_act)
            if notice is not None:
                writes.xadd(PLAYER_NOTICES, "m", dumps(notice), maxlen=NOTICES_MAXLEN)
            self.deadlines.side_writes(writes, mstate, moved=moved)
            return writes
        return side

    @staticmethod
    def watched(mstate: dict, to_act: list[int] | None = None) -> bool:
        """Whether a state needs its watch: something outside the store must follow it (a bot is
        to act, or the match is over and its result is to be published). ``to_act``: the state's
        seats to act, when known."""
        if mstate["status"] != "active":
            return True
        controllers = mstate["controllers"]
        return any(controllers[s] != "human" for s in (Matches.to_act(mstate) if to_act is None else to_act))

    def after_commit(self, mstate: dict) -> None:
        """What follows a change whose append wrote its own side writes (``effects``): the bot
        turns on the queue and, for a finished match, its publication, its compaction and the end
        of its watch, in one transaction."""
        for seat in Matches.to_act(mstate):
            if mstate["controllers"][seat] != "human":
                self._enqueue_turn(mstate, seat, retry=False)
        faults.point("after-bot-enqueue")
        if mstate["status"] == "active":
            return
        match_id = mstate["match_id"]
        faults.point("before-intent-cleared")
        with self.r.pipeline(transaction=True) as pipe:
            pipe.xadd(MATCHES_FINISHED, {"m": dumps(self._finished_message(mstate))})
            pipe.hset(keys(match_id)["meta"], "published", "1")
            if self.compactions.after_s is not None:
                pipe.zadd(COMPACTIONS, {match_id: time.time() + self.compactions.after_s}, nx=True)
            pipe.zrem(FOLLOWUPS, f"{match_id}|watch")
            pipe.execute()
        faults.point("after-publish")

    # ----- the intent ----------------------------------------------------------------------
    def expect(self, match_id: str) -> str:
        """Record that ``match_id`` is about to change; returns the intent to pass to
        ``after_change``. If the follow-ups do not run (the process dies), ``sweep`` runs them
        within ``BOT_RETRY_AFTER_S``."""
        intent = f"{match_id}|{secrets.token_hex(8)}"
        self.r.zadd(FOLLOWUPS, {intent: time.time() + self.grace_s})
        return intent

    @contextmanager
    def changing(self, match_id: str) -> Iterator[str]:
        """``expect`` around an attempt to change the match; a refusal (the match did not change)
        cancels the intent, any other failure leaves it for the sweep."""
        intent = self.expect(match_id)
        try:
            yield intent
        except REFUSALS:
            self.cancel(intent)
            raise

    def cancel(self, intent: str) -> None:
        self.r.zrem(FOLLOWUPS, intent)

    def pending(self) -> dict[str, float]:
        """Intent -> due time (for tests and operators)."""
        return {k.decode(): v for k, v in self.r.zrange(FOLLOWUPS, 0, -1, withscores=True)}

    # ----- the follow-ups ------------------------------------------------------------------
    def after_change(self, mstate: dict, intents: Iterable[str] = (), *, moved: int | None = None,
                     retry: bool = False) -> None:
        """Enqueue the bot turns the state calls for, (re)arm turn deadlines, tell the players
        (``shared.notices``), publish the result of a finished match and schedule its compaction;
        then clear ``intents``,
        and keep a watchdog while a bot is to act.
        ``retry``: from a sweep, which re-enqueues a bot turn only if its job is not alive."""
        match_id = mstate["match_id"]
        to_act = Matches.to_act(mstate)
        bots = [s for s in to_act if mstate["controllers"][s] != "human"]
        for seat in bots:
            self._enqueue_turn(mstate, seat, retry=retry)
        faults.point("after-bot-enqueue")
        self.deadlines.after_change(mstate, moved=moved)
        publish_notice(self.r, mstate, to_act)
        if mstate["status"] != "active":
            self.publish_finished(mstate)
            self.compactions.schedule(match_id)
        faults.point("before-intent-cleared")
        watch = f"{match_id}|watch"
        with self.r.pipeline(transaction=False) as pipe:
            if bots:
                pipe.zadd(FOLLOWUPS, {watch: time.time() + self.grace_s})
            else:
                pipe.zrem(FOLLOWUPS, watch)
            for intent in intents:
                if intent != watch:
                    pipe.zrem(FOLLOWUPS, intent)
            pipe.execute()

    def _enqueue_turn(self, mstate: dict, seat: int, *, retry: bool) -> None:
        job_id = f"turn-{mstate['match_id']}-{seat}-{mstate['version']}"
        if retry:
            if self._job_alive(job_id):
                return
            log.info("re-enqueueing bot turn %s: its job is lost", job_id)
        level = mstate["controllers"][seat]
        token = self.tokens.for_bot(mstate["match_id"], seat, level)  # this seat of this match only
        self.queue.enqueue_call(
            func=PLAY_TURN,
            args=(mstate["match_id"], seat, mstate["version"], level, mstate["game_id"], mstate["engine"], token),
            job_id=job_id, result_ttl=60, failure_ttl=24 * 3600, timeout=120,
        )
        metrics.BOT_TURNS_QUEUED.labels(level).inc()

    def _job_alive(self, job_id: str) -> bool:
        """Whether a bot job will still run: waiting in the queue, scheduled, or held by a worker
        that is alive (its heartbeat key exists)."""
        q = self.queue.connection
        try:
            job = Job.fetch(job_id, connection=q)
        except NoSuchJobError:
            return False
        status = str(getattr(job.get_status(refresh=False), "value", job.get_status(refresh=False)))
        if status in ("scheduled", "deferred"):
            return True
        if status == "queued":
            return q.lpos(self.queue.key, job_id) is not None
        if status == "started":
            return bool(job.worker_name) and bool(q.exists(f"rq:worker:{job.worker_name}"))
        return False

    def publish_finished(self, mstate: dict) -> None:
        """Publish the result once (a crash before the flag is set publishes it again: scoring
        counts a match once)."""
        match_id = mstate["match_id"]
        if self.matches.store.meta(match_id).get("published") == "1":
            return
        publish(self.r, MATCHES_FINISHED, self._finished_message(mstate))
        faults.point("after-publish")
        self.matches.store.set_meta(match_id, published="1")

    @staticmethod
    def _finished_message(mstate: dict) -> dict:
        return {
            "match_id": mstate["match_id"], "game": mstate["game_id"], "status": mstate["status"],
            "seats": mstate["seats"], "outcome": mstate["outcome"], "abandoned": mstate["abandoned"],
            "options": mstate["options"], "version": mstate["version"], "head_hash": mstate["head_hash"],
        }

    # ----- recovery ------------------------------------------------------------------------
    def sweep(self, limit: int = 100) -> int:
        """Run the follow-ups of every match whose intent fell due. Returns how many."""
        metrics.FOLLOWUP_SWEEPS.inc()
        by_match: dict[str, list[str]] = {}
        for intent in self.due.claim(time.time(), self.grace_s, limit):
            by_match.setdefault(intent.split("|", 1)[0], []).append(intent)
        for match_id, intents in by_match.items():
            self.matches.forget(match_id)
            try:
                mstate = self.matches.state(match_id)
            except NotFound:  # the change never happened (a create that died before its append)
                self.r.zrem(FOLLOWUPS, *intents)
                continue
            self.after_change(mstate, intents, retry=True)
            metrics.FOLLOWUPS_RERUN.inc()
        return len(by_match)
