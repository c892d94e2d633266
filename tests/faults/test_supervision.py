"""The launcher keeps the stack up: a killed process comes back and play goes on; Redis away for a
while makes nobody exit; signals to the launcher (or its death) stop every process it started."""
from __future__ import annotations

import os
import signal
import time

import pytest
import requests

from shared import localredis
from tests.support.chaos import kill9, role_pids
from tests.support.stack import Client, start_stack, wait_for, wait_ready

pytestmark = pytest.mark.slow

ROLES = ["services.rules.app", "services.matchmaking.app", "services.scoring.app", "services.rules.consumer",
         "services.scoring.consumer", "services.matchmaking.consumer", "services.bots"]


def bot_match_is_played_and_scored(stack) -> None:
    host = Client.register(stack, f"host-{time.time_ns()}")
    r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"bot": "random"}, {"bot": "greedy"}]})
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    wait_for(lambda: host.get(f"{stack.rules}/v1/matches/{match_id}").json()["status"] == "finished", 120, 0.2,
             "the bot match to finish")
    wait_for(lambda: host.get(f"{stack.scoring}/v1/results/{match_id}").status_code == 200, 60, 0.2,
             "the match to be scored")


def test_kill_9_of_each_kind_of_process_and_the_stack_recovers_by_itself(tmp_path):
    stack = start_stack(None, tmp_path)
    try:
        for role in ROLES + [stack.redis_title("store"), stack.redis_title("queue")]:
            victims = role_pids(stack, role)
            assert victims, f"no {role} process in the stack"
            kill9(victims[0])
            wait_for(lambda: victims[0] not in role_pids(stack, role) and role_pids(stack, role), 60, 0.2,
                     f"{role} to be restarted")
        wait_ready(stack)
        bot_match_is_played_and_scored(stack)
        assert "exited: " in stack.log()  # the supervisor logged the deaths
    finally:
        stack.stop()


def test_redis_away_for_ten_seconds_makes_no_process_exit(tmp_path):
    data = tmp_path / "redis"
    server = localredis.start(data, persistent=True)
    stack = start_stack(server.url, tmp_path)
    try:
        bot_match_is_played_and_scored(stack)
        before = {p: open(f"/proc/{p}/cmdline", "rb").read() for p in stack.pids()}
        server.stop()
        time.sleep(10)  # the outage itself, not a wait for something to happen
        server = localredis.start(data, port=server.port, persistent=True)
        wait_ready(stack)
        bot_match_is_played_and_scored(stack)
        after = stack.pids()
        assert set(before) <= after, f"processes exited during the outage: {[before[p] for p in set(before) - after]}"
    finally:
        stack.stop()
        server.stop()


@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGHUP", "SIGKILL"])
def test_the_launcher_stopped_or_killed_leaves_no_process_behind(tmp_path, how):
    stack = start_stack(None, tmp_path)
    assert len(stack.pids()) >= 10
    os.kill(stack.process.pid, getattr(signal, how))
    try:
        wait_for(lambda: not stack.pids(), 30, 0.2, f"every process of the stack to stop after {how}")
    finally:
        stack.stop()


def test_a_taken_port_is_a_clear_error_at_start(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        stack = start_stack(None, tmp_path, wait=False, EMBEDDED_REDIS_PORT=str(port))
        code = stack.process.wait(60)
        assert code == 2
        assert f"port {port} (EMBEDDED_REDIS_PORT) is already in use" in stack.log()
        assert not stack.pids()
        with pytest.raises(requests.ConnectionError):
            requests.get(f"{stack.rules}/healthz", timeout=2)
