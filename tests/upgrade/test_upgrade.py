"""Upgrades keep the people and their data: the current stack started on data written by each
earlier release (``tests/upgrade/data/<commit>/dump.rdb``, recorded by
``scripts/record_upgrade_data.py``; what that release served is in ``manifest.json`` beside it).

Each test loads a dump into a fresh ``redis-server`` of its own (own port, own directory) and starts
the current stack on it (``tests.support.stack.start_stack``: the real launcher; every process runs
the schema migrations it needs at start, ``docs/migrations.md``). Read-only checks share one stack
per release, started without bot workers so that nothing moves while they look; the test that plays
on gets a stack of its own.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
import requests

from shared import localredis
from tests.support.stack import ROOT, start_stack

DATA = Path(__file__).parent / "data"
COMMITS = sorted(d.name for d in DATA.iterdir() if (d / "dump.rdb").exists() and (d / "manifest.json").exists())
TOKEN_TTL_S = 30 * 24 * 3600  # the stack's default lifetime of a player token
IDEMPOTENCY_TTL_S = 24 * 3600


def manifest(commit: str) -> dict:
    return json.loads((DATA / commit / "manifest.json").read_text())


def token_payload(token: str) -> dict:
    """What a token says (unverified): itsdangerous's payload is its first dot-separated part."""
    part = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


class Upgraded:
    """An old release's data in a fresh Redis, with the current stack started on it."""

    def __init__(self, commit: str, workdir: Path, *, bots: bool, compact_after_s: str = "off"):
        self.commit, self.m = commit, manifest(commit)
        redis_dir = workdir / "redis"
        redis_dir.mkdir(parents=True)
        shutil.copy(DATA / commit / "dump.rdb", redis_dir / "dump.rdb")
        self.server = localredis.start(redis_dir, extra=["--dbfilename", "dump.rdb"])
        self.r = redis.Redis.from_url(self.server.url)
        assert self.r.dbsize() > 0, "the dump did not load"
        procfile = ROOT / "deploy" / "Procfile"
        if not bots:
            lines = [line for line in procfile.read_text().splitlines() if not line.startswith("bot_worker")]
            procfile = workdir / "Procfile.nobots"
            procfile.write_text("\n".join(lines) + "\n")
        self.started_at = time.time()
        self.stack = start_stack(self.server.url, workdir, str(procfile), COMPACT_AFTER_S=compact_after_s)
        self.http = requests.Session()

    def close(self) -> None:
        self.stack.stop()
        self.server.stop()

    def get(self, url: str, token: str | None = None, **kw) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.get(url, headers=headers, timeout=60, **kw)

    def post(self, url: str, token: str | None = None, json_body=None, headers: dict | None = None):
        h = {"Authorization": f"Bearer {token}"} if token else {}
        h.update(headers or {})
        return self.http.post(url, headers=h, json=json_body, timeout=60)

    def scores(self) -> dict:
        """Every result, rating and leaderboard the scoring service serves for the recorded data."""
        s = self.stack.scoring
        return {
            "results": {mid: self.get(f"{s}/v1/results/{mid}").json() for mid, info in self.m["matches"].items()
                        if info["result"] is not None},
            "ratings": {pid: self.get(f"{s}/v1/players/{pid}/ratings").json()["ratings"] for pid in self.m["players"]},
            "leaderboards": {g: self.get(f"{s}/v1/leaderboards/{g}", params={"limit": 100}).json()
                             for g in self.m["leaderboards"]},
        }


def recorded_scores(m: dict) -> dict:
    return {"results": {mid: info["result"] for mid, info in m["matches"].items() if info["result"] is not None},
            "ratings": {pid: p["ratings"] for pid, p in m["players"].items()},
            "leaderboards": m["leaderboards"]}


@pytest.fixture(scope="module", params=COMMITS)
def static(request, tmp_path_factory):
    """The current stack, without bot workers, on the data of one earlier release."""
    up = Upgraded(request.param, tmp_path_factory.mktemp(f"upgrade-{request.param}"), bots=False)
    yield up
    up.close()


# ----- people: players, names, tokens ------------------------------------------------------------
def test_players_names_and_tokens_survive(static):
    mm = static.stack.mm
    for pid, player in static.m["players"].items():
        assert static.get(f"{mm}/v1/players/{pid}").json() == player["profile"]
        me = static.get(f"{mm}/v1/players/me", player["token"])
        assert me.status_code == 200, (static.commit, me.text)
        assert me.json()["player_id"] == pid and me.json()["name"] == player["name"]
        claims = token_payload(player["token"])
        if "x" in claims:  # a token with an expiry keeps its own
            assert me.json()["token_expires_at"] == claims["x"]
        else:              # issued with none: the configured lifetime, counted from the upgrade
            assert static.started_at - 60 + TOKEN_TTL_S <= me.json()["token_expires_at"] <= time.time() + TOKEN_TTL_S
        # the name stays taken, in any case or width
        for name in (player["name"], player["name"].upper(), player["name"].lower()):
            again = static.post(f"{mm}/v1/players", json_body={"name": name})
            assert again.status_code == 409, (static.commit, name, again.status_code, again.text)
        # a scoring and a rules endpoint accept the old token too (every service checks tokens)
        assert static.get(f"{static.stack.rules}/v1/players/{pid}/matches", player["token"]).status_code == 200
    forged = static.get(f"{mm}/v1/players/me", "eyJwIjoibm9ib2R5In0.forged")
    assert forged.status_code == 401


