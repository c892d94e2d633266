"""A process that dies at any step between accepting a change and its follow-ups never leaves a
match stuck: the follow-ups run again from the log (``Followups.sweep``).

Every fail point of ``shared.faults`` on the path is armed at once; each fires once, in whichever
process reaches it first (the rules service's request worker, the rules consumer creating a
match, the deadline worker), and kills that process on the spot.
"""
from __future__ import annotations

import pytest
import requests

from tests.support.chaos import register
from tests.support.stack import start_stack, wait_for

pytestmark = pytest.mark.slow

POINTS = ["after-create", "after-append", "after-bot-enqueue", "before-intent-cleared", "after-publish"]


def status_of(url: str) -> int | None:
    """The status of a GET, or None when a dying process cut the connection."""
    try:
        return requests.get(url, timeout=10).status_code
    except requests.ConnectionError:
        return None


def play_as_human(stack, match_id: str, seat: int, token: str) -> dict:
    base = f"{stack.rules}/v1/matches/{match_id}"
    headers = {"Authorization": f"Bearer {token}"}

    def step():
        try:
            m = requests.get(base, timeout=10).json()
            if m["status"] != "active":
                return m
            if seat in m["to_act"]:
                legal = requests.get(f"{base}/legal-moves", headers=headers, timeout=10).json()
                if legal["moves"] and legal["version"] == m["version"]:
                    requests.post(f"{base}/moves", headers=headers, timeout=10,
                                  json={"move": legal["moves"][0], "expected_version": legal["version"]})
        except requests.ConnectionError:
            pass  # a process died at a fail point: whatever it was answering is cut off, not lost
        return None

    return wait_for(step, 180, 0.1, f"match {match_id} to finish")


def test_a_crash_at_each_step_between_append_and_follow_ups_leaves_no_match_stuck(tmp_path):
    once = tmp_path / "fired"
    once.mkdir()
    stack = start_stack(None, tmp_path, FAULT_CRASH_AT=",".join(POINTS), FAULT_ONCE_DIR=str(once),
                        BOT_RETRY_AFTER_S="3")
    try:
        pid, token = register(stack, "human")
        for _ in range(2):  # the second match meets the points the first one did not reach
            r = requests.post(f"{stack.mm}/v1/tables", headers={"Authorization": f"Bearer {token}"}, timeout=60,
                              json={"game": "duel", "seats": [{"player_id": pid}, {"bot": "random"}]})
            if r.status_code == 503:  # the rules consumer died creating it: the match comes anyway
                match_id = r.json()["match_id"]
            else:
                assert r.status_code == 201, r.text
                match_id = r.json()["match_id"]
            wait_for(lambda: status_of(f"{stack.rules}/v1/matches/{match_id}") == 200, 120, 0.2, "the match to exist")
            final = play_as_human(stack, match_id, 0, token)
            assert final["status"] == "finished"
            wait_for(lambda: status_of(f"{stack.scoring}/v1/results/{match_id}") == 200, 120, 0.2,
                     "the finished match to be scored")
            audit = requests.get(f"{stack.rules}/v1/matches/{match_id}/audit", timeout=60).json()
            assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"], audit
        fired = sorted(p.name.removeprefix("fired-") for p in once.iterdir())
        assert fired == sorted(POINTS), stack.log()
        assert stack.log().count("fault injected") == len(POINTS)
    finally:
        stack.stop()
