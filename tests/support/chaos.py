"""Tools for the fault-injection tests: find a stack's processes by role, kill them, and play
matches from several client threads while recording every acknowledged move."""
from __future__ import annotations

import os
import signal
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import redis
import requests

from shared.streams import MATCHES_FORMED, publish

from .stack import Stack, wait_for


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def program_of(pid: int) -> str:
    """The supervisord program a process belongs to (supervisord puts SUPERVISOR_PROCESS_NAME in
    every child's environment, which a process title set with setproctitle does not overwrite
    under SPT_NOENV), or ""."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return ""
    for entry in environ:
        if entry.startswith(b"SUPERVISOR_PROCESS_NAME="):
            return entry.split(b"=", 1)[1].decode()
    return ""


def programs_running(stack: Stack, needle: str) -> set[str]:
    """The stack's Procfile programs whose command contains ``needle`` (numbered replicas too)."""
    procfile = Path(stack.env["PROCFILE"]).read_text().splitlines()
    return {line.split(":", 1)[0].strip() for line in procfile if ":" in line and needle in line.split(":", 1)[1]}


def role_pids(stack: Stack, needle: str) -> list[int]:
    """The stack's top processes whose command line contains ``needle`` (a gunicorn master, not
    its workers) — or, when a process title hides the command line (gunicorn and RQ set one with
    setproctitle when it is installed), whose supervisord program runs such a command."""
    programs = programs_running(stack, needle)

    def runs_it(pid: int) -> bool:
        program = program_of(pid)
        return needle in cmdline(pid) or program in programs or program.rsplit("_", 1)[0] in programs

    pids = {p for p in stack.pids() if runs_it(p)}
    return sorted(p for p in pids if parent(p) not in pids)


def kill9(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def redis_ready(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_timeout=2).ping())
    except (redis.RedisError, OSError):
        return False


def register(stack: Stack, name: str) -> tuple[str, str]:
    """A player (id, token), registered through the public API."""
    r = requests.post(f"{stack.mm}/v1/players", json={"name": f"{name}-{uuid.uuid4().hex[:6]}"}, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()["player_id"], r.json()["token"]


def form_match(stack: Stack, seats: list[dict], game: str = "duel", options: dict | None = None) -> str:
    """Publish a "match formed" message as the matchmaking service does, and wait for the match."""
    match_id = uuid.uuid4().hex
    client = redis.Redis.from_url(stack.redis_url, socket_timeout=5)
    publish(client, MATCHES_FORMED, {"match_id": match_id, "game": game, "options": options or {}, "seats": seats,
                                     "turn_seconds": None})
    wait_for(lambda: _get(f"{stack.rules}/v1/matches/{match_id}") is not None, 90, 0.1, f"match {match_id}")
    return match_id


def _get(url: str, token: str | None = None) -> dict | None:
    try:
        r = requests.get(url, headers={"Authorization": f"Bearer {token}"} if token else {}, timeout=10)
    except requests.RequestException:
        return None
    return r.json() if r.status_code == 200 else None


@dataclass
class Ack:
    match_id: str
    version: int
    head_hash: str


@dataclass
class MovePlayer:
    """Client threads that create human-only duel matches and play them as fast as they can,
    remembering every move the server acknowledged (201) and the hash of its last event."""

    stack: Stack
    players: list[tuple[str, str]]  # (player id, token) per seat
    acks: list[Ack] = field(default_factory=list)
    errors: int = 0
    refusals: dict = field(default_factory=dict)  # (status, problem type) -> how many, for diagnostics
    stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, threads: int) -> list[threading.Thread]:
        started = [threading.Thread(target=self._loop, daemon=True) for _ in range(threads)]
        for t in started:
            t.start()
        return started

    def _loop(self) -> None:
        http = requests.Session()
        while not self.stop.is_set():
            try:
                seats = [{"player_id": pid, "name": pid} for pid, _ in self.players]
                match_id = form_match(self.stack, seats, options={"rounds": 3})
                self._play(http, match_id)
            except (AssertionError, requests.RequestException, redis.RedisError, OSError, ValueError):
                with self._lock:
                    self.errors += 1
                self.stop.wait(0.2)

    def _play(self, http: requests.Session, match_id: str) -> None:
        base = f"{self.stack.rules}/v1/matches/{match_id}"
        while not self.stop.is_set():
            summary = http.get(base, timeout=10)
            if summary.status_code != 200:
                self.stop.wait(0.1)
                continue
            m = summary.json()
            if m["status"] != "active":
                return
            for seat in m["to_act"]:
                token = self.players[seat][1]
                headers = {"Authorization": f"Bearer {token}"}
                legal = http.get(f"{base}/legal-moves", headers=headers, timeout=10)
                if legal.status_code != 200 or not legal.json()["moves"]:
                    break
                body = legal.json()
                posted = http.post(f"{base}/moves", headers=headers, timeout=10,
                                   json={"move": body["moves"][0], "expected_version": body["version"]})
                with self._lock:
                    if posted.status_code == 201:
                        answer = posted.json()
                        self.acks.append(Ack(match_id, answer["version"], answer["events"][-1]["hash"]))
                    else:
                        why = (posted.status_code, posted.text[:300])
                        self.refusals[why] = self.refusals.get(why, 0) + 1
                break

    def missing(self, client: redis.Redis) -> list[Ack]:
        """The acknowledged moves whose last event is not in the log as it was answered."""
        from shared.eventstore.store import EventStore

        store = EventStore(client)
        lost = []
        for ack in self.acks:
            records = store.read(ack.match_id, after=ack.version - 1, until=ack.version)
            if not records or records[0]["hash"] != ack.head_hash:
                lost.append(ack)
        return lost