def test_schema_is_current_and_migrations_logged(static):
    from deploy.migrate import areas
    from shared import migrations

    for area, steps in areas().items():
        assert migrations.current_version(static.r, area) == migrations.target(steps), area
        logged = migrations.history(static.r, area)
        assert [e["version"] for e in logged] == [s.version for s in steps], (area, logged)


# ----- the match index -----------------------------------------------------------------------------
def test_every_match_is_in_the_index(static):
    rules = static.stack.rules
    listed = {m["match_id"]: m for m in static.get(f"{rules}/v1/matches", params={"limit": 100}).json()["matches"]}
    for mid, info in static.m["matches"].items():
        assert mid in listed, (static.commit, mid, info["kind"])
        assert listed[mid]["status"] == info["summary"]["status"]
        assert listed[mid]["game"] == info["summary"]["game"]
    if static.m["index"] is not None:  # what the release's own index listed is still listed
        assert set(static.m["index"]) <= set(listed)
    for pid in static.m["players"]:
        mine = {m["match_id"] for m in static.get(f"{rules}/v1/matches", params={"player": pid, "limit": 100}).json()["matches"]}
        expected = {mid for mid, info in static.m["matches"].items() if pid in info.get("humans", {}).values()}
        assert expected <= mine, (static.commit, pid)


# ----- scores: results, ratings, leaderboards, and rebuild-scores ----------------------------------
def _same(served: dict, recorded: dict, path: str = "") -> None:
    """Everything the old release served is served the same (new fields may be added)."""
    if isinstance(recorded, dict):
        assert isinstance(served, dict), path
        for key, value in recorded.items():
            assert key in served, f"{path}/{key} missing"
            _same(served[key], value, f"{path}/{key}")
    elif isinstance(recorded, list):
        assert isinstance(served, list) and len(served) == len(recorded), path
        for i, (a, b) in enumerate(zip(served, recorded)):
            _same(a, b, f"{path}[{i}]")
    else:
        assert served == recorded, f"{path}: {served!r} != {recorded!r}"


