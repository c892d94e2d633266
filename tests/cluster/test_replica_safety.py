"""What keeps replicas safe side by side, against a real Redis: a matchmaking group is seated all or
nothing (two waves of two pools never seat one player twice), one run of a bot job at a time, a
match's inbox fan-out one at a time, and the renaming of matchmaking's keys into one cluster slot."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis
from rq import Queue as RqQueue
from rq import get_current_job

from services.bots import worker
from services.matchmaking import slot
from services.matchmaking.forming import Former
from services.matchmaking.inbox import Inbox, inbox_key
from services.matchmaking.players import Players
from services.matchmaking.queue import Queue, pool_key, ticket_key
from services.matchmaking.tables import OPEN, table_key
from shared.canonical import loads
from shared.engine import registry

ROOT = Path(__file__).resolve().parents[2]

# each test taking `r`: on a real Redis and on fakeredis (the seat-a-group and bot-claim scripts too);
# those that start RQ workers or consumers in other processes (`redis_url`) on the real one only
pytestmark = pytest.mark.store


class PublishOnly(Former):
    """Publishes the formed match (the real stream) without waiting for a rules service."""

    form = Former.publish


@pytest.fixture
def queue(r):
    registry.load_all()
    players = Players(r)
    return Queue(r, players, PublishOnly(r, "http://127.0.0.1:9", 0.1))


def enqueue(queue, player, game, players):
    return queue.enqueue(player, {"game": game, "players": players, "options": {}, "bot_fill_after_s": 0,
                                  "turn_seconds": None})["ticket_id"]


def test_a_group_read_before_another_pool_seated_its_player_is_not_seated(queue, r):
    """Two matchmaking consumers wave two pools at once, both holding player p: the second to seat
    finds p's ticket withdrawn and seats nobody."""
    a = enqueue(queue, "p", "arkon", 3)
    b = enqueue(queue, "p", "fate-of-akalon", 3)
    stale = queue.waiting(loads(r.get(ticket_key(b)))["pool"])  # the second consumer's read
    formed = queue.wave(loads(r.get(ticket_key(a)))["pool"])  # the first consumer seats p (with bots)
    assert len(formed) == 1
    assert loads(r.get(ticket_key(b)))["status"] == "cancelled"
    assert queue._form(stale, 3) is None
    assert loads(r.get(ticket_key(b)))["status"] == "cancelled"
    mine = [loads(r.get(ticket_key(t))) for t in (a, b)]
    assert [t["status"] for t in mine] == ["matched", "cancelled"]


def test_a_claimed_group_leaves_its_pool_and_the_players_other_tickets_at_once(queue, r):
    a = enqueue(queue, "p", "arkon", 3)
    b = enqueue(queue, "p", "fate-of-akalon", 3)
    group = queue.waiting(loads(r.get(ticket_key(a)))["pool"])
    assert queue._claim(group)
    assert r.zcard(pool_key(loads(r.get(ticket_key(a)))["pool"])) == 0
    assert r.zcard(pool_key(loads(r.get(ticket_key(b)))["pool"])) == 0
    assert loads(r.get(ticket_key(a)))["status"] == "forming"
    assert not queue._claim(group), "a group is claimed once"


def test_one_run_of_a_bot_job_at_a_time(r):
    r.set("rq:worker:w1", "alive")
    assert worker.claim(r, "turn-m-0-3", "w1")
    assert not worker.claim(r, "turn-m-0-3", "w2"), "a live worker holds the job"
    assert worker.claim(r, "turn-m-0-3", "w1"), "the holder may run it again"
    worker.release(r, "turn-m-0-3", "w2")  # not w2's to release
    assert not worker.claim(r, "turn-m-0-3", "w2")
    r.delete("rq:worker:w1")  # w1 died (its heartbeat key expired)
    assert worker.claim(r, "turn-m-0-3", "w2"), "a dead worker's claim is taken over"
    worker.release(r, "turn-m-0-3", "w2")
    assert r.get(worker.claim_key("turn-m-0-3")) is None


def test_a_claim_expires_after_the_longest_job(r):
    assert worker.claim(r, "turn-x", "w9")
    assert 0 < r.ttl(worker.claim_key("turn-x")) <= worker.CLAIM_TTL_S


