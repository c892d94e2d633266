"""The rules service over real HTTP (gunicorn) against a real Redis."""
import json
import os
import signal
import subprocess
import sys
import threading

import pytest
import requests

from shared.localredis import free_port
from tests.support.stack import ROOT, Client, seat_players, wait_for

PROBLEM = "application/problem+json"


@pytest.fixture(scope="module")
def duel(stack):
    """A 2-seat Duel between two registered players; returns (alice, bob, match_id)."""
    alice, bob = Client.register(stack, "alice"), Client.register(stack, "bob")
    return alice, bob, seat_players(alice, {"game": "duel", "seats": [
        {"player_id": alice.player_id}, {"player_id": bob.player_id}], "options": {"rounds": 4}}, [bob])


def fresh_duel(stack):
    alice, bob = Client.register(stack, "alice"), Client.register(stack, "bob")
    return alice, bob, seat_players(alice, {"game": "duel", "seats": [
        {"player_id": alice.player_id}, {"player_id": bob.player_id}]}, [bob])


def url(stack, match_id, tail=""):
    return f"{stack.rules}/v1/matches/{match_id}{tail}"


def problem_of(resp, status):
    assert resp.status_code == status, resp.text
    assert resp.headers["Content-Type"].startswith(PROBLEM)
    body = resp.json()
    assert {"type", "title", "status", "detail"} <= set(body) and body["status"] == status
    return body


def test_match_summary_and_views(stack, duel):
    alice, bob, mid = duel
    m = requests.get(url(stack, mid)).json()
    assert m["game"] == "duel" and m["status"] == "active" and m["to_act"] == [0, 1]
    assert len(m["head_hash"]) == 64 and m["version"] >= 2
    mine = alice.get(url(stack, mid, "/view")).json()
    assert mine["seat"] == 0 and isinstance(mine["state"]["hands"]["0"], list)
    assert mine["state"]["hands"]["1"] == {"count": 3}
    spectator = requests.get(url(stack, mid, "/view")).json()
    assert spectator["seat"] is None and spectator["state"]["hands"]["0"] == {"count": 3}


def test_hidden_cards_never_reach_another_seat(stack, duel):
    alice, bob, mid = duel
    alice_hand = alice.get(url(stack, mid, "/view")).json()["state"]["hands"]["0"]
    bob_log = json.dumps(bob.get(url(stack, mid, "/events")).json())
    spectator_log = json.dumps(requests.get(url(stack, mid, "/events")).json())
    dealt_for_bob = [e for e in bob.get(url(stack, mid, "/events")).json()["events"] if e["type"] == "dealt"][0]
    assert "hand" in dealt_for_bob["data"] and sorted(dealt_for_bob["data"]["hand"]) != sorted(alice_hand)
    assert '"secret"' not in bob_log and '"private"' not in bob_log and '"cause"' not in spectator_log
    alice_moves = alice.get(url(stack, mid, "/legal-moves")).json()["moves"]
    assert sorted(m["card"] for m in alice_moves) == sorted(alice_hand)


def test_legal_moves_need_a_seat(stack, duel):
    alice, bob, mid = duel
    problem_of(requests.get(url(stack, mid, "/legal-moves")), 401)
    problem_of(requests.get(url(stack, mid, "/legal-moves"), headers={"Authorization": "Bearer forged"}), 401)
    carol = Client.register(stack, "carol")
    problem_of(carol.get(url(stack, mid, "/legal-moves")), 403)


