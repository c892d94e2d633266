"""Issue #25, "Streams that hold", and the seat's state stream: through the running stack (real
HTTP under gunicorn's gevent workers as deploy/Procfile runs them, real Redis)."""
from __future__ import annotations

import time
from urllib.parse import urlparse

import pytest
import requests

from shared import localredis
from tests.support.stack import Client, seat_players, start_stack, wait_for
from tabletop_client import ApiProblem
from tests.support.streams import NDJSON, SSE, RawStreams, StreamReader

PROBLEM = "application/problem+json"
PER_PLAYER, PER_ADDRESS = 4, 40


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("streams")
    server = localredis.start(workdir / "redis")
    s = start_stack(server.url, workdir, MAX_STREAMS_PER_PLAYER=str(PER_PLAYER),
                    MAX_STREAMS_PER_ADDRESS=str(PER_ADDRESS), STREAM_RECHECK_S="0.5",
                    RATE_LIMIT_STREAMS_PER_TOKEN="100000/minute", RATE_LIMIT_STREAMS_PER_ADDRESS="100000/minute")
    yield s
    s.kill()
    server.stop()


def duel(stack):
    alice, bob = Client.register(stack, "alice"), Client.register(stack, "bob")
    mid = seat_players(alice, {"game": "duel", "seats": [
        {"player_id": alice.player_id}, {"player_id": bob.player_id}]}, [bob])
    return alice, bob, mid


def player_stream(stack):
    return f"{stack.mm}/v1/players/me/stream"


def match_url(stack, mid, tail=""):
    return f"{stack.rules}/v1/matches/{mid}{tail}"


def invite(stack, host: Client, guest: Client) -> str:
    r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
        {"player_id": host.player_id}, {"player_id": guest.player_id}]})
    assert r.status_code == 201, r.text
    return r.json()["table_id"]


def play(player: Client, stack, mid) -> int:
    """Post the player's first legal move; the version it made."""
    legal = player.get(match_url(stack, mid, "/legal-moves")).json()
    r = player.post(match_url(stack, mid, "/moves"), json={"move": legal["moves"][0],
                                                            "expected_version": legal["version"]})
    assert r.status_code == 201, r.text
    return r.json()["version"]


def assert_problem(r, status, slug=None):
    assert r.status_code == status, r.text
    assert r.headers["Content-Type"].startswith(PROBLEM)
    if slug:
        assert r.json()["type"] == f"urn:problem:{slug}"


# ----- keep-alives; held for as long as the client keeps them ----------------------------------------
@pytest.mark.slow
def test_both_streams_stay_open_while_quiet_for_65_s_with_keep_alives_and_then_deliver(stack):
    host, guest = Client.register(stack, "quiet-host"), Client.register(stack, "quiet-guest")
    alice, bob, mid = duel(stack)
    mine = StreamReader(player_stream(stack), guest.token)
    theirs = StreamReader(match_url(stack, mid, "/stream"), bob.token, last_event_id=str(
        requests.get(match_url(stack, mid)).json()["version"]))
    ndjson = StreamReader(player_stream(stack), guest.token, accept=NDJSON)
    try:
        assert mine.status == theirs.status == ndjson.status == 200
        time.sleep(65)  # SSE_KEEPALIVE_S=1 in the stack: about 65 keep-alives each
        for reader in (mine, theirs, ndjson):
            assert not reader.ended.is_set(), reader.error
            assert reader.keepalives.qsize() >= 30
            assert reader.messages.empty()
        invite(stack, host, guest)
        assert mine.next_of("invitation", 30)["data"]["host"] == host.player_id
        assert ndjson.next_of("invitation", 30)["data"]["host"] == host.player_id
        v = play(alice, stack, mid)
        assert int(theirs.next(30)["id"]) == v
    finally:
        for reader in (mine, theirs, ndjson):
            reader.close()


# ----- no Redis connection per stream; the cap --------------------------------------------------------
def test_hundreds_of_held_player_streams_leave_registration_and_readyz_up(stack):
    players = [Client.register(stack, f"held-{i}") for i in range(75)]
    mm = urlparse(stack.mm)
    held = RawStreams(mm.hostname, mm.port, [("/v1/players/me/stream", {
        "Authorization": f"Bearer {p.token}", "Accept": SSE}) for p in players for _ in range(PER_PLAYER)])
    try:
        assert held.statuses == [200] * len(players) * PER_PLAYER  # 300 held
        for i in range(5):
            r = requests.post(f"{stack.mm}/v1/players", json={"name": f"while-held-{i}-{time.time_ns()}"}, timeout=30)
            assert r.status_code == 201, r.text
        assert requests.get(f"{stack.mm}/readyz", timeout=30).status_code == 200
        # still served: a held stream of the first player hears of an invitation to it
        watcher = Client.register(stack, "watcher-host")
        one_more = StreamReader(player_stream(stack), watcher.token)
        assert one_more.status == 200
        invite(stack, players[1], watcher)
        assert one_more.next_of("invitation", 30)["data"]["host"] == players[1].player_id
        one_more.close()
    finally:
        held.close()


