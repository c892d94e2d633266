"""Redis killed (-9) while streams are held: each stream ends cleanly or goes on, and resuming it
with Last-Event-ID loses nothing that was acknowledged (issue #25, "Streams that hold").

The stack runs its own embedded Redis (append-only, ``appendfsync always``) under the launcher,
which restarts it from its append-only file.
"""
from __future__ import annotations

import pytest
import requests

from tests.support.chaos import kill9, redis_ready, role_pids
from tests.support.stack import Client, seat_players, start_stack, wait_for
from tests.support.streams import NDJSON, StreamReader

pytestmark = pytest.mark.slow


def drain(reader: StreamReader) -> list[dict]:
    out = []
    while not reader.messages.empty():
        out.append(reader.messages.get())
    return out


def test_kill_9_of_redis_during_held_streams_loses_nothing_acknowledged(tmp_path):
    stack = start_stack(None, tmp_path)
    try:
        alice, bob = Client.register(stack, "crash-a"), Client.register(stack, "crash-b")
        mid = seat_players(alice, {"game": "duel", "seats": [
            {"player_id": alice.player_id}, {"player_id": bob.player_id}]}, [bob])
        match = StreamReader(f"{stack.rules}/v1/matches/{mid}/stream", bob.token)
        mine = StreamReader(f"{stack.mm}/v1/players/me/stream", alice.token, accept=NDJSON)
        head = requests.get(f"{stack.rules}/v1/matches/{mid}").json()["version"]
        seen = [match.next(30) for _ in range(head)]

        (server,) = role_pids(stack, stack.redis_title())
        kill9(server)
        wait_for(lambda: role_pids(stack, stack.redis_title()) not in ([], [server]), 60, 0.1, "redis restarted")
        wait_for(lambda: redis_ready(stack.redis_url), 60, 0.1, "redis to answer again")

        # a move and an invitation acknowledged after the restart
        def move_once() -> int | None:
            legal = alice.get(f"{stack.rules}/v1/matches/{mid}/legal-moves")
            if legal.status_code != 200:
                return None
            r = alice.post(f"{stack.rules}/v1/matches/{mid}/moves", json={
                "move": legal.json()["moves"][0], "expected_version": legal.json()["version"]})
            return r.json()["version"] if r.status_code == 201 else None

        version = wait_for(move_once, 60, 0.5, "a move accepted after the restart")
        table = wait_for(lambda: (lambda r: r.json()["table_id"] if r.status_code == 201 else None)(
            bob.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
                {"player_id": bob.player_id}, {"player_id": alice.player_id}]})), 60, 0.5, "an invitation")

        # the match stream: still open and delivering, or ended cleanly and resumed from its last id
        def events_through(reader: StreamReader, until: int) -> list[dict]:
            got = []
            while not got or int(got[-1]["id"]) < until:
                try:
                    got.append(reader.next(2))
                except Exception:
                    if reader.ended.is_set() and reader.messages.empty():
                        last = got[-1]["id"] if got else seen[-1]["id"]
                        reader = StreamReader(f"{stack.rules}/v1/matches/{mid}/stream", bob.token, last_event_id=last)
            return got

        after = events_through(match, version)
        ids = [int(m["id"]) for m in seen + after]
        assert ids == list(range(1, version + 1)), ids  # every event once, in order: none lost

        def invitation() -> bool:
            nonlocal mine
            got = drain(mine)
            if any(m["event"] == "invitation" and m["data"]["table_id"] == table for m in got):
                return True
            if mine.ended.is_set():  # ended cleanly: resume (an inbox id would be given by a client)
                mine = StreamReader(f"{stack.mm}/v1/players/me/stream", alice.token, accept=NDJSON,
                                    last_event_id="0-0")
            return False

        wait_for(invitation, 60, 0.5, "the invitation on the player stream")
        match.close()
        mine.close()
    finally:
        stack.stop()
