"""Compaction on the whole stack (issue 14): a finished match is scheduled for compaction, the
rules consumer compacts it when it falls due, and every endpoint answers exactly as before — the
match, views at every sampled version, event pages, live streams, the export (which still
verifies offline), the audit (cached and recomputed), the match index, a player's history and
per-player stream — for a human's seat and for a spectator.
"""
import random
import subprocess
import sys

import pytest
import redis
import requests

from services.rules.compactions import COMPACTIONS
from shared import localredis
from shared.eventstore.store import keys
from tests.support.stack import ROOT, Client, start_stack, wait_for

TIMEOUT = 30


@pytest.fixture(scope="module")
def compacting_stack(tmp_path_factory):
    """The stack with a compaction delay no test waits for (the test makes matches fall due)."""
    workdir = tmp_path_factory.mktemp("compaction-stack")
    server = localredis.start(workdir / "redis")
    s = start_stack(server.url, workdir, COMPACT_AFTER_S="3600")
    yield s
    s.kill()
    server.stop()


def play_as_human(stack, match_id: str, alice: Client, seed: int = 0) -> None:
    """Alice plays random legal moves in her seat until the match ends (the bots play theirs)."""
    rnd = random.Random(seed)
    base = f"{stack.rules}/v1/matches/{match_id}"

    def step():
        turn = alice.get(f"{base}/turn", timeout=TIMEOUT)
        if turn.status_code != 200:
            return False
        body = turn.json()
        if body["status"] != "active":
            return True
        if body["moves"]:
            alice.post(f"{base}/moves", json={"move": rnd.choice(body["moves"]), "expected_version": body["version"]},
                       timeout=TIMEOUT)
        return False

    wait_for(step, 300, 0.05, f"match {match_id} to finish")


def sse(url: str, headers: dict | None = None, *, until_quiet: bool = False) -> str:
    """A whole event stream as text (a finished match's stream ends by itself; ``until_quiet``:
    up to the first keep-alive, for a stream that never ends)."""
    out = []
    with requests.get(url, headers=headers or {}, stream=True, timeout=TIMEOUT) as resp:
        assert resp.status_code == 200, resp.text
        for line in resp.iter_lines(decode_unicode=True):
            if until_quiet and line.startswith(": keep-alive"):
                break
            out.append(line)
    return "\n".join(out)