def test_a_player_beyond_the_stream_cap_gets_429_problem_with_retry_after_on_both_services(stack):
    alice, bob, mid = duel(stack)
    readers = [StreamReader(player_stream(stack), alice.token) for _ in range(PER_PLAYER)]
    try:
        assert [r.status for r in readers] == [200] * PER_PLAYER
        r = alice.get(player_stream(stack), stream=True, timeout=30)
        assert_problem(r, 429, "too-many-streams")
        assert int(r.headers["Retry-After"]) >= 1 and f"at most {PER_PLAYER}" in r.json()["detail"]
        assert alice.get(f"{stack.mm}/v1/players/me").status_code == 200  # other calls are not refused
        # the match streams count against the same player, per service
        match_streams = [StreamReader(match_url(stack, mid, "/stream"), alice.token) for _ in range(PER_PLAYER)]
        assert [m.status for m in match_streams] == [200] * PER_PLAYER
        assert_problem(alice.get(match_url(stack, mid, "/turn/stream"), stream=True, timeout=30), 429,
                       "too-many-streams")
        for m in match_streams:
            m.close()
        readers.pop().close()

        def opens() -> bool:
            with alice.get(player_stream(stack), stream=True) as r:
                return r.status_code == 200

        wait_for(opens, 30, 0.2, "a place freed by a closed stream")
    finally:
        for reader in readers:
            reader.close()


def test_anonymous_spectators_are_capped_per_address(stack):
    _alice, _bob, mid = duel(stack)
    rules = urlparse(stack.rules)
    held = RawStreams(rules.hostname, rules.port, [(f"/v1/matches/{mid}/stream", {"Accept": SSE})] * PER_ADDRESS)
    try:
        assert held.statuses == [200] * PER_ADDRESS
        r = requests.get(match_url(stack, mid, "/stream"), stream=True, timeout=30)
        assert_problem(r, 429, "too-many-streams")
        assert "Retry-After" in r.headers
        assert requests.get(f"{stack.rules}/readyz", timeout=30).status_code == 200
    finally:
        held.close()


# ----- rotation ends streams --------------------------------------------------------------------------
def test_rotating_a_token_ends_every_stream_opened_with_it_within_seconds(stack):
    alice, bob, mid = duel(stack)
    old = alice.token
    streams = [StreamReader(player_stream(stack), old), StreamReader(match_url(stack, mid, "/stream"), old),
               StreamReader(match_url(stack, mid, "/turn/stream"), old, accept=NDJSON)]
    other = StreamReader(match_url(stack, mid, "/stream"), bob.token)
    try:
        assert [s.status for s in streams] == [200, 200, 200]
        r = alice.post(f"{stack.mm}/v1/players/me/token")
        assert r.status_code == 201
        rotated_at = time.monotonic()
        for s in streams:
            assert s.ended.wait(15), "a stream of the rotated token is still open"
        assert time.monotonic() - rotated_at < 15
        # and delivers nothing after it: a move now reaches bob's stream only
        while not streams[1].messages.empty():
            streams[1].messages.get()
        alice.token = r.json()["token"]
        v = play(alice, stack, mid)
        assert int(other.next_of("committed", 30)["id"]) == v
        assert streams[1].messages.empty()
        assert_problem(requests.get(match_url(stack, mid, "/stream"), headers={"Authorization": f"Bearer {old}"},
                                    stream=True, timeout=30), 401)
    finally:
        for s in [*streams, other]:
            s.close()


