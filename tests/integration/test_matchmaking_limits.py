"""Matchmaking's abuse limits, names, tokens and paging: the Flask apps against a real Redis.

Time-dependent behaviour (token expiry, invitation expiry, idle tables) is driven by the services'
injectable clocks, so nothing here depends on how fast the machine is.
"""
import pytest
import redis

from services.matchmaking.inbox import Inbox, inbox_key
from services.matchmaking.players import name_problem
from shared.auth import Tokens
from shared.config import Config

PROBLEM = "application/problem+json"


class Clock:
    def __init__(self, now=1_900_000_000.0):
        self.now = now

    def __call__(self):
        return self.now


@pytest.fixture
def app(make_app):
    return make_app()


def register(client, name):
    r = client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    body["auth"] = {"Authorization": f"Bearer {body['token']}"}
    return body


def problem(resp, status, slug=None):
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.mimetype == PROBLEM
    body = resp.get_json()
    assert body["detail"]
    if slug:
        assert body["type"] == f"urn:problem:{slug}", body
    return body


# ----- names ---------------------------------------------------------------------------------------
def test_names_are_unique_case_insensitively_after_nfkc_normalisation(app):
    c = app.test_client()
    register(c, "Alice")
    for twin in ("alice", "ALICE", "\uff21lice", "ALİCE".replace("İ", "I")):  # fullwidth A is NFKC "A"
        body = problem(c.post("/v1/players", json={"name": twin}), 409, "name-taken")
        assert "taken" in body["detail"]
    register(c, "Alicia")
    register(c, "Ünal")
    problem(c.post("/v1/players", json={"name": "U\u0308nal"}), 409, "name-taken")  # decomposed Ü


@pytest.mark.parametrize("name, reason", [
    ("", "1 to 32"),
    ("x" * 33, "1 to 32"),
    ("bell\x07", "control or format"),
    ("evil\u202eoof", "control or format"),  # right-to-left override
    ("iso\u2066late", "control or format"),  # left-to-right isolate
    ("zero\u200bwidth", "control or format"),  # zero-width space (Cf)
    ("line\u2028sep", "printable"),
    (" padded", "white space"),
    ("bot:greedy", "reserved"),
    ("BOT:Greedy", "reserved"),
    ("\ufdfa\ufdfa", "normalised"),  # each expands to 18 characters under NFKC
])
def test_invalid_names_get_422_with_the_reason(app, name, reason):
    assert reason in name_problem(name)
    body = problem(app.test_client().post("/v1/players", json={"name": name}), 422, "invalid-name")
    assert reason in body["detail"]


def test_names_of_32_printable_characters_in_any_script_are_fine(app):
    c = app.test_client()
    for name in ("a" * 32, "Zoë", "数学者", "two words", "émoji 🎲"):
        assert name_problem(name) is None
        register(c, name)


# ----- tokens ----------------------------------------------------------------------------------------
def test_tokens_expire_after_their_lifetime(r):
    clock = Clock()
    tokens = Tokens("s", r, ttl_s=100, clock=clock)
    token = tokens.for_player("p1")
    assert tokens.verify(token).player_id == "p1"
    clock.now += 99
    assert tokens.verify(token) is not None
    clock.now += 1
    assert tokens.verify(token) is None


def test_an_expired_token_is_refused_with_401(make_app, redis_url):
    app = make_app(TOKEN_TTL_S=3600)
    c = app.test_client()
    me = register(c, "expiring")
    assert me["token_expires_at"] > 0
    assert c.post("/v1/queue", json={"game": "duel", "players": 2}, headers=me["auth"]).status_code == 202
    later = Tokens("unit-secret", redis.Redis.from_url(redis_url), clock=Clock(me["token_expires_at"] + 1))
    app.extensions["tokens"] = later
    problem(c.post("/v1/queue", json={"game": "duel", "players": 3}, headers=me["auth"]), 401, "invalid-token")


