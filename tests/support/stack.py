"""The whole service stack for integration and end-to-end tests: the real launcher (``make run``'s
``deploy/run.py``, supervisord running ``deploy/Procfile``) on free ports against the test's own
Redis — or its own embedded one — stopped afterwards, with every process it started.

Every process of a stack carries ``STACK_ID`` in its environment, so a test can find them all
(``stack_pids``) — also after the launcher itself was killed."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
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

    def pids(self) -> set[int]:
        return stack_pids(self.env["STACK_ID"], *self.embedded_redis_ports())

    def embedded_redis_ports(self) -> list[str]:
        """The ports of the Redis servers the launcher runs itself: the match store's unless
        ``REDIS_URL`` is given, the queue's unless ``QUEUE_REDIS_URL`` (or ``REDIS_URL``) is."""
        if "REDIS_URL" in self.env:
            return []
        ports = [self.env["EMBEDDED_REDIS_PORT"]]
        if "QUEUE_REDIS_URL" not in self.env:
            ports.append(self.env["EMBEDDED_QUEUE_REDIS_PORT"])
        return ports

    def redis_title(self, which: str = "store") -> str:
        """The process title of an embedded Redis (``store`` or ``queue``): Redis writes it over its
        command line, ``redis-server 127.0.0.1:<port>``."""
        port = self.env["EMBEDDED_REDIS_PORT" if which == "store" else "EMBEDDED_QUEUE_REDIS_PORT"]
        return f"redis-server 127.0.0.1:{port}"

    @property
    def queue_redis_url(self) -> str:
        """The queue Redis: ``QUEUE_REDIS_URL``, the launcher's embedded one, else the store."""
        if "QUEUE_REDIS_URL" in self.env:
            return self.env["QUEUE_REDIS_URL"]
        if "REDIS_URL" in self.env:
            return self.redis_url
        return f"redis://127.0.0.1:{self.env['EMBEDDED_QUEUE_REDIS_PORT']}/0"

    def stop(self) -> None:
        """SIGTERM the launcher (it stops everything within 15 s); SIGKILL whatever is left."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


    def kill(self) -> None:
        """SIGKILL the launcher and every process of the stack, until none is left: a fixture's
        teardown, after which nothing of the stack is looked at (the graceful stop is a test of
        its own, tests/faults/test_supervision.py)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for _ in range(50):  # a process forked while the others were being killed is found next round
            left = self.pids()
            if not left:
                return
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.05)
        raise RuntimeError(f"processes of the stack outlived SIGKILL: {sorted(self.pids())}")


def stack_pids(stack_id: str, *redis_ports: str | None) -> set[int]:
    """Every live process whose environment carries ``STACK_ID=stack_id``, and the embedded Redis
    servers on ``redis_ports`` (Redis writes its process title over its environment)."""
    marker = f"STACK_ID={stack_id}".encode()
    titles = [f"redis-server 127.0.0.1:{port}".encode() for port in redis_ports if port]
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
            command = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and (marker in environ.split(b"\0") or any(t in command for t in titles)):
            found.add(int(entry.name))
    return found


def wait_ready(stack: "Stack", timeout: float = 90) -> None:
    """Until every service answers /readyz (the stack's log in the error otherwise)."""
    deadline = time.time() + timeout
    api = stack.api()
    for service in stack.urls:
        while not api.ready(service):
            if time.time() > deadline or stack.process.poll() is not None:
                stack.stop()
                raise RuntimeError(f"the stack did not come up:\n{stack.log()}")
            time.sleep(0.1)


def start_stack(redis_url: str | None, workdir: Path, procfile: str = "deploy/Procfile", *, wait: bool = True,
                **extra_env: str) -> Stack:
    """The stack on free ports; with ``redis_url`` None it runs its own embedded Redis, supervised."""
    ports = {name: free_port() for name in ("matchmaking", "rules", "scoring")}
    env = dict(os.environ)
    env.pop("REDIS_URL", None)
    env.update(
        AUTH_SECRET="test-secret", DATA_DIR=str(workdir / "data"), PROCFILE=str(ROOT / procfile),
        STACK_ID=uuid.uuid4().hex, EMBEDDED_REDIS_PORT=str(free_port()), EMBEDDED_QUEUE_REDIS_PORT=str(free_port()),
        MATCHMAKING_PORT=str(ports["matchmaking"]), RULES_PORT=str(ports["rules"]), SCORING_PORT=str(ports["scoring"]),
        MATCHMAKING_URL=f"http://127.0.0.1:{ports['matchmaking']}", RULES_URL=f"http://127.0.0.1:{ports['rules']}",
        SCORING_URL=f"http://127.0.0.1:{ports['scoring']}", PYTHONPATH=str(ROOT),
        GAME_MODULES=env.get("GAME_MODULES", "tests.support.duel"), SSE_KEEPALIVE_S="1", WAVE_S="0.5",
        BOT_RETRY_AFTER_S="5", SEARCH_ITERATIONS="25",
        # a rotated token is refused by every process at once (deployments trust a generation for 1 s)
        TOKEN_GENERATION_CACHE_S="0",
        # gunicorn and RQ set their process titles with setproctitle when it is installed, which
        # writes the title over /proc/<pid>/environ; SPT_NOENV keeps the environment (and STACK_ID)
        SPT_NOENV="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(extra_env)
    log_path = workdir / "stack.log"
    out = open(log_path, "a")
    proc = subprocess.Popen([sys.executable, "-m", "deploy.run"], cwd=ROOT, env=env, stdout=out,
                            stderr=subprocess.STDOUT, start_new_session=True)
    url = redis_url or f"redis://127.0.0.1:{env['EMBEDDED_REDIS_PORT']}/0"
    stack = Stack(url, env, proc, log_path, {k: f"http://127.0.0.1:{p}" for k, p in ports.items()})
    if wait:
        wait_ready(stack)
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

    @token.setter
    def token(self, value: str | None) -> None:
        self.api.token = value

    def get(self, url, **kw):
        return self.api.send("GET", url, **kw)

    def post(self, url, json=None, **kw):
        return self.api.send("POST", url, json=json, **kw)

    def delete(self, url, **kw):
        return self.api.send("DELETE", url, **kw)

    @classmethod
    def register(cls, stack: Stack, name: str) -> "Client":
        """A new player named ``name`` plus a short unique suffix (names are unique per server)."""
        c = cls(stack)
        c.player_id = c.api.register(f"{name[:24]}-{uuid.uuid4().hex[:6]}").player_id
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


def finished_bot_match(stack: Stack, host_name: str = "host", timeout: float = 120) -> str:
    """A duel between two bots (random and greedy), played to its end through the stack; its id."""
    host = Client.register(stack, host_name)
    r = host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [{"bot": "random"}, {"bot": "greedy"}]})
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    wait_for(lambda: host.api.match(match_id)["status"] == "finished", timeout, 0.2, "the bots to finish")
    return match_id
