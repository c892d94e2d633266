"""Redis killed (-9) while several clients post moves: no move answered 201 is lost.

The stack runs its own embedded Redis under the launcher's supervision with ``deploy/redis.conf``
(append-only, ``appendfsync always``); the supervisor restarts it from its append-only file.
"""
from __future__ import annotations

import redis
import pytest

from tests.support.chaos import MovePlayer, kill9, redis_ready, register, role_pids
from tests.support.stack import start_stack, wait_for

pytestmark = pytest.mark.slow

KILLS = 5


def test_kill_9_of_redis_during_bursts_of_moves_loses_no_acknowledged_move(tmp_path):
    stack = start_stack(None, tmp_path)
    try:
        players = [register(stack, f"p{i}") for i in range(4)]
        burst = MovePlayer(stack, players)
        threads = burst.run(threads=4)
        for kill in range(KILLS):
            before = len(burst.acks)
            wait_for(lambda: len(burst.acks) >= before + 40, 120, 0.1, f"moves before kill {kill + 1}")
            (server,) = role_pids(stack, stack.redis_title())
            kill9(server)
            wait_for(lambda: role_pids(stack, stack.redis_title()) not in ([], [server]), 60, 0.1, "redis restarted")
            wait_for(lambda: redis_ready(stack.redis_url), 60, 0.1, "redis to answer again")
        wait_for(lambda: len(burst.acks) >= before + 80, 120, 0.1, "moves after the last restart")
        burst.stop.set()
        for t in threads:
            t.join(30)
        lost = burst.missing(redis.Redis.from_url(stack.redis_url))
        assert len(burst.acks) > 200
        assert lost == [], f"{len(lost)} of {len(burst.acks)} acknowledged moves are missing: {lost[:5]}"
    finally:
        stack.stop()
