"""The whole stack on a real three-master Redis Cluster (built by the test), with the RQ queues on
a Redis of their own, two rules processes, two of every consumer and two bot workers.

Every game plays to its end — a human (this test, through the public API) against a bot, and
several all-bot matches of every game — and is scored once, indexed and audits clean. Meanwhile the
master serving the human's match is killed with SIGKILL and restarted from its append-only file
(``appendfsync always``): every move answered 201 is in the log afterwards and play resumes. A
clocked seat is handed over once with two rules consumers sweeping; two players waiting in two
pools each, with two matchmaking consumers waving, are each seated once.
"""
from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
import requests

from shared import localredis
from shared.canonical import loads
from shared.eventstore.store import keys
from services.scoring.store import INPUTS
from shared.localcluster import start_cluster
from tests.support.stack import ROOT, Client, start_stack, wait_for

pytestmark = pytest.mark.slow

SEATS = {"arkon": 3, "fate-of-akalon": 3, "battlefields-of-olympus": 2, "rise-of-tribes": 3, "fellowships-of-fate": 3}
SHORT = {"battlefields-of-olympus": {"target_points": 12}}  # the shortest option a game has
BOT_MATCHES_PER_GAME = 2
REPLICAS = {"REPLICAS_RULES": "2", "REPLICAS_RULES_CONSUMER": "2", "REPLICAS_RULES_INDEXER": "2",
            "REPLICAS_SCORING_CONSUMER": "2", "REPLICAS_MATCHMAKING_CONSUMER": "2"}  # bot workers: two in the Procfile


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    work = tmp_path_factory.mktemp("cluster")
    cluster = start_cluster(work / "nodes")
    queue = localredis.start(work / "queue", persistent=True)
    try:
        stack = start_stack(queue.url, work, REDIS_CLUSTER_NODES=cluster.nodes, QUEUE_REDIS_URL=queue.url,
                            SEARCH_ITERATIONS="10", **REPLICAS)
    except BaseException:
        queue.stop()
        cluster.stop()
        raise
    yield cluster, queue, stack
    stack.stop()
    queue.stop()
    cluster.stop()


def bot_table(me: Client, game: str, i: int) -> str:
    bots = (["greedy", "random", "greedy"] if i % 2 else ["random", "greedy", "random"])[: SEATS[game]]
    r = me.post(f"{me.stack.mm}/v1/tables", json={"game": game, "seats": [{"bot": b} for b in bots],
                                                   "options": SHORT.get(game, {})})
    assert r.status_code == 201, r.text
    return r.json()["match_id"]


class Human:
    """This test as a player: random legal moves, every 201 recorded (version -> event hashes)."""

    def __init__(self, client: Client, match_id: str, seed: int):
        self.c, self.match_id, self.rnd = client, match_id, random.Random(seed)
        self.base = f"{client.stack.rules}/v1/matches/{match_id}"
        self.acknowledged: dict[int, str] = {}  # seq -> hash of every event a 201 returned
        self.refused_while_down = 0

    def step(self) -> dict | None:
        """One attempt to move; the match once it is over. Outages (503, a cut connection) are
        retried by the caller, as a client would."""
        try:
            legal = self.c.get(f"{self.base}/legal-moves")
            if legal.status_code >= 500:
                self.refused_while_down += 1
                return None
            assert legal.status_code == 200, legal.text
            if legal.json()["moves"]:
                r = self.c.post(f"{self.base}/moves", json={"move": self.rnd.choice(legal.json()["moves"]),
                                                            "expected_version": legal.json()["version"]})
                if r.status_code == 201:
                    for event in r.json()["events"]:
                        self.acknowledged[event["seq"]] = event["hash"]
                elif r.status_code >= 500:
                    self.refused_while_down += 1
                else:
                    assert r.status_code == 409, r.text
                return None
            m = self.c.get(self.base)
            if m.status_code >= 500:
                self.refused_while_down += 1
            return m.json() if m.status_code == 200 and m.json()["status"] != "active" else None
        except requests.RequestException:
            self.refused_while_down += 1
            return None

    def play(self, moves: int) -> None:
        """Play until ``moves`` more acknowledged events (or the end)."""
        target = len(self.acknowledged) + moves
        wait_for(lambda: self.step() is not None or len(self.acknowledged) >= target, 300, 0.01, "human moves")

    def play_to_end(self) -> dict:
        return wait_for(self.step, 600, 0.01, f"{self.match_id} to finish")