def test_matchmaking_keys_of_the_old_layout_are_renamed_into_one_slot_once(r):
    r.set("mm:table:t1", "{}")
    r.zadd("mm:tables:open", {"t1": 1.0})
    r.zadd("mm:pool:abc", {"k1": 1.0})
    r.hset("mm:pools", "abc", "{}")
    r.set("mm:ticket:k1", "{}")
    r.hset("mm:player:p1", "name", "ada")  # a player: single-key data, keeps its name
    assert slot.migrate_legacy_keys(r) == 5
    assert r.get(table_key("t1")) == b"{}" and r.zscore(OPEN, "t1") == 1.0
    assert r.get(ticket_key("k1")) == b"{}" and r.zscore(pool_key("abc"), "k1") == 1.0
    assert r.hget("{mm}:pools", "abc") == b"{}"
    assert r.hget("mm:player:p1", "name") == b"ada"
    assert not r.exists("mm:table:t1", "mm:tables:open", "mm:pool:abc", "mm:pools", "mm:ticket:k1")
    r.set("mm:table:t2", "{}")  # written by an old process after the migration: not renamed again
    assert slot.migrate_legacy_keys(r) == 0


def test_a_renamed_key_never_overwrites_a_new_one(r):
    r.set("mm:table:t1", "old")
    r.set(table_key("t1"), "new")
    slot.migrate_legacy_keys(r)
    assert r.get(table_key("t1")) == b"new"


def test_every_matchmaking_transaction_key_hashes_to_one_slot():
    from redis.cluster import key_slot

    from services.matchmaking import queue, tables

    names = [queue.POOLS, queue.ticket_key("t"), queue.pool_key("p"), queue.live_key("u", "p"),
             queue.player_tickets_key("u"), tables.OPEN, tables.IDLE, tables.INVITES_DUE, tables.table_key("t"),
             tables.by_game("g"), tables.by_host("h"), tables.by_invitee("i")]
    assert len({key_slot(n.encode()) for n in names}) == 1, names


def test_two_consumers_fanning_out_one_match_start_it_once_per_player(redis_url):
    """Two matchmaking consumers take different notices of one new match at the same moment."""
    players = [[0, "pa", True], [1, "pb", True]]
    barrier = threading.Barrier(8)

    def consumer(version: int) -> None:
        inbox = Inbox(redis.Redis.from_url(redis_url))  # a process of its own
        barrier.wait()
        inbox.fan_out({"match_id": "m1", "game": "duel", "players": players, "version": version,
                       "status": "active", "to_act": [0]})

    threads = [threading.Thread(target=consumer, args=(v,)) for v in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    client = redis.Redis.from_url(redis_url)
    for _seat, player, _human in players:
        started = [f for _id, f in client.xrange(inbox_key(player)) if f[b"type"] == b"match_started"]
        assert len(started) == 1, f"{player} was told {len(started)} times that the match started"


def probe(key: str) -> str:
    """A job standing in for a bot turn: counts its runs under the job's claim and the copies the
    claim turned away. A run waits (up to 30 s) for a copy to be turned away, so both copies of the
    job overlap; without the claim both run, wait, and the count says so."""
    client = get_current_job().connection
    with worker.claimed() as mine:
        if not mine:
            client.incr(f"{key}:refused")
            return "duplicate"
        client.incr(f"{key}:runs")
        deadline = time.time() + 30
        while not client.get(f"{key}:refused") and time.time() < deadline:
            time.sleep(0.05)
        return "ran"


def test_a_job_queued_twice_runs_once_across_two_rq_workers(redis_url):
    """What two rules processes following up one change do: the same job id pushed twice; two
    worker processes each pop a copy."""
    client = redis.Redis.from_url(redis_url)
    queue = RqQueue("bots-probe", connection=client)
    for _ in range(2):
        queue.enqueue_call(func=probe, args=("p1",), job_id="turn-probe-0-1", result_ttl=60)
    assert client.llen(queue.key) == 2
    code = ("import redis, sys; from rq import Queue, SimpleWorker; c = redis.Redis.from_url(sys.argv[1]); "
            "SimpleWorker([Queue('bots-probe', connection=c)], connection=c).work(burst=True)")
    workers = [subprocess.Popen([sys.executable, "-c", code, redis_url], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
    for w in workers:
        w.wait(timeout=120)
    assert int(client.get("p1:runs")) == 1, "the job ran twice at once"
    assert int(client.get("p1:refused")) == 1
