"""Record the data a release of this project leaves in Redis, for the upgrade test (tests/upgrade/).

    .venv/bin/python -m scripts.record_upgrade_data --release /tmp/r1 --out tests/upgrade/data/2c4e00b

runs the release checked out at ``--release`` — every process of its ``deploy/Procfile``, started
directly (no launcher: old releases used honcho, newer ones supervisord) from its own directory
with this venv's Python — against a fresh ``redis-server`` of its own (free port, own directory),
with ``AUTH_SECRET=test-secret`` (what ``tests/support/stack.py`` gives the current stack: the
upgrade keeps the signing secret, or no old token could stay valid) and ``TOKEN_TTL_S`` of 100
years (so the recorded tokens of releases with expiring tokens stay in date for the test). Through
the release's public HTTP API only it then:

* registers players (``alice``, ``Bob``, ``carol``);
* plays, to the end, human-vs-bot matches (the human plays seeded random legal moves) and bot-only
  matches of Battlefields of Olympus and Arkon, so there are results, ratings and leaderboards;
* leaves an Arkon match in progress with the human to move, and stops the bot workers before
  leaving a Battlefields of Olympus match in progress with a bot to move (its job queued);

waits until scoring has every finished match, writes ``manifest.json`` (what the release served:
players, tokens, names, matches with their summaries, results, ratings, leaderboards, the match
index where the release has one) and saves the Redis data as ``dump.rdb`` (``SAVE``) into ``--out``.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis
import requests

ROOT = Path(__file__).resolve().parent.parent
SECRET = "test-secret"
GAMES = ("battlefields-of-olympus", "arkon")
HUNDRED_YEARS_S = str(100 * 365 * 24 * 3600)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def procfile(release: Path) -> dict[str, str]:
    out = {}
    for line in (release / "deploy" / "Procfile").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            out[name.strip()] = command.strip()
    return out


class Release:
    """One old release's processes on a Redis of its own."""

    def __init__(self, release: Path, workdir: Path):
        self.release, self.workdir = release, workdir
        self.redis_port = free_port()
        self.ports = {name: free_port() for name in ("matchmaking", "rules", "scoring")}
        self.procs: dict[str, subprocess.Popen] = {}
        (workdir / "redis").mkdir(parents=True, exist_ok=True)
        self.redis = subprocess.Popen(
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--dir", str(workdir / "redis"),
             "--save", "", "--appendonly", "no", "--dbfilename", "dump.rdb"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.client = redis.Redis.from_url(self.url)
        for _ in range(100):
            try:
                self.client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        self.env = dict(os.environ)
        self.env.update(
            REDIS_URL=self.url, AUTH_SECRET=SECRET, TOKEN_TTL_S=HUNDRED_YEARS_S, PYTHONPATH=str(release),
            MATCHMAKING_PORT=str(self.ports["matchmaking"]), RULES_PORT=str(self.ports["rules"]),
            SCORING_PORT=str(self.ports["scoring"]), MATCHMAKING_URL=self.base("matchmaking"),
            RULES_URL=self.base("rules"), SCORING_URL=self.base("scoring"), SEARCH_ITERATIONS="25",
            BOT_RETRY_AFTER_S="5", COMPACT_AFTER_S="off", RATE_LIMITS="off", WAVE_S="0.5",
            PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
            PROMETHEUS_MULTIPROC_BASE=str(workdir / "metrics"),
        )
        self.env.pop("GAME_MODULES", None)

    def base(self, service: str) -> str:
        return f"http://127.0.0.1:{self.ports[service]}"

    def start(self, only=None) -> None:
        for name, command in procfile(self.release).items():
            if only is not None and not only(name):
                continue
            command = command.replace("$MATCHMAKING_PORT", str(self.ports["matchmaking"]))
            command = command.replace("$RULES_PORT", str(self.ports["rules"]))
            command = command.replace("$SCORING_PORT", str(self.ports["scoring"]))
            log = open(self.workdir / f"{name}.log", "ab")
            self.procs[name] = subprocess.Popen(shlex.split(command), cwd=self.release, env=self.env, stdout=log,
                                                stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + 60
        for service in ("matchmaking", "rules", "scoring"):
            while True:
                try:
                    if requests.get(self.base(service) + "/healthz", timeout=2).ok:
                        break
                except requests.RequestException:
                    pass
                if time.time() > deadline:
                    raise RuntimeError(f"{service} did not start; see {self.workdir}")
                time.sleep(0.2)

    def stop(self, only=None) -> None:
        for name, proc in list(self.procs.items()):
            if only is not None and not only(name):
                continue
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
            del self.procs[name]

    def close(self) -> None:
        self.stop()
        self.redis.terminate()
        self.redis.wait(10)


class Api:
    def __init__(self, rel: Release):
        self.rel = rel
        self.http = requests.Session()

    def call(self, method: str, service: str, path: str, token: str | None = None, headers_extra=None, **kw):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        headers.update(headers_extra or {})
        return self.http.request(method, self.rel.base(service) + path, headers=headers, timeout=30, **kw)

    def ok(self, method: str, service: str, path: str, token: str | None = None, **kw) -> dict:
        r = self.call(method, service, path, token, **kw)
        if r.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:500]}")
        return r.json() if r.content else {}