def test_bad_requests_get_clear_4xx_problems(stack):
    alice, bob, mid = fresh_duel(stack)
    v = requests.get(url(stack, mid)).json()["version"]
    move = alice.get(url(stack, mid, "/legal-moves")).json()["moves"][0]
    raw = alice.http.post(url(stack, mid, "/moves"), data="{not json", headers={
        "Authorization": f"Bearer {alice.token}", "Content-Type": "application/json"})
    assert 400 <= raw.status_code < 500 and raw.headers["Content-Type"].startswith(PROBLEM)
    problem_of(alice.post(url(stack, mid, "/moves"), json={"move": "pass", "expected_version": v}), 422)
    problem_of(alice.post(url(stack, mid, "/moves"), json={"move": move, "expected_version": "7"}), 422)
    problem_of(alice.post(url(stack, mid, "/moves"), json={"move": move}), 422)
    illegal = problem_of(alice.post(url(stack, mid, "/moves"), json={"move": {"type": "commit", "card": 99},
                                                                     "expected_version": v}), 422)
    assert "card" in illegal["detail"] and "must be one of" in illegal["detail"]
    unknown = problem_of(alice.post(url(stack, mid, "/moves"), json={"move": {"type": "fly"}, "expected_version": v}), 422)
    assert "commit" in unknown["detail"]
    stale = problem_of(alice.post(url(stack, mid, "/moves"), json={"move": move, "expected_version": v - 1}), 409)
    assert stale["current_version"] == v
    problem_of(requests.get(url(stack, "no-such-match")), 404)
    problem_of(requests.get(url(stack, mid, "/view?at=0")), 422)
    problem_of(requests.get(url(stack, mid, "/view?at=9999")), 404)
    problem_of(requests.get(url(stack, mid, "/events?limit=abc")), 422)
    assert requests.get(url(stack, mid)).json()["version"] == v  # nothing was appended


def test_unknown_paths_methods_and_oversized_bodies_get_problems(stack):
    alice, bob, mid = fresh_duel(stack)
    problem_of(requests.get(f"{stack.rules}/v1/nowhere"), 404)
    problem_of(requests.delete(url(stack, mid, "/moves")), 405)
    huge = {"move": {"type": "commit", "card": 1, "pad": "x" * 400_000}, "expected_version": 1}
    problem_of(alice.post(url(stack, mid, "/moves"), json=huge), 413)


def test_not_your_decision_is_403(stack):
    alice, bob, mid = fresh_duel(stack)
    v = requests.get(url(stack, mid)).json()["version"]
    move = alice.get(url(stack, mid, "/legal-moves")).json()["moves"][0]
    assert alice.post(url(stack, mid, "/moves"), json={"move": move, "expected_version": v}).status_code == 201
    assert alice.get(url(stack, mid, "/legal-moves")).json()["moves"] == []
    again = alice.get(url(stack, mid, "/legal-moves")).json()
    problem_of(alice.post(url(stack, mid, "/moves"), json={"move": move, "expected_version": again["version"]}), 403)


