"""The rules stream process killed (-9) while it holds a match stream: moves are answered
throughout, and the client, resuming with Last-Event-ID, gets every event once (issue #25)."""
from __future__ import annotations


import pytest

from deploy.run import handoff_socket
from shared.stream_handoff import listening
from tests.support.chaos import kill9, role_pids
from tests.support.stack import Client, seat_players, start_stack, wait_for
from tests.support.streams import StreamReader

pytestmark = pytest.mark.slow


def test_rule_streams_that_hold_kill_9_of_the_stream_process_loses_no_event(tmp_path):
    stack = start_stack(None, tmp_path)
    try:
        # the stack is ready without it (the workers would serve the stream): wait until it listens
        wait_for(lambda: listening(handoff_socket(stack.env)), 90, 0.1, "the stream process to listen")
        alice, bob = Client.register(stack, "sp-a"), Client.register(stack, "sp-b")
        mid = seat_players(alice, {"game": "duel", "seats": [
            {"player_id": alice.player_id}, {"player_id": bob.player_id}]}, [bob])
        url = f"{stack.rules}/v1/matches/{mid}/stream"
        reader = StreamReader(url, bob.token)
        head = alice.get(f"{stack.rules}/v1/matches/{mid}").json()["version"]
        seen = [reader.next(30) for _ in range(head)]
        (process,) = role_pids(stack, "services.rules.stream_server")
        kill9(process)

        def move() -> int:
            legal = alice.get(f"{stack.rules}/v1/matches/{mid}/legal-moves").json()
            r = alice.post(f"{stack.rules}/v1/matches/{mid}/moves", json={
                "move": legal["moves"][0], "expected_version": legal["version"]})
            assert r.status_code == 201, r.text  # answered while the stream process is down
            return r.json()["version"]

        version = move()
        wait_for(lambda: reader.ended.is_set(), 30, 0.1, "the dropped stream to end")
        while not reader.messages.empty():
            seen.append(reader.messages.get())
        resumed = StreamReader(url, bob.token, last_event_id=seen[-1]["id"])
        while int(seen[-1]["id"]) < version:
            seen.append(resumed.next(30))
        assert [int(m["id"]) for m in seen] == list(range(1, version + 1))
        resumed.close()
    finally:
        stack.stop()