def play_human(api: Api, match_id: str, token: str, rng: random.Random, *, stop_when_mine_after: int | None = None,
               timeout_s: float = 240) -> int:
    """Play the human seat with random legal moves until the match ends (or, with
    ``stop_when_mine_after``, until it is the human's turn after that many moves). Returns moves made."""
    made, deadline = 0, time.time() + timeout_s
    while time.time() < deadline:
        summary = api.ok("GET", "rules", f"/v1/matches/{match_id}")
        if summary["status"] != "active":
            return made
        legal = api.ok("GET", "rules", f"/v1/matches/{match_id}/legal-moves", token)
        if not legal["moves"]:
            time.sleep(0.05)
            continue
        if stop_when_mine_after is not None and made >= stop_when_mine_after:
            return made
        move = rng.choice(legal["moves"])
        r = api.call("POST", "rules", f"/v1/matches/{match_id}/moves", token,
                     json={"move": move, "expected_version": legal["version"]})
        if r.status_code == 201:
            made += 1
        elif r.status_code != 409:
            raise RuntimeError(f"move refused: {r.status_code} {r.text[:300]}")
    raise RuntimeError(f"match {match_id} did not end in time")


def wait_finished(api: Api, match_id: str, timeout_s: float = 300) -> dict:
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        summary = api.ok("GET", "rules", f"/v1/matches/{match_id}")
        if summary["status"] != "active":
            return summary
        time.sleep(0.3)
    raise RuntimeError(f"bot match {match_id} did not end in time")


def table(api: Api, token: str, game: str, seats: list[dict]) -> str:
    body = {"game": game, "seats": seats, "options": {}}
    return api.ok("POST", "matchmaking", "/v1/tables", token, json=body)["match_id"]


