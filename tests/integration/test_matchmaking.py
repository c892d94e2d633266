"""Matchmaking through the running stack: open tables, the queue, bot fill, deadlines, resignation."""
import redis
import requests

from tests.support.stack import Client, seat_players, wait_for


def ticket(client, ticket_id):
    return client.get(f"{client.stack.mm}/v1/queue/{ticket_id}").json()


def test_a_four_player_queue_forms_one_match_from_four_tickets(stack):
    clients = [Client.register(stack, f"q{i}") for i in range(4)]
    ids = []
    for c in clients:
        r = c.post(f"{stack.mm}/v1/queue", json={"game": "duel", "players": 4, "options": {"rounds": 2}})
        assert r.status_code == 202, r.text
        ids.append(r.json()["ticket_id"])
    tickets = [wait_for(lambda c=c, t=t: (lambda x: x["status"] == "matched" and x)(ticket(c, t)), 30,
                        what="matched ticket") for c, t in zip(clients, ids)]
    assert len({t["match_id"] for t in tickets}) == 1
    assert sorted(t["seat"] for t in tickets) == [0, 1, 2, 3]
    match = requests.get(f"{stack.rules}/v1/matches/{tickets[0]['match_id']}").json()
    by_seat = {s["seat"]: s["player_id"] for s in match["seats"]}
    for c, t in zip(clients, tickets):
        assert by_seat[t["seat"]] == c.player_id


def test_one_live_ticket_per_pool_and_cancellation(stack):
    c = Client.register(stack, "solo")
    body = {"game": "duel", "players": 3, "options": {"rounds": 1}}
    first = c.post(f"{stack.mm}/v1/queue", json=body)
    assert first.status_code == 202
    second = c.post(f"{stack.mm}/v1/queue", json=body)
    assert second.status_code == 409 and second.json()["ticket_id"] == first.json()["ticket_id"]
    other = Client.register(stack, "other")
    assert other.get(f"{stack.mm}/v1/queue/{first.json()['ticket_id']}").status_code == 403
    assert c.delete(f"{stack.mm}/v1/queue/{first.json()['ticket_id']}").status_code == 204
    assert ticket(c, first.json()["ticket_id"])["status"] == "cancelled"
    assert c.post(f"{stack.mm}/v1/queue", json=body).status_code == 202
    bad = c.post(f"{stack.mm}/v1/queue", json={"game": "nope", "players": 2})
    assert bad.status_code == 422 and bad.headers["Content-Type"].startswith("application/problem+json")


def test_bot_fill_after_waiting(stack):
    c = Client.register(stack, "lonely")
    t = c.post(f"{stack.mm}/v1/queue", json={"game": "duel", "players": 2, "options": {"rounds": 4},
                                             "bot_fill_after_s": 0.5}).json()["ticket_id"]
    matched = wait_for(lambda: (lambda x: x["status"] == "matched" and x)(ticket(c, t)), 30, what="bot fill")
    match = requests.get(f"{stack.rules}/v1/matches/{matched['match_id']}").json()
    assert sorted(s.get("bot", "human") for s in match["seats"]) == ["greedy", "human"]


def test_the_queue_pairs_by_rating(stack):
    r = redis.Redis.from_url(stack.redis_url)
    clients = [Client.register(stack, f"r{i}") for i in range(4)]
    for c, rating in zip(clients, (10.0, 30.0, 11.0, 31.0)):
        r.hset("mm:ratings:duel", c.player_id, rating)
    ids = [c.post(f"{stack.mm}/v1/queue", json={"game": "duel", "players": 2, "options": {"rounds": 3}}).json()["ticket_id"]
           for c in clients]
    matched = [wait_for(lambda c=c, t=t: (lambda x: x["status"] == "matched" and x)(ticket(c, t)), 30, what="pairing")
               for c, t in zip(clients, ids)]
    assert matched[0]["match_id"] == matched[2]["match_id"] and matched[1]["match_id"] == matched[3]["match_id"]
    assert matched[0]["match_id"] != matched[1]["match_id"]


def test_open_tables_join_leave_and_start(stack):
    host, guest, late = (Client.register(stack, n) for n in ("host", "guest", "late"))
    r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
        {"player_id": host.player_id}, {"open": True}, {"open": True}]})
    assert r.status_code == 201 and r.json()["status"] == "open"
    table_id = r.json()["table_id"]
    listed = requests.get(f"{stack.mm}/v1/tables", params={"game": "duel"}).json()
    assert table_id in [t["table_id"] for t in listed]
    assert host.post(f"{stack.mm}/v1/tables/{table_id}/join", json={}).status_code == 409  # sits once
    assert guest.post(f"{stack.mm}/v1/tables/{table_id}/join", json={"seat": 2}).status_code == 200
    assert late.post(f"{stack.mm}/v1/tables/{table_id}/join", json={"seat": 2}).status_code == 409
    assert guest.post(f"{stack.mm}/v1/tables/{table_id}/start", json={}).status_code == 403  # host only
    assert host.post(f"{stack.mm}/v1/tables/{table_id}/start", json={}).status_code == 409  # seat 1 open
    assert guest.post(f"{stack.mm}/v1/tables/{table_id}/leave").status_code == 200
    started = host.post(f"{stack.mm}/v1/tables/{table_id}/start", json={"fill_with_bots": "random"})
    assert started.status_code == 200, started.text
    match = requests.get(f"{stack.rules}/v1/matches/{started.json()['match_id']}").json()
    assert [s.get("bot") for s in match["seats"]] == [None, "random", "random"]
    assert table_id not in [t["table_id"] for t in requests.get(f"{stack.mm}/v1/tables").json()]