def test_twenty_clients_posting_on_one_version_exactly_one_wins(stack):
    alice, bob, mid = fresh_duel(stack)
    m = requests.get(url(stack, mid)).json()
    move = alice.get(url(stack, mid, "/legal-moves")).json()["moves"][0]
    codes, barrier = [], threading.Barrier(20)

    def post():
        c = Client(stack, alice.token)
        barrier.wait()
        codes.append(c.post(url(stack, mid, "/moves"), json={"move": move, "expected_version": m["version"]}).status_code)

    threads = [threading.Thread(target=post) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [201] + [409] * 19
    events = requests.get(url(stack, mid, f"/events?after={m['version']}")).json()["events"]
    assert len(events) == 1


def test_view_at_an_earlier_version(stack):
    alice, bob, mid = fresh_duel(stack)
    v = requests.get(url(stack, mid)).json()["version"]
    move = alice.get(url(stack, mid, "/legal-moves")).json()["moves"][0]
    alice.post(url(stack, mid, "/moves"), json={"move": move, "expected_version": v})
    before = alice.get(url(stack, mid, f"/view?at={v}")).json()
    after = alice.get(url(stack, mid, "/view")).json()
    assert before["version"] == v and after["version"] == v + 1
    assert before["state"]["bids"]["committed"] == [] and after["state"]["bids"]["committed"] == [0]


def test_sse_stream_sends_each_event_and_resumes_from_last_event_id(stack):
    alice, bob, mid = fresh_duel(stack)
    v = requests.get(url(stack, mid)).json()["version"]
    with requests.get(url(stack, mid, "/stream"), headers={"Authorization": f"Bearer {bob.token}"},
                      stream=True, timeout=30) as resp:
        assert resp.headers["Content-Type"].startswith("text/event-stream")
        ids, lines = [], resp.iter_lines(decode_unicode=True)
        for line in lines:
            if line.startswith("id: "):
                ids.append(int(line[4:]))
            if line.startswith("data: "):
                assert '"private"' not in line
            if len(ids) == v:
                break
        assert ids == list(range(1, v + 1))
        move = alice.get(url(stack, mid, "/legal-moves")).json()["moves"][0]
        alice.post(url(stack, mid, "/moves"), json={"move": move, "expected_version": v})
        for line in lines:
            if line.startswith("id: "):
                assert int(line[4:]) == v + 1
                break
    with requests.get(url(stack, mid, "/stream"), headers={"Last-Event-ID": str(v)}, stream=True, timeout=30) as resp:
        first = next(line for line in resp.iter_lines(decode_unicode=True) if line.startswith("id: "))
        assert first == f"id: {v + 1}"


def test_sse_sends_keep_alive_comments_while_nothing_happens(stack):
    alice, bob, mid = fresh_duel(stack)
    with requests.get(url(stack, mid, "/stream"), stream=True, timeout=30) as resp:
        lines = resp.iter_lines(decode_unicode=True)
        assert any(line.startswith(": keep-alive") for line in lines)


def test_every_service_serves_health_and_openapi(stack):
    for base in (stack.mm, stack.rules, stack.scoring):
        assert requests.get(f"{base}/healthz").json()["status"] == "ok"
        assert requests.get(f"{base}/readyz").status_code == 200
        doc = requests.get(f"{base}/openapi.json").json()
        assert doc["openapi"].startswith("3.") and doc["paths"]
    paths = requests.get(f"{stack.rules}/openapi.json").json()["paths"]
    assert "/v1/matches/{match_id}/moves" in paths


def test_games_are_listed_with_their_options(stack):
    games = {g["id"]: g for g in requests.get(f"{stack.mm}/v1/games").json()["games"]}
    assert games["duel"]["min_players"] == 2 and games["duel"]["options"]["rounds"]["default"] == 3


def test_games_list_their_bot_levels_weakest_first_with_measured_records(stack):
    """Issue #11, "Levels that mean something": each level with its record against the one below."""
    games = {g["id"]: g for g in requests.get(f"{stack.mm}/v1/games").json()["games"]}
    for game in games.values():
        assert [lv["level"] for lv in game["bot_levels"]] == ["random", "greedy", "search"]
        assert "against_level_below" not in game["bot_levels"][0]
    measured = games["arkon"]["bot_levels"]
    assert measured[2]["against_level_below"], "arkon's search level was measured against greedy"
    for level in measured[1:]:
        for record in level["against_level_below"]:
            assert 0 <= record["ci95"][0] <= record["win_rate"] <= record["ci95"][1] <= 1
            assert record["matches"] >= 100 or record["players"] > 2


def _rules_process(redis_url, port, log):
    env = dict(os.environ, REDIS_URL=redis_url, AUTH_SECRET="test-secret", PYTHONPATH=str(ROOT),
               GAME_MODULES="tests.support.duel")
    return subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.py", "-b", f"127.0.0.1:{port}",
                             "services.rules.app:create_app()"], cwd=ROOT, env=env, stdout=log, stderr=log,
                            start_new_session=True)


def test_idempotent_retry_survives_a_rules_service_restart(stack, tmp_path):
    alice, bob, mid = fresh_duel(stack)
    port = free_port()
    log = open(tmp_path / "rules.log", "w")
    base = f"http://127.0.0.1:{port}/v1/matches/{mid}"
    headers = {"Authorization": f"Bearer {alice.token}", "Idempotency-Key": "retry-me"}

    def up():
        try:
            return requests.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200
        except requests.RequestException:
            return False

    proc = _rules_process(stack.redis_url, port, log)
    try:
        wait_for(up, 30, what="rules service")
        v = requests.get(base).json()["version"]
        move = requests.get(f"{base}/legal-moves", headers=headers).json()["moves"][0]
        first = requests.post(f"{base}/moves", json={"move": move, "expected_version": v}, headers=headers)
        assert first.status_code == 201
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)
    proc = _rules_process(stack.redis_url, port, log)
    try:
        wait_for(up, 30, what="rules service after restart")
        retry = requests.post(f"{base}/moves", json={"move": move, "expected_version": v}, headers=headers)
        assert retry.status_code == 201 and retry.json() == first.json()
        assert requests.get(base).json()["version"] == first.json()["version"]
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)