def record(release: Path, out: Path, *, seed: int = 7) -> dict:
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="record-upgrade-"))
    rel = Release(release, workdir)
    try:
        rel.start()
        api = Api(rel)
        players = {}
        for name in ("alice", "Bob", "carol"):
            p = api.ok("POST", "matchmaking", "/v1/players", json={"name": name})
            players[p["player_id"]] = p
        alice, bob, carol = players.values()
        matches: dict[str, dict] = {}

        def note(match_id, kind, **extra):
            matches[match_id] = {"kind": kind, **extra}

        # finished: human vs bot in both games, bots only in both games
        m = table(api, alice["token"], "arkon", [{"player_id": alice["player_id"]}, {"bot": "random"}])
        play_human(api, m, alice["token"], rng)
        note(m, "human-vs-bot", humans={"0": alice["player_id"]})
        m = table(api, bob["token"], "battlefields-of-olympus", [{"player_id": bob["player_id"]}, {"bot": "random"}])
        play_human(api, m, bob["token"], rng)
        note(m, "human-vs-bot", humans={"0": bob["player_id"]})
        m = table(api, carol["token"], "battlefields-of-olympus", [{"bot": "random"}, {"player_id": carol["player_id"]}])
        play_human(api, m, carol["token"], rng)
        note(m, "human-vs-bot", humans={"1": carol["player_id"]})
        for game in GAMES:
            m = table(api, carol["token"], game, [{"bot": "random"}, {"bot": "greedy"}])
            wait_finished(api, m)
            note(m, "bots")
        # in progress, a human to move
        m = table(api, alice["token"], "arkon", [{"player_id": alice["player_id"]}, {"bot": "random"}])
        play_human(api, m, alice["token"], rng, stop_when_mine_after=3)
        legal = api.ok("GET", "rules", f"/v1/matches/{m}/legal-moves", alice["token"])
        body = {"move": rng.choice(legal["moves"]), "expected_version": legal["version"]}
        r = api.call("POST", "rules", f"/v1/matches/{m}/moves", alice["token"], json=body,
                     headers_extra={"Idempotency-Key": "upgrade-retry-1"})
        idempotent = {"match_id": m, "key": "upgrade-retry-1", "body": body, "status": r.status_code, "answer": r.json()}
        play_human(api, m, alice["token"], rng, stop_when_mine_after=0)  # until alice is to move again
        note(m, "human-to-move", humans={"0": alice["player_id"]})
        # in progress, a bot to move: no bot worker plays it before the dump
        m = table(api, bob["token"], "battlefields-of-olympus", [{"player_id": bob["player_id"]}, {"bot": "random"}])
        play_human(api, m, bob["token"], rng, stop_when_mine_after=2)
        rel.stop(only=lambda name: name.startswith("bot_worker"))
        # a decision may take several moves of the same seat: move until the bot is to act
        for _ in range(50):
            legal = api.ok("GET", "rules", f"/v1/matches/{m}/legal-moves", bob["token"])
            if not legal["moves"]:
                break
            api.ok("POST", "rules", f"/v1/matches/{m}/moves", bob["token"],
                   json={"move": rng.choice(legal["moves"]), "expected_version": legal["version"]})
        if 1 not in api.ok("GET", "rules", f"/v1/matches/{m}")["to_act"]:
            raise RuntimeError(f"match {m}: the bot is not to move")
        note(m, "bot-to-move", humans={"0": bob["player_id"]})

        # scoring and (where there is one) the index catch up
        finished = [mid for mid in matches if api.ok("GET", "rules", f"/v1/matches/{mid}")["status"] == "finished"]
        deadline = time.time() + 60
        while any(api.call("GET", "scoring", f"/v1/results/{mid}").status_code != 200 for mid in finished):
            if time.time() > deadline:
                raise RuntimeError("scoring did not score every finished match")
            time.sleep(0.3)
        time.sleep(2)

        manifest = {"release": str(release), "commit": git_head(release) or out.name, "recorded_at": time.time(),
                    "auth_secret": SECRET, "players": {}, "matches": {}, "leaderboards": {}, "index": None,
                    "idempotent_move": idempotent}
        for pid, p in players.items():
            me = api.call("GET", "matchmaking", "/v1/players/me", p["token"])
            manifest["players"][pid] = {
                "name": p["name"], "token": p["token"],
                "profile": api.ok("GET", "matchmaking", f"/v1/players/{pid}"),
                "me_status": me.status_code,
                "ratings": api.ok("GET", "scoring", f"/v1/players/{pid}/ratings")["ratings"],
            }
        for mid, info in matches.items():
            summary = api.ok("GET", "rules", f"/v1/matches/{mid}")
            res = api.call("GET", "scoring", f"/v1/results/{mid}")
            events = api.ok("GET", "rules", f"/v1/matches/{mid}/events", params={"limit": 1000})
            manifest["matches"][mid] = {**info, "summary": summary,
                                        "result": res.json() if res.status_code == 200 else None,
                                        "events": len(events["events"])}
        for game in GAMES:
            manifest["leaderboards"][game] = api.ok("GET", "scoring", f"/v1/leaderboards/{game}",
                                                    params={"limit": 100})
        listing = api.call("GET", "rules", "/v1/matches", params={"limit": 100})
        if listing.status_code == 200 and "matches" in listing.json():
            manifest["index"] = sorted(m["match_id"] for m in listing.json()["matches"])
        rel.stop()
        # RQ keeps a finished job and its result for a while (TTL): let them lapse, as they would
        deadline = time.time() + 200
        while time.time() < deadline and any(rel.client.ttl(k) > 0 for k in rel.client.scan_iter("rq:*", count=1000)):
            time.sleep(2)
        manifest["keys"] = sorted(k.decode() for k in rel.client.scan_iter(count=1000)
                                  if not k.startswith((b"{m:", b"rq:job:", b"rq:results:")))
        rel.client.save()
        out.mkdir(parents=True, exist_ok=True)
        shutil.copy(workdir / "redis" / "dump.rdb", out / "dump.rdb")
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        return manifest
    finally:
        rel.close()
        print(f"logs of the recorded release: {workdir}", file=sys.stderr)


def git_head(path: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""  # not a git checkout (e.g. `git archive <commit> | tar -x`): the output folder names it


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", type=Path, required=True, help="a checkout of the release to record")
    ap.add_argument("--out", type=Path, required=True, help="where dump.rdb and manifest.json go")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    manifest = record(args.release.resolve(), args.out)
    print(json.dumps({"matches": {m: (v["kind"], v["summary"]["status"]) for m, v in manifest["matches"].items()},
                      "dump_bytes": (args.out / "dump.rdb").stat().st_size}))


if __name__ == "__main__":
    main()