def all_events(stack, match_id: str) -> list[dict]:
    out, after = [], 0
    while True:
        page = requests.get(f"{stack.rules}/v1/matches/{match_id}/events", params={"after": after, "limit": 1000},
                            timeout=30).json()
        out += page["events"]
        if not page["events"] or page.get("next_after") is None:
            return out
        after = page["next_after"]


def check_finished(stack, match_id: str, *, ranks: bool = True) -> dict:
    """The match is finished, scored (with standings matching its result: ``ranks``) and audits clean."""
    m = requests.get(f"{stack.rules}/v1/matches/{match_id}", timeout=30).json()
    assert m["status"] == "finished", m
    result = wait_for(lambda: (lambda x: x.status_code == 200 and x.json())(
        requests.get(f"{stack.scoring}/v1/results/{match_id}", timeout=30)), 120, 0.2, f"{match_id} scored")
    if ranks:
        assert [row["rank"] for row in result["standings"]] == m["result"]["ranks"]
    audit = requests.get(f"{stack.rules}/v1/matches/{match_id}/audit", timeout=120).json()
    assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"], audit
    return m


def test_every_game_plays_to_the_end_on_a_cluster_and_survives_a_master_killed(env):
    cluster, _queue, stack = env
    host = Client.register(stack, "cluster-host")
    bot_matches = {(game, i): bot_table(host, game, i) for game in SEATS for i in range(BOT_MATCHES_PER_GAME)}
    human_game = "battlefields-of-olympus"
    r = host.post(f"{stack.mm}/v1/tables", json={"game": human_game, "options": SHORT[human_game],
                                                 "seats": [{"player_id": host.player_id}, {"bot": "greedy"}]})
    assert r.status_code == 201, r.text
    human = Human(host, r.json()["match_id"], seed=14)
    human.play(6)

    # SIGKILL the master that holds the human's match; once the cluster has marked it failed, restart
    # it from its append-only file
    port = cluster.port_of(keys(human.match_id)["log"])
    cluster.kill9(port)
    cluster.wait_failed(port)  # the other masters refuse every slot now: the whole store is down
    before = dict(human.acknowledged)
    for _ in range(20):  # the client keeps trying while the master is down: refused, never acknowledged
        human.step()
    assert human.acknowledged == before and human.refused_while_down >= 20
    cluster.restart(port)
    cluster.wait_ok(120)
    final = human.play_to_end()

    assert final["status"] == "finished"
    log = {e["seq"]: e["hash"] for e in all_events(stack, human.match_id)}
    lost = {seq: h for seq, h in human.acknowledged.items() if log.get(seq) != h}
    assert human.acknowledged and not lost, f"acknowledged events missing from the log: {lost}"
    check_finished(stack, human.match_id)

    for (game, _i), match_id in bot_matches.items():
        wait_for(lambda: requests.get(f"{stack.rules}/v1/matches/{match_id}", timeout=30).json()["status"] != "active",
                 600, 0.5, f"the bots' {game} match {match_id} to finish")
        check_finished(stack, match_id)

    # one scoring effect per finished match, with two scoring consumers reading the stream
    store = cluster.client()
    scored = [loads(raw)["match_id"] for raw in store.lrange(INPUTS, 0, -1)]
    assert len(scored) == len(set(scored)), "a match was scored twice"
    assert set(scored) >= set(bot_matches.values()) | {human.match_id}
    ratings = requests.get(f"{stack.scoring}/v1/players/{host.player_id}/ratings", timeout=30).json()["ratings"]
    assert ratings[human_game]["matches"] == 1, ratings

    # the live stream of the human's match replays it whole and ends (the listener reads the cluster)
    with requests.get(f"{stack.rules}/v1/matches/{human.match_id}/stream", stream=True, timeout=60) as sse:
        ids = [int(line[3:]) for line in sse.iter_lines(decode_unicode=True) if line.startswith("id:")]
    assert ids == sorted(log), "the stream is the log, in order"
    # the rate limiter keeps its counters on the cluster too
    assert any(True for _ in store.scan_iter(match="*ratelimit*", count=1000)), "no rate-limit counter on the cluster"

    # the match index lists every match, with each one's final status
    expected = set(bot_matches.values()) | {human.match_id}
    wait_for(lambda: expected <= {m["match_id"] for m in host.api.iter_matches(status="finished", limit=100)},
             60, 0.5, "the index to list every finished match")