def answers(stack, match_id: str, who: Client) -> dict:
    """Every read of the match over HTTP, as a spectator and as ``who`` (seated or not)."""
    base = f"{stack.rules}/v1/matches/{match_id}"
    spectator = requests.Session()
    head = spectator.get(base, timeout=TIMEOUT).json()
    version = head["version"]
    out: dict = {"match": head}
    readers = {"spectator": ({}, lambda url, **kw: spectator.get(url, timeout=TIMEOUT, **kw)),
               "player": (who.api.headers(), lambda url, **kw: who.get(url, timeout=TIMEOUT, **kw))}
    for label, (auth, get) in readers.items():
        out[f"{label}:match"] = get(base).json()
        for at in sorted({1, 2, version // 4, version // 2, version - 1, version}):
            out[f"{label}:view@{at}"] = get(f"{base}/view", params={"at": at}).json()
        out[f"{label}:view"] = get(f"{base}/view").json()
        after, pages = 0, []
        while True:
            page = get(f"{base}/events", params={"after": after, "limit": 37}).json()
            pages.append(page)
            if not page["events"]:
                break
            after = page["next_after"]
        out[f"{label}:events"] = pages
        out[f"{label}:stream"] = sse(f"{base}/stream", dict(auth))
        out[f"{label}:stream-resumed"] = sse(f"{base}/stream", dict(auth, **{"Last-Event-ID": str(version // 2)}))
    out["turn"] = who.get(f"{base}/turn", timeout=TIMEOUT).json()
    out["legal-moves"] = who.get(f"{base}/legal-moves", timeout=TIMEOUT).json()
    out["export"] = spectator.get(f"{base}/export", timeout=TIMEOUT).content
    out["audit"] = spectator.get(f"{base}/audit", timeout=TIMEOUT).json()
    out["index"] = spectator.get(f"{stack.rules}/v1/matches", params={"status": "finished"}, timeout=TIMEOUT).json()
    out["history"] = spectator.get(f"{stack.rules}/v1/players/{who.player_id}/matches", timeout=TIMEOUT).json()
    out["player-stream"] = sse(f"{stack.mm}/v1/players/me/stream?after=0", who.api.headers(), until_quiet=True)
    return out


def compact_now(r: redis.Redis, match_id: str) -> None:
    """Make the scheduled compaction fall due now and wait for the rules consumer to do it."""
    assert r.zscore(COMPACTIONS, match_id) is not None, "the finished match was not scheduled for compaction"
    r.zadd(COMPACTIONS, {match_id: 0}, xx=True)
    wait_for(lambda: r.exists(keys(match_id)["packed"]) and not r.exists(keys(match_id)["log"]), 120, 0.2,
             f"match {match_id} to be compacted")
    wait_for(lambda: r.zscore(COMPACTIONS, match_id) is None, 60, 0.2, "the compaction to be cleared")


@pytest.mark.parametrize("game, seats", [
    ("duel", lambda alice: [{"player_id": alice.player_id}, {"bot": "random"}, {"bot": "greedy"}]),
    ("fate-of-akalon", lambda alice: [{"player_id": alice.player_id}, {"bot": "random"}]),
])
def test_a_compacted_match_answers_every_endpoint_as_before(compacting_stack, tmp_path, game, seats):
    stack = compacting_stack
    r = redis.Redis.from_url(stack.redis_url)
    alice = Client.register(stack, "alice")
    made = alice.post(f"{stack.mm}/v1/tables", json={"game": game, "seats": seats(alice)}, timeout=TIMEOUT)
    assert made.status_code == 201, made.text
    match_id = made.json()["match_id"]
    play_as_human(stack, match_id, alice)
    wait_for(lambda: r.zscore(COMPACTIONS, match_id) is not None, 60, 0.2, "the compaction to be scheduled")
    assert r.exists(keys(match_id)["log"])
    before = answers(stack, match_id, alice)
    assert before["match"]["status"] == "finished" and before["audit"]["chain_valid"]

    compact_now(r, match_id)

    after = answers(stack, match_id, alice)
    assert after == before
    r.delete(keys(match_id)["audit"])  # a cache: recomputed from the compacted log, the same
    assert requests.get(f"{stack.rules}/v1/matches/{match_id}/audit", timeout=TIMEOUT).json() == before["audit"]
    exported = tmp_path / "match.ndjson"
    exported.write_bytes(after["export"])
    verify = subprocess.run([sys.executable, "-m", "shared.verify", str(exported)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert requests.get(f"{stack.rules}/viewer/", timeout=TIMEOUT).status_code == 200


@pytest.mark.slow
def test_a_rules_consumer_killed_between_compaction_steps_loses_nothing(tmp_path):
    """The rules consumer dies (``os._exit``) after writing the blob, and after the switch; the
    supervisor restarts it, the compaction falls due again (its lease ran out) and finishes; every
    endpoint answers as before throughout."""
    points = ["compaction-after-write", "compaction-after-switch"]
    once = tmp_path / "fired"
    once.mkdir()
    server = localredis.start(tmp_path / "redis")
    stack = start_stack(server.url, tmp_path, COMPACT_AFTER_S="3600", FAULT_CRASH_AT=",".join(points),
                        FAULT_ONCE_DIR=str(once))
    try:
        r = redis.Redis.from_url(stack.redis_url)
        alice = Client.register(stack, "alice")
        made = alice.post(f"{stack.mm}/v1/tables", timeout=TIMEOUT, json={
            "game": "duel", "seats": [{"player_id": alice.player_id}, {"bot": "greedy"}]})
        assert made.status_code == 201, made.text
        match_id = made.json()["match_id"]
        play_as_human(stack, match_id, alice)
        wait_for(lambda: r.zscore(COMPACTIONS, match_id) is not None, 60, 0.2, "the compaction to be scheduled")
        before = answers(stack, match_id, alice)
        for point in points:
            r.zadd(COMPACTIONS, {match_id: 0}, xx=True)  # due now (or: its lease ran out after the crash)
            wait_for(lambda: (once / f"fired-{point}").exists(), 120, 0.2, f"the consumer to die at {point}")
            assert r.exists(keys(match_id)["packed"])
            assert answers(stack, match_id, alice) == before
        compact_now(r, match_id)
        assert answers(stack, match_id, alice) == before
        assert not r.exists(keys(match_id)["snaps"])
    finally:
        stack.stop()
        server.stop()
