"""The match index (issue 13): newest first, cursor-paged, filtered by game, player, status and
time; kept from the logs (created when a match is created, refreshed from the finished-matches
stream) and rebuildable from them; over HTTP on the rules service."""
import random
import subprocess
import sys

import pytest
import requests

from services.rules.index import MatchIndex
from services.rules.indexer import consumer
from shared.eventstore import EventStore
from shared.matches import Matches
from shared.streams import MATCHES_FINISHED, publish
from tests.support.stack import ROOT, Client, wait_for

pytestmark = pytest.mark.store  # each test taking `r`: on a real Redis and on fakeredis


class Clock:
    def __init__(self, t=1_700_000_000.0):
        self.t = t

    def __call__(self):
        return self.t


def finish(matches, match_id, seed=0):
    rnd = random.Random(seed)
    mstate = matches.state(match_id)
    while mstate["status"] == "active":
        seat = rnd.choice(matches.to_act(mstate))
        legal = matches.legal_moves(match_id, seat, head=mstate)["moves"]
        mstate = matches.submit(match_id, seat, rnd.choice(legal), mstate["version"], as_bot=True).state
    return mstate


@pytest.fixture
def world(r):
    """Eight matches created one minute apart: duels between p0..p3, arkon among p0..p2; the
    duels with an even number finished."""
    clock = Clock()
    matches = Matches(EventStore(r), clock=clock)
    index = MatchIndex(r)
    made = []
    for i in range(8):
        clock.t += 60
        if i % 3 == 2:
            game, seats = "arkon", [{"player_id": f"p{s}", "name": f"P{s}"} for s in range(3)]
        else:
            game, seats = "duel", [{"player_id": f"p{i % 4}", "name": f"P{i % 4}"}, {"bot": "random", "name": "bot:random"}]
        match_id = f"m{i}"
        matches.create(match_id, game, {}, seats)
        index.refresh(match_id)
        made.append((match_id, game, clock.t))
    for match_id, game, _t in made:
        if game == "duel" and int(match_id[1:]) % 2 == 0:
            finish(matches, match_id)
            index.refresh(match_id)
    return matches, index, made


def ids(page):
    return [m["match_id"] for m in page.items]


def test_all_matches_newest_first_with_summaries(world):
    matches, index, made = world
    page = index.query()
    assert ids(page) == [m for m, _g, _t in reversed(made)] and page.next_cursor is None
    first = next(m for m in page.items if m["match_id"] == "m0")
    assert first["game"] == "duel" and first["status"] == "finished" and first["result"]["ranks"]
    assert first["seats"] == [{"seat": 0, "player_id": "p0", "name": "P0"}, {"seat": 1, "bot": "random",
                                                                              "name": "bot:random"}]
    assert first["created_at"] == made[0][2] and first["finished_at"] >= first["created_at"]
    assert first["version"] == matches.state("m0")["version"]
    active = next(m for m in page.items if m["match_id"] == "m1")
    assert active["status"] == "active" and active["finished_at"] is None and active["result"] is None


def test_cursor_pages_cover_every_match_once_in_order(world):
    _matches, index, made = world
    seen, cursor = [], None
    while True:
        page = index.query(limit=3, cursor=cursor)
        assert len(page.items) <= 3
        seen += ids(page)
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [m for m, _g, _t in reversed(made)]


def test_filters_by_game_player_status_and_time(world):
    _matches, index, made = world
    assert ids(index.query(game="arkon")) == ["m5", "m2"]
    assert ids(index.query(player="p1")) == ["m5", "m2", "m1"]
    assert ids(index.query(status="finished")) == ["m6", "m4", "m0"]
    assert ids(index.query(status="active", game="duel")) == ["m7", "m3", "m1"]
    assert ids(index.query(player="p0", status="finished")) == ["m4", "m0"]
    t = {m: at for m, _g, at in made}
    assert ids(index.query(since=t["m3"], until=t["m6"])) == ["m6", "m5", "m4", "m3"]
    assert ids(index.query(game="duel", since=t["m3"], limit=2)) == ["m7", "m6"]
    assert ids(index.query(player="nobody")) == []


