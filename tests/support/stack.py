"""The whole service stack for integration and end-to-end tests: ``deploy/Procfile`` run by honcho
on free ports against the test's own Redis, stopped (process group and all) afterwards."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import requests

from shared.localredis import free_port

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Stack:
    redis_url: str
    env: dict
    process: subprocess.Popen
    log_path: Path
    urls: dict = field(default_factory=dict)

    @property
    def mm(self) -> str:
        return self.urls["matchmaking"]

    @property
    def rules(self) -> str:
        return self.urls["rules"]

    @property
    def scoring(self) -> str:
        return self.urls["scoring"]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-20000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        try:  # anything left in the group
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def start_stack(redis_url: str, workdir: Path, procfile: str = "deploy/Procfile", **extra_env: str) -> Stack:
    ports = {name: free_port() for name in ("matchmaking", "rules", "scoring")}
    env = dict(os.environ)
    env.update(
        REDIS_URL=redis_url, AUTH_SECRET="test-secret",
        MATCHMAKING_PORT=str(ports["matchmaking"]), RULES_PORT=str(ports["rules"]), SCORING_PORT=str(ports["scoring"]),
        MATCHMAKING_URL=f"http://127.0.0.1:{ports['matchmaking']}", RULES_URL=f"http://127.0.0.1:{ports['rules']}",
        SCORING_URL=f"http://127.0.0.1:{ports['scoring']}",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT),
        GAME_MODULES=env.get("GAME_MODULES", "tests.support.duel"), SSE_KEEPALIVE_S="1", WAVE_S="0.5",
        BOT_RETRY_AFTER_S="5", SEARCH_ITERATIONS="25",
    )
    env.update(extra_env)
    log_path = workdir / "stack.log"
    out = open(log_path, "w")
    proc = subprocess.Popen([sys.executable, "-m", "honcho", "-f", str(ROOT / procfile), "-d", str(ROOT), "start"],
                            env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    stack = Stack(redis_url, env, proc, log_path, {k: f"http://127.0.0.1:{p}" for k, p in ports.items()})
    deadline = time.time() + 60
    for url in stack.urls.values():
        while True:
            try:
                if requests.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.time() > deadline or proc.poll() is not None:
                stack.stop()
                raise RuntimeError(f"the stack did not come up:\n{stack.log()}")
            time.sleep(0.1)
    return stack


class Client:
    """A tiny HTTP client that speaks the public API as a third-party client would."""

    def __init__(self, stack: Stack, token: str | None = None):
        self.stack = stack
        self.token = token
        self.http = requests.Session()

    def _headers(self, extra=None):
        h = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        h.update(extra or {})
        return h

    def get(self, url, **kw):
        return self.http.get(url, headers=self._headers(kw.pop("headers", None)), timeout=30, **kw)

    def post(self, url, json=None, **kw):
        return self.http.post(url, json=json, headers=self._headers(kw.pop("headers", None)), timeout=30, **kw)

    def delete(self, url, **kw):
        return self.http.delete(url, headers=self._headers(kw.pop("headers", None)), timeout=30, **kw)

    @classmethod
    def register(cls, stack: Stack, name: str) -> "Client":
        """A new player named ``name`` plus a short unique suffix (names are unique per server)."""
        name = f"{name[:24]}-{uuid.uuid4().hex[:6]}"
        r = requests.post(f"{stack.mm}/v1/players", json={"name": name}, timeout=30)
        assert r.status_code == 201, r.text
        c = cls(stack, r.json()["token"])
        c.player_id = r.json()["player_id"]
        return c


def seat_players(host: Client, body: dict, guests: list[Client]) -> str:
    """Create a table that invites ``guests`` (the seats name them) and have each accept; the match id."""
    r = host.post(f"{host.stack.mm}/v1/tables", json=body)
    assert r.status_code == 201, r.text
    if "match_id" in r.json():
        return r.json()["match_id"]
    for guest in guests:
        joined = guest.post(f"{host.stack.mm}/v1/tables/{r.json()['table_id']}/join", json={})
        assert joined.status_code == 200, joined.text
    assert joined.json()["status"] == "started", joined.text
    return joined.json()["match_id"]


def wait_for(predicate, timeout: float = 60, interval: float = 0.1, what: str = "condition"):
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(interval)
