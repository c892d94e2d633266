"""What the container and cluster manifests must run: the processes of deploy/Procfile."""
from __future__ import annotations

import re
import shlex
from collections import Counter
from pathlib import Path

from deploy.run import procfile

ROOT = Path(__file__).resolve().parents[2]
LISTEN = "0.0.0.0:8000"  # in a container a service listens on every interface, on port 8000


def processes() -> dict[str, tuple[int, list[str]]]:
    """Procfile process -> (how many of it, its argv as a container runs it). ``bot_worker_1`` and
    ``bot_worker_2`` are two replicas of ``bot_worker``; a service's ``-b 127.0.0.1:$X_PORT`` becomes
    ``-b 0.0.0.0:8000``."""
    counts: Counter = Counter()
    argv: dict[str, list[str]] = {}
    for name, command in procfile().items():
        base = re.sub(r"_\d+$", "", name)
        counts[base] += 1
        args = [re.sub(r"^127\.0\.0\.1:\$\{?\w+_PORT\}?$", LISTEN, a) for a in shlex.split(command)]
        assert argv.setdefault(base, args) == args, f"the replicas of {base} run different commands"
    return {name: (counts[name], argv[name]) for name in counts}


def needs_auth_secret(argv: list[str]) -> bool:
    """Whether a process signs or checks tokens: the three services (gunicorn), the rules stream
    process (it runs the stream routes, token checks included) and the rules consumer (it mints
    each bot job's token). Bot workers, the indexer and the other consumers don't."""
    return argv[0] == "gunicorn" or argv[-1] in ("services.rules.consumer", "services.rules.stream_server")


STREAM_PROCESS = "rules_streams"  # beside the rules workers: same host (compose), same pod (k8s)
STREAM_SOCKET_DIR = "/run/tabletop-streams"