def test_a_cursor_keeps_the_filters_order_across_pages(world):
    _matches, index, _made = world
    first = index.query(game="duel", limit=2)
    second = index.query(game="duel", limit=2, cursor=first.next_cursor)
    third = index.query(game="duel", limit=2, cursor=second.next_cursor)
    assert ids(first) + ids(second) + ids(third) == ["m7", "m6", "m4", "m3", "m1", "m0"]
    assert third.next_cursor is None


def test_the_finished_stream_consumer_updates_the_index(r, world):
    matches, index, _made = world
    mstate = finish(matches, "m1", seed=5)
    assert index.query(status="finished", player="p1").items == []  # not yet told
    publish(r, MATCHES_FINISHED, {"match_id": "m1", "game": "duel", "status": mstate["status"]})
    assert consumer(r, index).poll(block_ms=100) == 1
    assert ids(index.query(status="finished", player="p1")) == ["m1"]
    assert "m1" not in ids(index.query(status="active"))


def test_the_index_is_rebuilt_identically_from_the_logs(world):
    _matches, index, _made = world
    before = [index.query(**f).items for f in ({}, {"game": "duel"}, {"player": "p2"}, {"status": "finished"})]
    index.drop_all()
    assert index.query().items == []
    assert index.rebuild() == 8
    after = [index.query(**f).items for f in ({}, {"game": "duel"}, {"player": "p2"}, {"status": "finished"})]
    assert after == before


def test_a_cursor_that_was_not_given_out_is_refused(world):
    from services.rules.index import BadCursor

    with pytest.raises(BadCursor):
        world[1].query(cursor="!!not-a-cursor")


# ----- over HTTP, on the stack -----------------------------------------------------------------
def test_the_index_over_http(stack):
    alice = Client.register(stack, "alice-index")
    match_id = alice.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
        {"player_id": alice.player_id}, {"bot": "random"}]}).json()["match_id"]
    # the bot decides at once and then the match waits for alice: two reads see the same version
    wait_for(lambda: requests.get(f"{stack.rules}/v1/matches/{match_id}").json()["to_act"] == [0], 60,
             what="the bot's decision")
    mine = requests.get(f"{stack.rules}/v1/matches", params={"player": alice.player_id}).json()
    assert [m["match_id"] for m in mine["matches"]] == [match_id] and mine["next_cursor"] is None
    item = mine["matches"][0]
    assert item["status"] == "active" and item["seats"][0]["name"].startswith("alice-index-") and item["game"] == "duel"
    history = requests.get(f"{stack.rules}/v1/players/{alice.player_id}/matches").json()
    assert history == mine
    bots = alice.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
        {"bot": "random"}, {"bot": "greedy"}]}).json()["match_id"]
    finished = wait_for(lambda: [m for m in requests.get(f"{stack.rules}/v1/matches", params={
        "status": "finished", "game": "duel"}).json()["matches"] if m["match_id"] == bots], 120,
        what="the indexer to see the finished match")
    assert finished[0]["result"]["ranks"] and finished[0]["finished_at"]
    page = requests.get(f"{stack.rules}/v1/matches", params={"limit": 1}).json()
    assert len(page["matches"]) == 1 and page["next_cursor"]
    rest = requests.get(f"{stack.rules}/v1/matches", params={"limit": 1, "cursor": page["next_cursor"]}).json()
    assert rest["matches"][0]["match_id"] != page["matches"][0]["match_id"]


@pytest.mark.parametrize("params,status", [
    ({"status": "sleeping"}, 422), ({"limit": 0}, 422), ({"limit": 1000}, 422), ({"since": "yesterday"}, 422),
    ({"game": "chess"}, 422), ({"cursor": "%%%"}, 400), ({"since": 10, "until": 5}, 422),
    ({"since": "nan"}, 422), ({"until": "inf"}, 422), ({"cursor": "bmFufGE"}, 400),  # "nan|a"
])
def test_bad_index_queries_are_problems(stack, params, status):
    resp = requests.get(f"{stack.rules}/v1/matches", params=params)
    assert resp.status_code == status and resp.headers["Content-Type"].startswith("application/problem+json")
    assert resp.json()["detail"]


def test_the_rebuild_command(stack):
    out = subprocess.run([sys.executable, "-m", "services.rules.indexer", "--rebuild"], cwd=ROOT, env=stack.env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("indexed "), out.stdout + out.stderr
    assert requests.get(f"{stack.rules}/v1/matches").json()["matches"]