# ----- NDJSON -----------------------------------------------------------------------------------------
def test_every_stream_reads_as_ndjson_with_empty_keep_alive_lines(stack):
    alice, bob, mid = duel(stack)
    match = StreamReader(match_url(stack, mid, "/stream"), bob.token, accept=NDJSON)
    mine = StreamReader(player_stream(stack), bob.token, accept=NDJSON)
    sse = StreamReader(match_url(stack, mid, "/stream"), bob.token, accept="*/*")
    try:
        assert match.content_type.startswith(NDJSON) and mine.content_type.startswith(NDJSON)
        assert sse.content_type.startswith(SSE)  # SSE stays the default
        head = requests.get(match_url(stack, mid)).json()["version"]
        got = [match.next(30) for _ in range(head)]
        assert [int(m["id"]) for m in got] == list(range(1, head + 1))
        assert [m["event"] for m in got] == [m["data"]["type"] for m in got]
        assert all(m["data"]["seq"] == int(m["id"]) for m in got)
        assert match.keepalives.get(timeout=10) and mine.keepalives.get(timeout=10)
        invite(stack, alice, bob)
        assert mine.next_of("invitation", 30)["data"]["host"] == alice.player_id
    finally:
        for s in (match, mine, sse):
            s.close()


# ----- the seat's state stream ------------------------------------------------------------------------
def test_the_state_stream_starts_with_the_current_state_then_one_message_per_version(stack):
    alice, bob, mid = duel(stack)
    for fmt in (SSE, NDJSON):
        stream = StreamReader(match_url(stack, mid, "/turn/stream"), alice.token, accept=fmt)
        try:
            assert stream.status == 200 and stream.content_type.startswith(fmt)
            first = stream.next(30)
            assert first["event"] == "turn"
            turn = alice.get(match_url(stack, mid, "/turn")).json()
            assert first["data"] == turn and int(first["id"]) == turn["version"]
            for mover in (alice, bob, bob, alice):
                if not mover.get(match_url(stack, mid, "/legal-moves")).json()["moves"]:
                    continue
                v = play(mover, stack, mid)
                message = stream.next(30)
                assert message["event"] == "turn" and message["data"]["version"] == int(message["id"]) == v
                now = alice.get(match_url(stack, mid, "/turn")).json()
                assert message["data"]["moves"] == now["moves"] and message["data"]["state"] == now["state"]
            assert stream.messages.empty()
        finally:
            stream.close()


def test_the_state_stream_needs_a_seat_and_hides_other_hands(stack):
    alice, bob, mid = duel(stack)
    assert_problem(requests.get(match_url(stack, mid, "/turn/stream"), stream=True, timeout=30), 401)
    stranger = Client.register(stack, "stranger")
    assert_problem(stranger.get(match_url(stack, mid, "/turn/stream"), stream=True, timeout=30), 403)
    assert_problem(alice.get(match_url(stack, "no-such-match", "/turn/stream"), stream=True, timeout=30), 404)
    a = StreamReader(match_url(stack, mid, "/turn/stream"), alice.token)
    b = StreamReader(match_url(stack, mid, "/turn/stream"), bob.token)
    try:
        hands_a, hands_b = a.next(30)["data"]["state"]["hands"], b.next(30)["data"]["state"]["hands"]
        assert isinstance(hands_a["0"], list) and hands_a["1"] == {"count": 3}
        assert isinstance(hands_b["1"], list) and hands_b["0"] == {"count": 3}
    finally:
        a.close()
        b.close()


def test_the_state_stream_ends_after_the_finished_matchs_message(stack):
    alice, bob, mid = duel(stack)
    stream = StreamReader(match_url(stack, mid, "/turn/stream"), alice.token, accept=NDJSON)
    try:
        last = stream.next(30)
        while requests.get(match_url(stack, mid)).json()["status"] == "active":
            for mover in (alice, bob):
                if mover.get(match_url(stack, mid, "/legal-moves")).json()["moves"]:
                    play(mover, stack, mid)
        while last["data"]["status"] == "active":
            last = stream.next(30)
        assert last["data"]["moves"] == [] and stream.ended.wait(15)
    finally:
        stream.close()


def test_two_client_bots_play_a_match_to_its_end_from_their_state_streams_alone(stack):
    """tabletop_client's ``turn_stream``: each seat reads only its stream and posts moves."""
    import threading

    alice, bob, mid = duel(stack)
    results = {}

    def bot(player: Client) -> None:
        posted = 0
        for turn in player.api.turn_stream(mid):
            if turn["moves"]:
                try:
                    player.api.move(mid, turn["moves"][0], turn["version"])
                    posted += 1
                except ApiProblem as err:  # the other seat moved first (a simultaneous decision):
                    if not err.stale:      # the stream brings the new version next
                        raise
            results[player.player_id] = (turn["status"], posted)

    threads = [threading.Thread(target=bot, args=(p,), daemon=True) for p in (alice, bob)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a state stream did not end with its match"
    assert requests.get(match_url(stack, mid)).json()["status"] == "finished"
    assert {status for status, _ in results.values()} == {"finished"}
    assert all(posted >= 3 for _, posted in results.values())  # three rounds, one card each
