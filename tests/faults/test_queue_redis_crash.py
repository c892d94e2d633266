"""The queue Redis killed (-9) during bot play loses no bot turn: every match finishes.

``make run`` runs the queues (bot turns, rate-limit counters) on an embedded Redis of their own with
``deploy/redis-queue.conf`` (``appendfsync everysec``), so a kill may lose the last second of its
writes — the bot jobs just enqueued among them. Nothing there is the truth: each match's log keeps
a watch while a bot is to act, and the rules consumer's sweep re-enqueues a turn whose job is gone
(``services/rules/followups.py``). The last kill here also wipes the queue's append-only files, so
that every job on it is lost for certain, and the matches must still finish from their logs alone.
"""
from __future__ import annotations

import shutil

import pytest
import requests

from tests.support.chaos import kill9, redis_ready, role_pids
from tests.support.stack import Client, start_stack, wait_for

pytestmark = pytest.mark.slow

MATCHES_PER_KILL = 3
KILLS = 3


def statuses(stack, match_ids: list[str]) -> dict[str, str]:
    out = {}
    for m in match_ids:
        r = requests.get(f"{stack.rules}/v1/matches/{m}", timeout=30)
        out[m] = r.json()["status"] if r.status_code == 200 else "not yet created"
    return out


def test_kill_9_of_the_queue_redis_during_bot_play_loses_no_bot_turn(tmp_path):
    stack = start_stack(None, tmp_path)
    queue_dir = tmp_path / "data" / "queue-redis"
    try:
        host = Client.register(stack, "host")
        match_ids, unfinished_at_wipe = [], []
        for kill in range(KILLS):
            fresh = []
            for _ in range(MATCHES_PER_KILL):  # bot matches under way (their first turns queued) at the kill
                r = host.post(f"{stack.mm}/v1/tables", json={
                    "game": "duel", "seats": [{"bot": "random"}, {"bot": "random"}], "options": {"rounds": 4}})
                assert r.status_code == 201, r.text
                fresh.append(r.json()["match_id"])
            match_ids += fresh
            (server,) = role_pids(stack, stack.redis_title("queue"))
            if kill == KILLS - 1:  # every job and claim on the queue is lost, not only the last second
                for child in queue_dir.iterdir():
                    shutil.rmtree(child) if child.is_dir() else child.unlink()
            kill9(server)
            if kill == KILLS - 1:
                unfinished_at_wipe = [m for m, s in statuses(stack, fresh).items() if s != "finished"]
            wait_for(lambda: role_pids(stack, stack.redis_title("queue")) not in ([], [server]), 60, 0.1,
                     "the queue Redis restarted")
            wait_for(lambda: redis_ready(stack.queue_redis_url), 60, 0.1, "the queue Redis to answer again")
        assert unfinished_at_wipe, "every match had finished before the queue was wiped: the test proved nothing"
        # the test's BOT_RETRY_AFTER_S is 5 s: a lost turn is re-enqueued within seconds
        wait_for(lambda: set(statuses(stack, match_ids).values()) == {"finished"}, 180, 0.5,
                 "every bot match to finish after the queue Redis was killed")
        for match_id in match_ids:
            audit = requests.get(f"{stack.rules}/v1/matches/{match_id}/audit", timeout=30).json()
            assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"], (match_id, audit)
    finally:
        stack.stop()
