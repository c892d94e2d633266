"""Bot turns as RQ jobs: ``play_turn(match, seat, version, level, game, engine, token)``.

The job plays through the rules service's public API (``tabletop_client``) exactly like a human
client: one read of its seat's turn (view and legal moves at one version), the policy's choice,
and the move posted with the expected version. The token comes with the job: the rules service
mints it for this match and seat only, and it expires, so a worker holds no signing key and a
stolen worker cannot act for anybody else. A job for a version that is no longer current does
nothing, so a job that runs twice is harmless; a move refused because another seat's simultaneous
decision landed first is posted once more at the new version if it is still a legal move.

One job runs in one worker at a time: RQ pushes a job id again when it is enqueued again (two rules
processes following up the same change, a sweep re-enqueueing a job it thought lost), and two
workers could pop the same id. ``claimed`` takes the job's claim (``bots:claim:<job id>`` on the
queue Redis) first; a second copy finds it held by a live worker and does nothing. A claim whose
worker died is taken over; the claim is released when the job ends.
"""
from __future__ import annotations

import logging
import random
import time
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator

from rq import get_current_job

from shared import metrics
from shared.bots.policies import greedy_policy, random_policy, search_policy
from shared.config import load
from shared.engine import registry
from shared.rng import FastRng
from tabletop_client import ApiProblem, Tabletop

log = logging.getLogger("bots")


@lru_cache(maxsize=1)
def _client() -> Tabletop:
    """One HTTP session per worker process, kept from job to job."""
    return Tabletop(rules_url=load().rules_url, retries=2)


def choose(level: str, game, view: dict, seat: int, moves: list[dict]) -> dict:
    rng = FastRng(random.getrandbits(64))
    if level == "search":
        config = load()
        return search_policy(game, view, seat, moves, rng, iterations=config.search_iterations,
                             seconds=config.search_seconds)
    if level == "greedy":
        return greedy_policy(game, view, seat, moves, rng)
    return random_policy(game, view, seat, moves, rng)


CLAIM_TTL_S = 180  # longer than a job may run (its RQ timeout): a claim never outlives its job by much

# KEYS[1]: the claim; ARGV: this worker, its liveness key prefix, the claim's lifetime. The claim is
# ours unless a live worker (its RQ heartbeat key exists) other than us holds it. The queue Redis is
# a single server (RQ cannot use a cluster), so reading the holder's key here is allowed.
_CLAIM = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. holder) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
return 1
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def claim(queue_redis, job_id: str, worker_name: str) -> bool:
    """Take the claim on a job for ``worker_name``: False while another live worker holds it."""
    return bool(queue_redis.eval(_CLAIM, 1, claim_key(job_id), worker_name, "rq:worker:", CLAIM_TTL_S))


def release(queue_redis, job_id: str, worker_name: str) -> None:
    """Drop our claim on a job (another's is left alone)."""
    queue_redis.eval(_RELEASE, 1, claim_key(job_id), worker_name)


def claim_key(job_id: str) -> str:
    return f"bots:claim:{job_id}"


@contextmanager
def claimed() -> Iterator[bool]:
    """Whether this run of the current RQ job is the only one (True outside a job, in tests)."""
    job = get_current_job()
    if job is None or not job.worker_name:
        yield True
        return
    if not claim(job.connection, job.id, job.worker_name):
        yield False
        return
    try:
        yield True
    finally:
        release(job.connection, job.id, job.worker_name)


def play_turn(match_id: str, seat: int, version: int, level: str, game_id: str | None = None,
              engine: str | None = None, token: str | None = None) -> str:
    """Play one bot turn (the RQ job); counted in ``tabletop_bot_turns{level, outcome}``.

    A job queued by a release before bot tokens came with the job (2c4e00b and earlier: four
    arguments) carries no token, and workers hold no signing key: it does nothing ("stale"); the
    upgrade's migration gave its match a follow-up intent, so the rules service queues the turn
    again in the current shape (``services.rules.migrations``)."""
    if token is None or game_id is None:
        log.info("bot turn %s/%s@%s: a job of an older release (no token); the rules service queues it again",
                 match_id, seat, version)
        metrics.BOT_TURNS.labels(level, "stale").inc()
        return "stale"
    t0 = time.perf_counter()
    outcome = "failed"
    try:
        done = _play_turn(match_id, seat, version, level, game_id, engine, token)
        outcome = ("played" if done.startswith("played") else done if done in ("stale", "duplicate")
                   else "not_played")
        return done
    finally:
        metrics.BOT_TURNS.labels(level, outcome).inc()
        metrics.BOT_TURN_SECONDS.labels(level).observe(time.perf_counter() - t0)


def _play_turn(match_id: str, seat: int, version: int, level: str, game_id: str, engine: str, token: str) -> str:
    with claimed() as mine:
        if not mine:
            log.info("bot turn %s/%s@%s: another worker is playing this job", match_id, seat, version)
            return "duplicate"
        return _play(match_id, seat, version, level, game_id, engine, token)


def _play(match_id: str, seat: int, version: int, level: str, game_id: str, engine: str, token: str) -> str:
    api = _client().as_token(token)
    try:
        turn = api.turn(match_id)
    except ApiProblem as err:
        if err.status in (401, 403):  # the seat went back to a human, or the token expired
            return f"not played: {err.detail}"
        if err.type == "urn:problem:damaged-log":  # the stored log is damaged: no retry can play it
            log.error("bot turn %s/%s@%s: %s", match_id, seat, version, err.detail)
            return f"not played: {err.detail}"
        raise
    if turn["version"] != version or not turn["moves"]:
        return "stale"
    move = choose(level, registry.get(game_id, engine), turn["state"], seat, turn["moves"])
    for _attempt in range(2):
        try:
            done = api.move(match_id, move, version)
            return f"played version {version} -> {done['version']}"
        except ApiProblem as err:
            if err.status != 409:
                raise
        # Another seat's simultaneous decision landed first: the choice stands while it is still
        # this seat's to make (the thinking is not thrown away); otherwise a newer job plays.
        turn = api.turn(match_id)
        if move not in turn["moves"]:
            break
        version = turn["version"]
    return "stale"