def test_turn_gives_the_view_and_legal_moves_at_one_version(stack):
    """Issue 11: one read gives a seat everything it needs to decide."""
    alice, bob, mid = fresh_duel(stack)
    turn = alice.get(url(stack, mid, "/turn")).json()
    view = alice.get(url(stack, mid, "/view")).json()
    legal = alice.get(url(stack, mid, "/legal-moves")).json()
    assert {"match_id", "version", "seat", "to_act", "state", "moves"} <= set(turn)
    assert turn["match_id"] == mid and turn["seat"] == 0 and turn["version"] == view["version"] == legal["version"]
    assert turn["state"] == view["state"] and turn["moves"] == legal["moves"] and turn["moves"]
    assert turn["state"]["hands"]["1"] == {"count": 3}  # bob's hand stays hidden
    posted = alice.post(url(stack, mid, "/moves"), json={"move": turn["moves"][0], "expected_version": turn["version"]})
    assert posted.status_code == 201
    after = alice.get(url(stack, mid, "/turn")).json()
    assert after["version"] == posted.json()["version"] and after["moves"] == [] and 0 not in after["to_act"]
    assert bob.get(url(stack, mid, "/turn")).json()["moves"]


def test_turn_needs_a_seat(stack, duel):
    alice, _bob, mid = duel
    problem_of(requests.get(url(stack, mid, "/turn")), 401)
    problem_of(Client.register(stack, "dave").get(url(stack, mid, "/turn")), 403)
    problem_of(alice.get(url(stack, "no-such-match", "/turn")), 404)


def test_a_quiet_matchs_stream_outlives_the_redis_socket_timeout(stack):
    """SSE_KEEPALIVE_S=1 in the stack: the live listener's socket timeout is 3 s; eight keep-alive
    comments take longer than that, and the stream still delivers the next event."""
    alice, _bob, mid = fresh_duel(stack)
    v = requests.get(url(stack, mid)).json()["version"]
    with requests.get(url(stack, mid, "/stream"), headers={"Last-Event-ID": str(v)}, stream=True, timeout=30) as resp:
        assert resp.status_code == 200
        lines = resp.iter_lines(decode_unicode=True)
        keepalives = 0
        for line in lines:
            keepalives += line.startswith(": keep-alive")
            if keepalives == 8:
                break
        move = alice.get(url(stack, mid, "/legal-moves")).json()["moves"][0]
        assert alice.post(url(stack, mid, "/moves"), json={"move": move, "expected_version": v}).status_code == 201
        assert next(line for line in lines if line.startswith("id: ")) == f"id: {v + 1}"


def test_watchers_share_one_redis_listener_per_process(stack):
    """Thirty watchers of one match hold no blocking Redis connection each."""
    import contextlib

    import redis

    _alice, _bob, mid = fresh_duel(stack)
    r = redis.Redis.from_url(stack.redis_url)
    with contextlib.ExitStack() as streams:
        for _ in range(30):
            resp = streams.enter_context(requests.get(url(stack, mid, "/stream"), stream=True, timeout=30))
            assert resp.status_code == 200
            next(resp.iter_lines(decode_unicode=True))  # ": connected": the watcher is registered

        def blocked():
            return [c for c in r.client_list() if c.get("cmd") == "xread"]
        wait_for(lambda: blocked(), 30, what="a live listener")
        # one per rules process and watched match (listeners of earlier tests' streams may linger a moment)
        assert len(blocked()) < 10


def test_a_finished_matchs_stream_ends_after_its_last_event(stack):
    host = Client.register(stack, "watcher")
    mid = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"bot": "random"}, {"bot": "random"}]}
                    ).json()["match_id"]
    wait_for(lambda: requests.get(url(stack, mid)).json()["status"] == "finished", 60, what="bots to finish")
    version = requests.get(url(stack, mid)).json()["version"]
    with requests.get(url(stack, mid, "/stream"), stream=True, timeout=30) as resp:
        ids = [int(line[4:]) for line in resp.iter_lines(decode_unicode=True) if line.startswith("id: ")]
    assert ids == list(range(1, version + 1))