def test_tables_reject_bad_seats(stack):
    host = Client.register(stack, "h")
    cases = [
        {"game": "duel", "seats": [{"player_id": host.player_id}]},  # too few
        {"game": "duel", "seats": [{"player_id": host.player_id}, {"player_id": host.player_id}]},
        {"game": "duel", "seats": [{"player_id": "ghost"}, {"bot": "random"}]},
        {"game": "duel", "seats": [{"bot": "genius"}, {"bot": "random"}]},
        {"game": "duel", "seats": [{"bot": "random"}, {"bot": "random"}], "options": {"rounds": 99}},
        {"game": "nope", "seats": [{"bot": "random"}, {"bot": "random"}]},
    ]
    for body in cases:
        r = host.post(f"{stack.mm}/v1/tables", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.headers["Content-Type"].startswith("application/problem+json")
    assert requests.post(f"{stack.mm}/v1/tables", json=cases[0]).status_code == 401


def test_a_missed_deadline_hands_the_seat_to_a_bot_that_finishes_the_match(stack):
    idle = Client.register(stack, "idle")
    r = idle.post(f"{stack.mm}/v1/tables", json={"game": "duel", "turn_seconds": 1,
                                                 "seats": [{"player_id": idle.player_id}, {"bot": "random"}, {"bot": "random"}]})
    match_id = r.json()["match_id"]
    summary = requests.get(f"{stack.rules}/v1/matches/{match_id}").json()
    # on a busy machine the one-second deadline may already have fired and handed the seat over
    assert summary["turn_seconds"] == 1
    assert "0" in summary.get("deadlines", {}) or summary["seats"][0].get("abandoned")
    seen = idle.get(f"{stack.rules}/v1/matches/{match_id}/view").json()
    assert "0" in seen.get("deadlines", {}) or seen["seats"][0].get("abandoned")
    final = wait_for(lambda: (lambda m: m["status"] == "finished" and m)(
        requests.get(f"{stack.rules}/v1/matches/{match_id}").json()), 60, what="the handed-over match to finish")
    assert final["seats"][0]["abandoned"] is True and final["seats"][0]["controller"] == "greedy"
    assert idle.get(f"{stack.rules}/v1/matches/{match_id}/view").json()["seats"][0]["abandoned"] is True
    events = requests.get(f"{stack.rules}/v1/matches/{match_id}/events", params={"limit": 1000}).json()["events"]
    handed = [e for e in events if e["type"] == "match.seat_handed_over"]
    assert handed and handed[0]["data"] == {"seat": 0, "bot": "greedy", "reason": "timeout"}
    result = wait_for(lambda: (lambda x: x.status_code == 200 and x.json())(
        requests.get(f"{stack.scoring}/v1/results/{match_id}")), 30, what="scored result")
    assert result["standings"][0]["rank"] == 3 and result["standings"][0]["abandoned"]
    assert idle.get(f"{stack.rules}/v1/matches/{match_id}/legal-moves").status_code == 403


def test_resigning_from_a_two_player_match_ends_it_with_the_opponent_winning(stack):
    a, b = Client.register(stack, "a"), Client.register(stack, "b")
    match_id = seat_players(a, {"game": "duel", "seats": [{"player_id": a.player_id}, {"player_id": b.player_id}]}, [b])
    r = b.post(f"{stack.rules}/v1/matches/{match_id}/resign")
    assert r.status_code == 201, r.text
    m = requests.get(f"{stack.rules}/v1/matches/{match_id}").json()
    assert m["status"] == "finished" and m["result"]["ranks"] == [1, 2]
    assert b.post(f"{stack.rules}/v1/matches/{match_id}/resign").status_code in (403, 409)
    audit = requests.get(f"{stack.rules}/v1/matches/{match_id}/audit").json()
    assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"]


def test_resigning_from_a_three_player_match_hands_the_seat_to_a_bot(stack):
    a = Client.register(stack, "a3")
    match_id = a.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
        {"player_id": a.player_id}, {"bot": "random"}, {"bot": "random"}]}).json()["match_id"]
    assert a.post(f"{stack.rules}/v1/matches/{match_id}/resign").status_code == 201
    final = wait_for(lambda: (lambda m: m["status"] == "finished" and m)(
        requests.get(f"{stack.rules}/v1/matches/{match_id}").json()), 60, what="finish after resignation")
    assert final["seats"][0]["abandoned"]


def test_ratings_reach_matchmaking_through_the_ratings_stream(stack):
    r = redis.Redis.from_url(stack.redis_url)
    a, b = Client.register(stack, "winner"), Client.register(stack, "loser")
    match_id = seat_players(a, {"game": "duel", "seats": [{"player_id": a.player_id}, {"player_id": b.player_id}]}, [b])
    b.post(f"{stack.rules}/v1/matches/{match_id}/resign")
    # one ratings-updated message per player: wait for both
    wait_for(lambda: r.hget("mm:ratings:duel", a.player_id) and r.hget("mm:ratings:duel", b.player_id), 30,
             what="both ratings in matchmaking's store")
    assert float(r.hget("mm:ratings:duel", a.player_id)) > float(r.hget("mm:ratings:duel", b.player_id))
    mine = requests.get(f"{stack.scoring}/v1/players/{a.player_id}/ratings").json()
    assert mine["ratings"]["duel"]["matches"] == 1
