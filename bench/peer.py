"""The peer anchor of ``bench/move_cost.py``: boardgame.io's server and load client (Node).

The versions are pinned in ``bench/peer/package.json`` and ``package-lock.json``; ``install``
puts them with ``npm ci`` into a cache directory named after the lock file's hash (nothing is
installed into the checkout), and the scripts run from there. The server keeps boardgame.io's
default storage, ``InMemory``: nothing is persisted.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from shared import localredis

PEER = Path(__file__).resolve().parent / "peer"
FILES = ("package.json", "package-lock.json", "counter.js", "server.js", "client.js")


def cache_dir() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    digest = hashlib.sha256((PEER / "package-lock.json").read_bytes()).hexdigest()[:16]
    return base / "tabletop-bench" / f"boardgameio-{digest}"


def version() -> str:
    return json.loads((PEER / "package.json").read_text())["dependencies"]["boardgame.io"]


def install() -> Path:
    """The directory holding the peer's scripts and its node_modules (installed on first use)."""
    if not shutil.which("node") or not shutil.which("npm"):
        raise RuntimeError("node and npm are needed for the boardgame.io peer")
    where = cache_dir()
    where.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copyfile(PEER / name, where / name)
    if not (where / "node_modules" / "boardgame.io" / "package.json").exists():
        subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], cwd=where,
                       check=True, stdout=subprocess.DEVNULL)
    return where


class PeerServer:
    """boardgame.io's server on a free port (``with PeerServer(dir) as url: ...``)."""

    def __init__(self, where: Path):
        self.where = where
        self.port = localredis.free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> str:
        self.proc = subprocess.Popen(["node", "server.js", str(self.port)], cwd=self.where, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        for line in self.proc.stdout:
            if line.startswith("ready"):
                return self.url
        raise RuntimeError("the boardgame.io server did not start")

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()


def load(where: Path, url: str, clients: int, seconds: float) -> dict:
    """``clients`` boardgame.io clients, each in a match of its own, moving and waiting for each
    update for ``seconds``: {"moves", "rps", "p50_ms", "p99_ms", ...}."""
    out = subprocess.run(["node", "client.js", url, str(clients), str(seconds)], cwd=where, capture_output=True,
                         text=True, timeout=seconds + 120, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])
