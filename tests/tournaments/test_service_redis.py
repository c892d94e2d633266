"""The tournament service on a real Redis (no rules service: "match formed" messages are read off
their stream): racing replicas append each step once, a repeated finished-match message is recorded
once, a crash window between pairing and creating is repaired by the next advance, an abandoning
player is withdrawn, and the limits hold."""
from __future__ import annotations

import threading

import pytest
import redis as redis_lib

from services.matchmaking.forming import Former
from services.matchmaking.inbox import Inbox
from services.matchmaking.players import Players
from services.matchmaking.tournaments.service import Tournaments, created_key
from services.matchmaking.tournaments.settings import TournamentLimits
from shared.engine import registry
from shared.streams import MATCHES_FORMED, read_all
from shared.web import ApiError


@pytest.fixture
def client(redis_url):
    registry.load_all()
    c = redis_lib.Redis.from_url(redis_url)
    yield c
    c.close()


def service(client, **limits) -> Tournaments:
    players = Players(client)
    return Tournaments(client, players, Former(client, "http://127.0.0.1:9", 0.1), Inbox(client),
                       TournamentLimits(**limits) if limits else None)


def formed_ids(client) -> list[str]:
    return [m["match_id"] for _, m in read_all(client, MATCHES_FORMED)]


def swiss(svc, org="org", n=4, rounds=2):
    t = svc.create(org, {"game": "duel", "format": "swiss", "players_per_match": 2, "rounds": rounds,
                         "options": {"rounds": 1}})
    for _ in range(n):
        svc.enter(t["tournament_id"], org, bot="random")
    return t["tournament_id"]


def finish(svc, match_id, ranks, abandoned=()):
    svc.match_finished({"match_id": match_id, "status": "finished", "outcome": {"ranks": ranks, "teams": None},
                        "head_hash": "h" * 64, "abandoned": list(abandoned)})


def test_racing_replicas_pair_each_round_once(client):
    a, b = service(client), service(client)
    tid = swiss(a)
    a.start(tid, "org")
    first = a.get(tid)["rounds"][0]["matches"]
    barrier = threading.Barrier(2)

    def record(svc, m):
        barrier.wait()
        finish(svc, m["match_id"], [1, 2])

    threads = [threading.Thread(target=record, args=(svc, m)) for svc, m in zip((a, b), first)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for svc in (a, b):
        svc.advance(tid)
    t = a.get(tid)
    assert len(t["rounds"]) == 2 and all(m["status"] == "finished" for m in t["rounds"][0]["matches"])
    ids = [m["match_id"] for rnd in t["rounds"] for m in rnd["matches"]]
    assert sorted(set(formed_ids(client))) == sorted(ids)
    # a repeated finished-match message changes nothing
    version = t["version"]
    finish(b, first[0]["match_id"], [2, 1])
    assert a.get(tid)["version"] == version


def test_a_crash_between_pairing_and_creating_is_repaired_once(client):
    svc = service(client)
    tid = swiss(svc)
    svc.start(tid, "org")
    ids = [m["match_id"] for m in svc.get(tid)["rounds"][0]["matches"]]
    # as if the process died after "round paired" and before any match was created
    client.delete(created_key(tid))
    client.delete(MATCHES_FORMED)
    svc.advance(tid)
    svc.advance(tid)
    assert sorted(formed_ids(client)) == sorted(ids)


def test_an_abandoning_player_is_withdrawn_after_the_forfeit(client):
    svc = service(client)
    p = Players(client).create("quitter")["player_id"]
    t = svc.create("org", {"game": "duel", "format": "swiss", "players_per_match": 2, "rounds": 3, "options": {}})
    tid = t["tournament_id"]
    me = svc.enter(tid, p)
    for _ in range(3):
        svc.enter(tid, "org", bot="random")
    svc.start(tid, "org")
    mine = next(m for m in svc.get(tid)["rounds"][0]["matches"] if me["entrant_id"] in m["entrants"])
    seat = mine["entrants"].index(me["entrant_id"])
    finish(svc, mine["match_id"], [2, 1] if seat == 0 else [1, 2], abandoned=[seat])
    row = next(r for r in svc.get(tid)["standings"] if r["entrant_id"] == me["entrant_id"])
    assert row["withdrawn"] and row["played"] == 1


def test_limits_on_entrants_and_open_tournaments(client):
    svc = service(client, max_entrants=3, max_open=2)
    tid = swiss(svc, n=3)
    with pytest.raises(ApiError) as err:
        svc.enter(tid, "org", bot="random")
    assert err.value.status == 409
    swiss(svc, n=0)
    with pytest.raises(ApiError) as err:
        swiss(svc, n=0)
    assert err.value.status == 429
    with pytest.raises(ApiError) as err:
        svc.create("org2", {"game": "duel", "format": "swiss", "players_per_match": 2, "rounds": 1,
                            "max_entrants": 4})
    assert err.value.status == 422


def test_entrants_racing_each_other_are_all_entered(client):
    svc = service(client)
    t = svc.create("org", {"game": "duel", "format": "round-robin", "players_per_match": 2, "options": {}})
    errors = []

    def go():
        try:
            service(client).enter(t["tournament_id"], "org", bot="random")
        except ApiError as err:  # pragma: no cover - the failure this test looks for
            errors.append(err)

    threads = [threading.Thread(target=go) for _ in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors and svc.get(t["tournament_id"])["entrants"] == 6


def test_an_invited_player_is_told_and_seated_only_once_it_enters(client):
    svc = service(client)
    players = Players(client)
    org = players.create("organiser")["player_id"]
    guest = players.create("guest")["player_id"]
    shy = players.create("shy")["player_id"]
    t = svc.create(org, {"game": "duel", "format": "round-robin", "players_per_match": 2, "options": {}})
    tid = t["tournament_id"]
    with pytest.raises(ApiError) as err:
        svc.invite(tid, guest, shy)
    assert err.value.status == 403
    for who in (guest, shy):
        svc.invite(tid, org, who)
    assert svc.get(tid)["invited"] == sorted([guest, shy])
    kinds = [(k, d["tournament_id"]) for _, k, d in Inbox(client).read(shy, "0-0")]
    assert kinds == [("tournament_invitation", tid)]
    svc.enter(tid, guest)  # accepts
    svc.enter(tid, org, bot="random")
    svc.start(tid, org)
    t = svc.get(tid)
    seated = {e for rnd in t["rounds"] for m in rnd["matches"] for e in m["entrants"]} | \
        {b for rnd in t["rounds"] for b in rnd["byes"]}
    names = {row["entrant_id"]: row.get("player_id") for row in t["standings"]}
    assert guest in {names[e] for e in seated} and shy not in names.values()
    with pytest.raises(ApiError) as err:
        svc.invite(tid, org, shy)
    assert err.value.status == 409
