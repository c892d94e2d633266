"""The pairing consumer killed between its steps (``shared.faults``: ``os._exit``, as close to
``kill -9`` as a process can do to itself) never creates a tournament match twice nor skips one.

Armed at once, each firing once in whichever process reaches it first: after "round paired" is
appended and before any match is created (``tournament-after-pair``: the web worker that starts the
tournament, or the consumer pairing a later round), after a match's "match formed" is published
and before it is marked created (``tournament-after-publish``), and after a result is recorded
and before the next round is paired (``tournament-after-record``). The sweep and the redelivered
finished-match entry pick the work up from the log; match ids derived from (tournament, round,
table) make a repeated "match formed" name the same match, which the rules service creates once.
"""
from __future__ import annotations

import pytest
import requests

from tests.support.stack import Client, start_stack, wait_for

pytestmark = pytest.mark.slow

POINTS = ["tournament-after-pair", "tournament-after-publish", "tournament-after-record"]


def test_a_crash_at_each_pairing_step_creates_every_match_once(tmp_path):
    once = tmp_path / "fired"
    once.mkdir()
    stack = start_stack(None, tmp_path, FAULT_CRASH_AT=",".join(POINTS), FAULT_ONCE_DIR=str(once))
    try:
        org = Client.register(stack, "fault-org")
        r = org.post(f"{stack.mm}/v1/tournaments", json={"game": "duel", "format": "swiss", "players_per_match": 2,
                                                         "rounds": 3, "options": {"rounds": 1}})
        assert r.status_code == 201, r.text
        tid = r.json()["tournament_id"]
        for _ in range(5):
            assert org.post(f"{stack.mm}/v1/tournaments/{tid}/entrants", json={"bot": "random"}).status_code == 201
        try:
            org.post(f"{stack.mm}/v1/tournaments/{tid}/start")
        except requests.RequestException:
            pass  # the web worker died after pairing round one: the sweep creates its matches

        def finished():
            try:
                t = org.get(f"{stack.mm}/v1/tournaments/{tid}").json()
            except (requests.RequestException, ValueError):
                return None
            return t if t["status"] == "finished" else None

        final = wait_for(finished, 300, 0.5, "the tournament to finish despite the crashes")
        assert sorted(p.name for p in once.iterdir()) == sorted(f"fired-{p}" for p in POINTS)
        ids = [m["match_id"] for rnd in final["rounds"] for m in rnd["matches"]]
        assert len(final["rounds"]) == 3 and len(ids) == len(set(ids)) == 6
        assert all(m["status"] == "finished" for rnd in final["rounds"] for m in rnd["matches"])
        # no match twice and none skipped: the rules service holds exactly the tournament's matches
        listed = org.get(f"{stack.rules}/v1/matches", params={"game": "duel", "limit": 100}).json()
        assert sorted(m["match_id"] for m in listed["matches"]) == sorted(ids)
        for match_id in ids:
            assert org.get(f"{stack.rules}/v1/matches/{match_id}").json()["status"] == "finished"
    finally:
        stack.stop()