def test_a_clocked_seat_is_handed_over_once_with_two_rules_consumers(env):
    _cluster, _queue, stack = env
    me = Client.register(stack, "sleeper")
    r = me.post(f"{stack.mm}/v1/tables", json={"game": "battlefields-of-olympus", "options": SHORT["battlefields-of-olympus"],
                                               "seats": [{"player_id": me.player_id}, {"bot": "random"}],
                                               "turn_seconds": 1})
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    wait_for(lambda: requests.get(f"{stack.rules}/v1/matches/{match_id}", timeout=30).json()["status"] != "active",
             600, 0.5, "the handed-over match to finish")
    handovers = [e for e in all_events(stack, match_id) if e["type"] == "match.seat_handed_over"]
    assert len(handovers) == 1 and handovers[0]["data"]["seat"] == 0, handovers
    check_finished(stack, match_id, ranks=False)  # scoring ranks a player who timed out last


def test_two_matchmaking_consumers_seat_each_player_once(env):
    _cluster, _queue, stack = env
    players = [Client.register(stack, f"queued-{i}") for i in range(2)]
    pools = [{"game": "arkon", "players": 3, "options": {}, "bot_fill_after_s": 1},
             {"game": "fate-of-akalon", "players": 3, "options": {}, "bot_fill_after_s": 1}]
    tickets = {}
    for p in players:
        for pool in pools:
            r = p.post(f"{stack.mm}/v1/queue", json=pool)
            assert r.status_code == 202, r.text
            tickets[(p.player_id, pool["game"])] = r.json()["ticket_id"]

    def states():
        out = {}
        for (pid, game), ticket in tickets.items():
            owner = next(p for p in players if p.player_id == pid)
            out[(pid, game)] = owner.get(f"{stack.mm}/v1/queue/{ticket}").json()
        return out

    final = wait_for(lambda: (lambda s: s if all(t["status"] in ("matched", "cancelled") for t in s.values())
                              else None)(states()),
                     120, 0.5, "every ticket to be matched or withdrawn")
    for p in players:
        matched = [t for (pid, _g), t in final.items() if pid == p.player_id and t["status"] == "matched"]
        assert len(matched) == 1, final


def test_rebuilding_the_index_and_the_scores_walks_every_master(env):
    """``make reindex-matches`` and ``make rebuild-scores`` against the cluster: the scans visit every
    primary, so the index and the leaderboards come back the same."""
    cluster, queue, stack = env
    me = Client.register(stack, "rebuild")
    played = [bot_table(me, "battlefields-of-olympus", i) for i in range(3)]
    for match_id in played:
        wait_for(lambda: requests.get(f"{stack.rules}/v1/matches/{match_id}", timeout=30).json()["status"] != "active",
                 600, 0.5, f"{match_id} to finish")
        check_finished(stack, match_id)
    holders = {cluster.port_of(keys(m)["log"]) for m in played}

    def listed() -> set[str]:
        return {m["match_id"] for m in me.api.iter_matches(limit=100)}

    def board() -> list:
        return requests.get(f"{stack.scoring}/v1/leaderboards/battlefields-of-olympus", timeout=30).json()["entries"]

    index_before, board_before = listed(), board()
    assert set(played) <= index_before
    run_env = dict(os.environ, REDIS_CLUSTER_NODES=cluster.nodes, QUEUE_REDIS_URL=queue.url, PYTHONPATH=str(ROOT))
    for module, args in (("services.rules.indexer", ["--rebuild"]), ("services.scoring.rebuild", [])):
        out = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, env=run_env, capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0, out.stderr[-3000:]
    assert listed() == index_before, f"matches on masters {holders} lost from the index"
    assert board() == board_before
