"""The whole service stack for integration and end-to-end tests: ``deploy/Procfile`` run by honcho
on free ports against the test's own Redis, stopped (process group and all) afterwards."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from shared.localredis import free_port
from tabletop_client import Tabletop

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

    def api(self, token: str | None = None) -> Tabletop:
        """The project's Python client pointed at this stack."""
        return Tabletop(self.mm, self.rules, self.scoring, token=token)

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
    api = stack.api()
    for service in stack.urls:
        while not api.ready(service):
            if time.time() > deadline or proc.poll() is not None:
                stack.stop()
                raise RuntimeError(f"the stack did not come up:\n{stack.log()}")
            time.sleep(0.1)
    return stack


class Client:
    """A test's client of the stack: ``api`` is the project's Python client (``tabletop_client``)
    acting with this token; ``get``/``post``/``delete`` are raw requests with the same token, for
    tests that check status codes and problem documents themselves."""

    def __init__(self, stack: Stack, token: str | None = None):
        self.stack = stack
        self.api = stack.api(token)
        self.http = self.api.http
        self.player_id: str | None = None

    @property
    def token(self) -> str | None:
        return self.api.token

    def get(self, url, **kw):
        return self.api.send("GET", url, **kw)

    def post(self, url, json=None, **kw):
        return self.api.send("POST", url, json=json, **kw)

    def delete(self, url, **kw):
        return self.api.send("DELETE", url, **kw)

    @classmethod
    def register(cls, stack: Stack, name: str) -> "Client":
        c = cls(stack)
        c.player_id = c.api.register(name).player_id
        return c


def wait_for(predicate, timeout: float = 60, interval: float = 0.1, what: str = "condition"):
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(interval)