def test_rotation_gives_a_new_token_and_revokes_every_older_one(app):
    c = app.test_client()
    me = register(c, "rotator")
    first = me["auth"]
    r1 = c.post("/v1/players/me/token", headers=first)
    assert r1.status_code == 201 and r1.get_json()["player_id"] == me["player_id"]
    second = {"Authorization": f"Bearer {r1.get_json()['token']}"}
    problem(c.post("/v1/players/me/token", headers=first), 401, "invalid-token")
    r2 = c.post("/v1/players/me/token", headers=second)
    third = {"Authorization": f"Bearer {r2.get_json()['token']}"}
    problem(c.post("/v1/queue", json={"game": "duel", "players": 2}, headers=second), 401, "invalid-token")
    assert c.post("/v1/queue", json={"game": "duel", "players": 2}, headers=third).status_code == 202


def test_rotation_is_checked_by_every_service_sharing_the_secret(app, r):
    c = app.test_client()
    me = register(c, "everywhere")
    elsewhere = Tokens("unit-secret", r)  # what the rules and scoring services build
    assert elsewhere.verify(me["token"]).player_id == me["player_id"]
    c.post("/v1/players/me/token", headers=me["auth"])
    assert elsewhere.verify(me["token"]) is None


def test_bot_tokens_keep_working_whatever_the_player_token_lifetime(r):
    tokens = Tokens("s", r, ttl_s=1, clock=Clock())
    who = tokens.verify(tokens.for_bot("m1", 2, "greedy"))
    assert who.is_bot and who.bot_match == "m1" and who.bot_seat == 2


def test_tampered_and_malformed_tokens_are_refused(r):
    tokens = Tokens("s", r)
    good = tokens.for_player("p")
    assert tokens.verify(good[:-2] + "xx") is None
    assert tokens.verify(Tokens("other").for_player("p")) is None
    legacy = Tokens("s")._s.dumps({"p": "p"})  # an unexpiring token of the old format
    assert tokens.verify(legacy) is None