def test_scores_survive_and_rebuild_reproduces_them(static):
    recorded = recorded_scores(static.m)
    assert recorded["results"], "the recorded data has finished matches"
    _same(static.scores(), recorded)
    env = dict(os.environ, REDIS_URL=static.server.url, PYTHONPATH=str(ROOT))
    env.pop("REDIS_CLUSTER_NODES", None)
    done = subprocess.run([sys.executable, "-m", "services.scoring.rebuild"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"rescored {len(recorded['results'])} finished matches" in done.stdout
    _same(static.scores(), recorded)
    # a second rebuild (now from scoring's own inputs only) changes nothing either
    done = subprocess.run([sys.executable, "-m", "services.scoring.rebuild"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    _same(static.scores(), recorded)


# ----- every match reads as before (needs every old engine version installed) -------------------
def test_every_match_reads_audits_and_verifies(static, tmp_path):
    from shared.verify import verify_file

    rules = static.stack.rules
    for mid, info in static.m["matches"].items():
        was = info["summary"]
        summary = static.get(f"{rules}/v1/matches/{mid}")
        assert summary.status_code == 200, (static.commit, mid, summary.text[:500])
        for key in ("game", "status", "version", "head_hash", "seats"):
            assert summary.json()[key] == was[key], (mid, key)
        events, after = [], 0
        while True:
            page = static.get(f"{rules}/v1/matches/{mid}/events", params={"after": after, "limit": 500})
            assert page.status_code == 200, (mid, page.text[:500])
            events += page.json()["events"]
            if not page.json()["events"] or page.json().get("next_after") is None:
                break
            after = page.json()["next_after"]
        assert [e["seq"] for e in events] == list(range(1, was["version"] + 1)), mid
        assert events[-1]["hash"] == was["head_hash"]
        for at in sorted({1, max(1, was["version"] // 2), was["version"]}):
            view = static.get(f"{rules}/v1/matches/{mid}/view", params={"at": at})
            assert view.status_code == 200, (mid, at, view.text[:500])
            assert view.json()["version"] == at
        audit = static.get(f"{rules}/v1/matches/{mid}/audit")
        assert audit.status_code == 200, (mid, audit.text[:500])
        assert audit.json()["chain_valid"] and audit.json()["replay_valid"], (mid, audit.json())
        if was["status"] == "finished":
            assert audit.json()["chance_valid"], (mid, audit.json())
            export = static.get(f"{rules}/v1/matches/{mid}/export")
            assert export.status_code == 200, (mid, export.text[:500])
            path = tmp_path / f"{mid}.ndjson"
            path.write_bytes(export.content)
            report = verify_file(path, head_hash=was["head_hash"])
            assert report.ok, (mid, report)


# ----- play on: an old token's move, an idempotent retry, bots resume, matches end and are rated ---
def _wait(predicate, timeout_s: float, what: str):
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.mark.slow
@pytest.mark.parametrize("commit", COMMITS)
def test_in_progress_matches_play_on(commit, tmp_path):
    up = Upgraded(commit, tmp_path, bots=True, compact_after_s="1")
    try:
        rules, s = up.stack.rules, up.stack.scoring
        m = up.m
        players = m["players"]
        by_kind = {info["kind"]: (mid, info) for mid, info in m["matches"].items()}

        # the finished matches of the old release are compacted like new ones, their logs intact
        from shared.eventstore.store import EventStore, keys

        store = EventStore(up.r)
        for match_id, match_info in m["matches"].items():
            if match_info["summary"]["status"] != "finished":
                continue
            _wait(lambda: up.r.exists(keys(match_id)["packed"]) and not up.r.exists(keys(match_id)["log"]), 60,
                  f"match {match_id} to be compacted")
            records = store.read(match_id)
            assert len(records) == match_info["summary"]["version"]
            assert records[-1]["hash"] == match_info["summary"]["head_hash"]

        # the idempotent move recorded by the old release is answered the same on a retry (its
        # answer is kept 24 h: from the upgrade for releases that never expired them)
        idem = m.get("idempotent_move")
        if idem and idem["status"] == 201:
            owner = next(p for p in players.values() if p["name"] == "alice")
            never_expired = "x" not in token_payload(owner["token"])
            if never_expired or time.time() < m["recorded_at"] + IDEMPOTENCY_TTL_S - 60:
                again = up.post(f"{rules}/v1/matches/{idem['match_id']}/moves", owner["token"], idem["body"],
                                {"Idempotency-Key": idem["key"]})
                assert again.status_code == 201, again.text
                assert again.json()["version"] == idem["answer"]["version"]
                assert [e["seq"] for e in again.json()["events"]] == [e["seq"] for e in idem["answer"]["events"]]

        # a human move with the token the old release issued
        mid, info = by_kind["human-to-move"]
        seat, pid = next(iter(info["humans"].items()))
        token = players[pid]["token"]
        legal = up.get(f"{rules}/v1/matches/{mid}/legal-moves", token)
        assert legal.status_code == 200, legal.text
        assert legal.json()["moves"], "the human is to move"
        moved = up.post(f"{rules}/v1/matches/{mid}/moves", token,
                        {"move": legal.json()["moves"][0], "expected_version": legal.json()["version"]})
        assert moved.status_code == 201, moved.text
        # ... and the bot answers it
        _wait(lambda: up.get(f"{rules}/v1/matches/{mid}/legal-moves", token).json()["moves"], 60, "the bot's reply")

        # the match left with a bot to move: the bot plays (the old release's job could not run)
        bot_mid, bot_info = by_kind["bot-to-move"]
        was = bot_info["summary"]["version"]
        _wait(lambda: up.get(f"{rules}/v1/matches/{bot_mid}").json()["version"] > was, 60, "the bot to resume")

        # both end (the humans resign) and are scored, their ratings continuing the old ones
        for match_id, match_info in (by_kind["human-to-move"], by_kind["bot-to-move"]):
            seat, pid = next(iter(match_info["humans"].items()))
            token = players[pid]["token"]
            resigned = _wait(lambda: (lambda r: r if r.status_code == 201 else None)(
                up.post(f"{rules}/v1/matches/{match_id}/resign", token, {})), 30, "a resignation")
            assert resigned.status_code == 201
            summary = up.get(f"{rules}/v1/matches/{match_id}").json()
            assert summary["status"] == "finished"
            result = _wait(lambda: (lambda r: r.json() if r.status_code == 200 else None)(
                up.get(f"{s}/v1/results/{match_id}")), 60, "the result")
            game = summary["game"]
            before = players[pid]["ratings"].get(game)
            if before is not None:
                assert result["ratings"][pid]["before"] == before["rating"]
            listed = up.get(f"{rules}/v1/matches", params={"status": "finished", "limit": 100}).json()["matches"]
            assert match_id in {x["match_id"] for x in listed}

        # rotation works with an old token, and revokes it
        alice = next(p for p in players.values() if p["name"] == "alice")
        rotated = up.post(f"{up.stack.mm}/v1/players/me/token", alice["token"])
        assert rotated.status_code == 201, rotated.text
        assert up.get(f"{up.stack.mm}/v1/players/me", alice["token"]).status_code == 401
        assert up.get(f"{up.stack.mm}/v1/players/me", rotated.json()["token"]).status_code == 200
    finally:
        up.close()
