"""The crash points of the one-write move path (issue #24): a process that dies just before the
append's script call (nothing written: the client's retry is a fresh move) or just after it (the
move, its notice, its clocks and its watch are written, nothing after them ran) never leaves a
match stuck, nor a clock unarmed, nor a finished match unpublished.

``before-commit`` and ``after-commit`` are in ``Matches._commit``, around the one script call;
they fire once each, in whichever process reaches them first (the rules service's request
worker taking a human's or a bot's move, or the rules consumer handing a timed-out seat over).
"""
from __future__ import annotations

import pytest
import requests

from tests.faults.test_followups import play_as_human, status_of
from tests.support.chaos import register
from tests.support.stack import start_stack, wait_for

pytestmark = pytest.mark.slow

POINTS = ["before-commit", "after-commit"]


def finished(url: str) -> dict | None:
    """The match summary once finished; None before, or when a dying process cut the answer."""
    try:
        m = requests.get(url, timeout=10).json()
    except (requests.ConnectionError, ValueError):
        return None
    return m if m.get("status") == "finished" else None


def test_a_crash_on_either_side_of_the_one_write_leaves_no_match_stuck(tmp_path):
    once = tmp_path / "fired"
    once.mkdir()
    stack = start_stack(None, tmp_path, FAULT_CRASH_AT=",".join(POINTS), FAULT_ONCE_DIR=str(once),
                        BOT_RETRY_AFTER_S="3")
    try:
        pid, token = register(stack, "human")
        for _ in range(2):  # the second match meets the point the first one did not reach
            r = requests.post(f"{stack.mm}/v1/tables", headers={"Authorization": f"Bearer {token}"}, timeout=60,
                              json={"game": "duel", "seats": [{"player_id": pid}, {"bot": "random"}]})
            assert r.status_code in (201, 503), r.text
            match_id = r.json()["match_id"]
            match_url, result_url = f"{stack.rules}/v1/matches/{match_id}", f"{stack.scoring}/v1/results/{match_id}"
            wait_for(lambda url=match_url: status_of(url) == 200, 120, 0.2, "the match to exist")
            final = play_as_human(stack, match_id, 0, token)
            assert final["status"] == "finished"
            wait_for(lambda url=result_url: status_of(url) == 200, 120, 0.2, "the finished match to be scored")
            audit = requests.get(f"{stack.rules}/v1/matches/{match_id}/audit", timeout=60).json()
            assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"], audit
        fired = sorted(p.name.removeprefix("fired-") for p in once.iterdir())
        assert fired == sorted(POINTS), stack.log()
        assert stack.log().count("fault injected") == len(POINTS)
    finally:
        stack.stop()


def test_a_crash_after_the_write_of_a_clocked_move_still_hands_the_idle_seat_over(tmp_path):
    """The clocks are armed by the append itself: the process dying right after it loses none."""
    once = tmp_path / "fired"
    once.mkdir()
    stack = start_stack(None, tmp_path, FAULT_CRASH_AT="after-commit", FAULT_ONCE_DIR=str(once),
                        BOT_RETRY_AFTER_S="3")
    try:
        pid, token = register(stack, "idle")
        headers = {"Authorization": f"Bearer {token}"}
        r = requests.post(f"{stack.mm}/v1/tables", headers=headers, timeout=60,
                          json={"game": "duel", "turn_seconds": 2, "seats": [{"player_id": pid}, {"bot": "random"}]})
        match_id = r.json()["match_id"]
        wait_for(lambda: status_of(f"{stack.rules}/v1/matches/{match_id}") == 200, 120, 0.2, "the match to exist")
        # the idle player never moves: the bot's move (or the hand-over) meets the crash point
        final = wait_for(lambda: finished(f"{stack.rules}/v1/matches/{match_id}"), 180, 0.3,
                         "the idle seat to be handed over and the match to finish")
        assert final["seats"][0]["abandoned"] is True
        assert (once / "fired-after-commit").exists(), stack.log()
        wait_for(lambda: status_of(f"{stack.scoring}/v1/results/{match_id}") == 200, 120, 0.2,
                 "the finished match to be scored")
    finally:
        stack.stop()