# ----- caps and idle tables ---------------------------------------------------------------------------
def test_a_host_has_at_most_five_open_tables(app):
    c = app.test_client()
    host = register(c, "busy")
    ids = []
    for _ in range(5):
        r = c.post("/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"open": True}]}, headers=host["auth"])
        assert r.status_code == 201
        ids.append(r.get_json()["table_id"])
    r = c.post("/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"open": True}]}, headers=host["auth"])
    body = problem(r, 429, "too-many-open-tables")
    assert int(r.headers["Retry-After"]) >= 1 and "5 open tables" in body["detail"]
    other = register(c, "calm")
    assert c.post("/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"open": True}]},
                  headers=other["auth"]).status_code == 201
    assert c.delete(f"/v1/tables/{ids[0]}", headers=other["auth"]).status_code == 403
    assert c.delete(f"/v1/tables/{ids[0]}", headers=host["auth"]).status_code == 204
    assert c.get(f"/v1/tables/{ids[0]}").get_json()["status"] == "cancelled"
    assert c.post("/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"open": True}]},
                  headers=host["auth"]).status_code == 201


def test_a_player_has_at_most_three_live_tickets(app):
    c = app.test_client()
    me = register(c, "queuer")
    tickets = [c.post("/v1/queue", json={"game": "duel", "players": 2, "options": {"rounds": n}}, headers=me["auth"])
               for n in (1, 2, 3)]
    assert [t.status_code for t in tickets] == [202, 202, 202]
    r = c.post("/v1/queue", json={"game": "duel", "players": 2, "options": {"rounds": 4}}, headers=me["auth"])
    assert problem(r, 429, "too-many-tickets") and int(r.headers["Retry-After"]) >= 1
    assert c.delete(f"/v1/queue/{tickets[0].get_json()['ticket_id']}", headers=me["auth"]).status_code == 204
    assert c.post("/v1/queue", json={"game": "duel", "players": 2, "options": {"rounds": 4}},
                  headers=me["auth"]).status_code == 202


def test_idle_open_tables_expire_and_free_the_hosts_slots(make_app):
    app = make_app(TABLE_IDLE_S=600)
    clock = Clock()
    app.extensions["tables"].clock = clock
    c = app.test_client()
    host = register(c, "idler")
    ids = [c.post("/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"open": True}]},
                  headers=host["auth"]).get_json()["table_id"] for _ in range(5)]
    clock.now += 300
    guest = register(c, "visitor")
    assert c.post(f"/v1/tables/{ids[0]}/join", json={}, headers=guest["auth"]).status_code == 200  # activity
    clock.now += 301
    listed = [t["table_id"] for t in c.get("/v1/tables").get_json()]
    assert listed == [ids[0]]
    assert c.get(f"/v1/tables/{ids[1]}").get_json()["status"] == "expired"
    problem(c.post(f"/v1/tables/{ids[1]}/join", json={}, headers=guest["auth"]), 409, "table-closed")
    assert app.extensions["tables"].sweep() >= 3
    assert c.post("/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"open": True}]},
                  headers=host["auth"]).status_code == 201


# ----- invitations at the unit level ------------------------------------------------------------------
def test_a_lapsed_invitation_becomes_an_open_seat_and_is_never_filled_with_the_invitee(make_app, r):
    app = make_app(INVITE_TTL_S=60)
    clock = Clock()
    app.extensions["tables"].clock = clock
    c = app.test_client()
    host, victim = register(c, "inviter"), register(c, "invitee")
    t = c.post("/v1/tables", json={"game": "duel", "seats": [{"player_id": host["player_id"]},
                                                            {"player_id": victim["player_id"]}]}, headers=host["auth"])
    assert t.status_code == 201
    table = t.get_json()
    assert table["status"] == "open" and "match_id" not in table
    assert table["seats"][1]["invited"] == victim["player_id"] and "player_id" not in table["seats"][1]
    assert table["seats"][1]["expires_at"] == clock.now + 60
    problem(c.post(f"/v1/tables/{table['table_id']}/start", json={"fill_with_bots": "random"}, headers=host["auth"]),
            409, "invitation-pending")
    mine = c.get("/v1/tables", query_string={"invited": "me"}, headers=victim["auth"]).get_json()
    assert [x["table_id"] for x in mine] == [table["table_id"]]
    clock.now += 61
    assert app.extensions["tables"].sweep() == 1
    seats = c.get(f"/v1/tables/{table['table_id']}").get_json()["seats"]
    assert seats[1] == {"seat": 1, "open": True}
    assert c.get("/v1/tables", query_string={"invited": "me"}, headers=victim["auth"]).get_json() == []
    kinds = [f[b"type"].decode() for _, f in r.xrange(inbox_key(victim["player_id"]))]
    assert kinds == ["invitation", "invitation_expired"]
    problem(c.post(f"/v1/tables/{table['table_id']}/decline", headers=victim["auth"]), 409, "not-invited")


def test_declining_opens_the_seat_and_tells_the_host(app, r):
    c = app.test_client()
    host, guest = register(c, "asker"), register(c, "refuser")
    table = c.post("/v1/tables", json={"game": "duel", "seats": [{"bot": "random"}, {"player_id": guest["player_id"]}]},
                   headers=host["auth"]).get_json()
    stranger = register(c, "stranger")
    problem(c.post(f"/v1/tables/{table['table_id']}/join", json={"seat": 1}, headers=stranger["auth"]), 409, "table-full")
    problem(c.post(f"/v1/tables/{table['table_id']}/decline", headers=stranger["auth"]), 409, "not-invited")
    out = c.post(f"/v1/tables/{table['table_id']}/decline", headers=guest["auth"])
    assert out.status_code == 200 and out.get_json()["seats"][1] == {"seat": 1, "open": True}
    host_events = [(f[b"type"].decode()) for _, f in r.xrange(inbox_key(host["player_id"]))]
    assert host_events == ["invitation_declined"]


# ----- paging --------------------------------------------------------------------------------------
def test_every_open_table_can_be_found_by_paging_through_more_than_200(app):
    c = app.test_client()
    made, hosts = [], []
    for h in range(42):
        host = register(c, f"pager{h}")
        hosts.append(host)
        for _ in range(5):
            r = c.post("/v1/tables", json={"game": "duel", "seats": [{"open": True}, {"open": True}]},
                       headers=host["auth"])
            made.append(r.get_json()["table_id"])
    assert len(made) == 210
    seen, url, query, pages = [], "/v1/tables", {"limit": 64}, 0
    while True:
        r = c.get(url, query_string=query)
        assert r.status_code == 200 and isinstance(r.get_json(), list)
        seen += [t["table_id"] for t in r.get_json()]
        pages += 1
        if "X-Next-Cursor" not in r.headers:
            assert "Link" not in r.headers
            break
        assert 'rel="next"' in r.headers["Link"] and r.headers["X-Next-Cursor"] in r.headers["Link"]
        query = {"limit": 64, "cursor": r.headers["X-Next-Cursor"]}
    assert pages == 4 and seen == made  # each exactly once, oldest first
    first = c.get("/v1/tables").get_json()
    assert len(first) == 200  # the default page is as long as the old unpaged answer
    by_host = c.get("/v1/tables", query_string={"host": hosts[7]["player_id"]}).get_json()
    assert [t["table_id"] for t in by_host] == made[35:40]
    assert c.get("/v1/tables", query_string={"game": "arkon"}).get_json() == []
    assert len(c.get("/v1/tables", query_string={"game": "duel", "limit": 3}).get_json()) == 3


def test_bad_paging_arguments_are_4xx_problems(app):
    c = app.test_client()
    problem(c.get("/v1/tables", query_string={"cursor": "%%%"}), 400, "bad-cursor")
    problem(c.get("/v1/tables", query_string={"cursor": "bm90LWEtbnVtYmVyOng"}), 400, "bad-cursor")
    assert c.get("/v1/tables", query_string={"limit": 0}).status_code == 422
    assert c.get("/v1/tables", query_string={"limit": 201}).status_code == 422
    assert c.get("/v1/tables", query_string={"invited": "someone"}).status_code == 422
    problem(c.get("/v1/tables", query_string={"invited": "me"}), 401, "missing-token")


# ----- rate limits -------------------------------------------------------------------------------------
def test_writes_are_limited_per_token_with_429_and_retry_after(make_app):
    app = make_app(RATE_LIMIT_WRITES_PER_TOKEN="3/minute")
    c = app.test_client()
    me, other = register(c, "writer"), register(c, "another")
    codes = [c.post("/v1/queue", json={"game": "nope", "players": 2}, headers=me["auth"]).status_code for _ in range(3)]
    assert codes == [422, 422, 422]
    r = c.post("/v1/queue", json={"game": "nope", "players": 2}, headers=me["auth"])
    body = problem(r, 429, "rate-limited")
    assert 1 <= int(r.headers["Retry-After"]) <= 60 and body["retry_after"] == int(r.headers["Retry-After"])
    assert c.post("/v1/queue", json={"game": "nope", "players": 2}, headers=other["auth"]).status_code == 422
    assert c.get("/v1/games", headers=me["auth"]).status_code == 200  # reads are not limited


def test_writes_are_limited_per_client_address(make_app):
    app = make_app(RATE_LIMIT_WRITES_PER_ADDRESS="4/minute")
    c = app.test_client()
    for i in range(4):
        register(c, f"addr{i}")
    r = c.post("/v1/players", json={"name": "addr-too-many"})
    problem(r, 429, "rate-limited")
    assert "Retry-After" in r.headers
    elsewhere = c.post("/v1/players", json={"name": "addr-elsewhere"}, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert elsewhere.status_code == 201


def test_streams_are_limited_per_token(make_app):
    app = make_app(RATE_LIMIT_STREAMS_PER_TOKEN="1/minute", SSE_KEEPALIVE_S="0.05")
    c = app.test_client()
    me = register(c, "watcher")
    first = c.get("/v1/players/me/stream", headers=me["auth"], buffered=False)
    assert first.status_code == 200 and first.mimetype == "text/event-stream"
    first.close()
    r = c.get("/v1/players/me/stream", headers=me["auth"])
    problem(r, 429, "rate-limited")
    assert int(r.headers["Retry-After"]) >= 1


def test_bot_tokens_are_exempt_from_the_limits(make_app):
    app = make_app(RATE_LIMIT_WRITES_PER_TOKEN="1/minute", RATE_LIMIT_WRITES_PER_ADDRESS="1/minute")
    c = app.test_client()
    bot = {"Authorization": f"Bearer {Tokens('unit-secret').for_bot('m', 0, 'greedy')}"}
    codes = {c.post("/v1/queue", json={"game": "duel", "players": 2}, headers=bot).status_code for _ in range(5)}
    assert codes == {403}  # matchmaking refuses bots, but never throttles them


def test_the_rules_service_limits_moves_through_the_same_hook(redis_url, monkeypatch):
    from services.rules.app import create_app as create_rules

    monkeypatch.setenv("RATE_LIMIT_WRITES_PER_TOKEN", "2/minute")
    app = create_rules(Config(redis_url=redis_url, auth_secret="unit-secret"))
    c = app.test_client()
    me = {"Authorization": f"Bearer {Tokens('unit-secret', redis.Redis.from_url(redis_url)).for_player('p')}"}
    codes = [c.post("/v1/matches/none/moves", json={"move": {"type": "x"}, "expected_version": 1},
                    headers=me).status_code for _ in range(3)]
    assert codes == [404, 404, 429]


def test_rate_limits_can_be_switched_off(make_app):
    app = make_app(RATE_LIMITS="off", RATE_LIMIT_WRITES_PER_ADDRESS="1/minute")
    c = app.test_client()
    for i in range(3):
        register(c, f"free{i}")


# ----- the inbox -----------------------------------------------------------------------------------
def test_notices_fan_out_once_per_version(r):
    inbox = Inbox(r)
    base = {"match_id": "m1", "game": "duel", "players": [[0, "pa", True], [1, "pb", True], [2, "pc", False]]}
    inbox.fan_out({**base, "version": 2, "status": "active", "to_act": [0, 1, 2]})
    inbox.fan_out({**base, "version": 2, "status": "active", "to_act": [0, 1, 2]})  # a redelivery
    inbox.fan_out({**base, "version": 3, "status": "active", "to_act": [1]})
    inbox.fan_out({**base, "version": 5, "status": "finished", "to_act": []})

    def kinds(p):
        return [(f[b"type"].decode(), Inbox(r).read(p, "0-0")[i][2]["version"])
                for i, (_, f) in enumerate(r.xrange(inbox_key(p)))]

    assert kinds("pa") == [("match_started", 2), ("your_turn", 2), ("match_ended", 5)]
    assert kinds("pb") == [("match_started", 2), ("your_turn", 2), ("your_turn", 3), ("match_ended", 5)]
    assert kinds("pc") == [("match_started", 2), ("match_ended", 5)]  # handed to a bot: never asked to act


def test_a_bad_last_event_id_is_a_400(app):
    c = app.test_client()
    me = register(c, "resumer")
    for bad in ("-5", "abc", "1-2-3", "99999999999999999999999", "1.5", "18446744073709551616-0"):
        problem(c.get("/v1/players/me/stream", headers={**me["auth"], "Last-Event-ID": bad}), 400, "bad-last-event-id")
    problem(c.get("/v1/players/me/stream"), 401, "missing-token")


def test_tables_made_before_invitations_existed_expire_instead_of_seating_anyone(app, r):
    """A table stored by the old version could name another player in a seat without their consent."""
    from services.matchmaking.tables import OPEN, table_key
    from shared.canonical import dumps

    c = app.test_client()
    host, victim, joiner = register(c, "old-host"), register(c, "old-victim"), register(c, "old-joiner")
    legacy = {"table_id": "legacy1", "game": "duel", "host": host["player_id"], "options": {"rounds": 3},
              "turn_seconds": 1, "status": "open", "created_at": 1.0,
              "seats": [{"player_id": victim["player_id"], "name": "old-victim"}, {"open": True}]}
    r.set(table_key("legacy1"), dumps(legacy))
    r.zadd(OPEN, {"legacy1": 1.0})
    assert c.get("/v1/tables").get_json() == []
    assert c.get("/v1/tables/legacy1").get_json()["status"] == "expired"
    problem(c.post("/v1/tables/legacy1/join", json={}, headers=joiner["auth"]), 409, "table-closed")
    assert r.zscore(OPEN, "legacy1") is None
