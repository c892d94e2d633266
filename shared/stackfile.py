"""Where ``make run``'s stack is: ``$DATA_DIR/stack.json`` (``.data/stack.json`` by default).

The launcher (``deploy/run.py``) writes the file atomically once its supervisor has started —
its own pid, the three services' ports and URLs, the match store (the embedded Redis's URL or
``REDIS_URL``; ``REDIS_CLUSTER_NODES``) and the queue Redis if any — and removes it when it
exits. The commands that work on a running stack (``make demo``, ``make compact``,
``make rebuild-scores``, ``make reindex-matches``, ``make migrate``, ``scripts/verify --download``)
read it through ``use`` before building their clients:

* a variable set in the environment always wins. The store's variables go together: when any of
  ``REDIS_URL``, ``REDIS_CLUSTER_NODES``, ``QUEUE_REDIS_URL`` is set, none is taken from the file.
  A service's ``<NAME>_URL`` wins over its ``<NAME>_PORT`` (``http://127.0.0.1:<port>``, the
  variable ``make run`` takes), which wins over the file;
* a recorded stack whose launcher is no longer running (its pid gone, or reused by another
  process) is ignored, and the command says so;
* with neither, the defaults of ``shared.config`` (``redis://127.0.0.1:6379/0``, ports 8001-8003).

Every command says on standard error which Redis or which services it talks to, and why.
"""
from __future__ import annotations

import datetime
import json
import os
import sys
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMAT = 1
STORE_VARS = ("REDIS_URL", "REDIS_CLUSTER_NODES", "QUEUE_REDIS_URL")
SERVICES = {"MATCHMAKING": 8001, "RULES": 8002, "SCORING": 8003}
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def data_dir(env: MutableMapping | dict) -> Path:
    """``DATA_DIR``, else ``.data`` in the checkout (where ``make run`` keeps its files)."""
    return Path(env.get("DATA_DIR") or ROOT / ".data")


def path(env: MutableMapping | dict | None = None) -> Path:
    return data_dir(os.environ if env is None else env) / "stack.json"


def shown(p: Path) -> str:
    """``p`` relative to the checkout when it is inside it (for messages)."""
    try:
        return str(p.resolve().relative_to(ROOT))
    except ValueError:
        return str(p)


# ----- the launcher's side ---------------------------------------------------------------------
def process_start(pid: int) -> str | None:
    """The kernel's start time of process ``pid`` (``/proc/<pid>/stat``, field 22), which tells a
    process from a later one given the same pid; None when it cannot be read or is a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return None if fields[0] == "Z" else fields[19]


def record(env: dict, *, pid: int, supervisor_pid: int | None = None, embedded_redis_port: int | None = None,
           embedded_queue_redis_port: int | None = None) -> dict:
    """What the launcher writes: ``env`` is the stack's environment as ``deploy.run.prepare`` made it."""
    variables = {f"{name}_URL": env[f"{name}_URL"] for name in SERVICES}
    if env.get("REDIS_CLUSTER_NODES"):
        variables.update(REDIS_CLUSTER_NODES=env["REDIS_CLUSTER_NODES"], QUEUE_REDIS_URL=env.get("QUEUE_REDIS_URL", ""))
    else:
        variables["REDIS_URL"] = env["REDIS_URL"]
        if env.get("QUEUE_REDIS_URL"):
            variables["QUEUE_REDIS_URL"] = env["QUEUE_REDIS_URL"]
    ports = {name.lower(): int(env[f"{name}_PORT"]) for name in SERVICES}
    if embedded_redis_port is not None:
        ports["embedded_redis"] = embedded_redis_port
    if embedded_queue_redis_port is not None:
        ports["embedded_queue_redis"] = embedded_queue_redis_port
    return {
        "format": FORMAT, "status": "running", "pid": pid, "pid_start": process_start(pid),
        "supervisor_pid": supervisor_pid, "checkout": str(ROOT),
        "started_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "embedded_redis": embedded_redis_port is not None, "ports": ports, "env": variables,
    }


def write(target: Path, content: dict) -> None:
    """Atomically (a temporary file in the same directory, flushed, renamed over ``target``);
    readable by its owner only (a ``REDIS_URL`` may hold a password)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(content, f, indent=1, sort_keys=True)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    try:
        dirfd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)
    except OSError:
        pass


def remove(target: Path, pid: int) -> bool:
    """Remove ``target`` if it still records the launcher ``pid`` (another launcher may have
    recorded its own stack since); whether it did."""
    try:
        content = json.loads(target.read_text())
    except (OSError, ValueError):
        return False
    if not isinstance(content, dict) or content.get("pid") != pid:
        return False
    target.unlink(missing_ok=True)
    return True


# ----- the commands' side ----------------------------------------------------------------------
def read(target: Path) -> tuple[dict | None, str | None]:
    """(the record, None), (None, why it is unusable), or (None, None) when there is none."""
    try:
        text = target.read_text()
    except FileNotFoundError:
        return None, None
    except OSError as err:
        return None, f"cannot read {shown(target)} ({err.strerror}); ignoring it"
    try:
        content = json.loads(text)
        if not isinstance(content, dict) or not isinstance(content.get("pid"), int) or \
                not isinstance(content.get("env"), dict):
            raise ValueError("not a stack record")
    except ValueError as err:
        return None, f"{shown(target)} is not a stack record ({err}); ignoring it"
    return content, None


def running(content: dict) -> bool:
    """Whether the launcher that wrote ``content`` is still running (the same process: its start time)."""
    pid = content["pid"]
    if content.get("status", "running") != "running":
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # someone else's process: compared by start time below
    if not Path("/proc").is_dir():
        return True  # not Linux: the pid answering is all we know
    started = process_start(pid)  # None: a zombie
    return started is not None and content.get("pid_start") in (None, started)


@dataclass
class Resolved:
    """The variables a command should use that the environment did not give, and why."""

    env: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # a stack file ignored, and why
    store: str = ""  # where the store's settings come from, for the message
    services: dict[str, str] = field(default_factory=dict)  # NAME -> where its URL comes from
    recorded: dict | None = None  # the running stack's record, when one was found


def resolve(env: MutableMapping | dict | None = None, target: Path | None = None) -> Resolved:
    env = os.environ if env is None else env
    target = target or path(env)
    content, problem = read(target)
    out = Resolved()
    if problem:
        out.notes.append(problem)
    if content is not None and not running(content):
        out.notes.append(f"{shown(target)} records a stack that is not running (launcher pid {content['pid']}, "
                         f"started {content.get('started_at', '?')}, has exited); ignoring it")
        content = None
    out.recorded = content
    where = f"recorded by `make run` in {shown(target)}, launcher pid {content['pid']}" if content else ""
    recorded = content["env"] if content else {}
    if any(env.get(name) for name in STORE_VARS):
        out.store = "from the environment"
    elif any(recorded.get(name) for name in STORE_VARS):
        out.env.update({name: recorded[name] for name in STORE_VARS if recorded.get(name)})
        out.store = where
    else:
        out.store = "the default: no running stack recorded in " + shown(target)
    for name, port in SERVICES.items():
        if env.get(f"{name}_URL"):
            out.services[name] = f"{name}_URL"
        elif env.get(f"{name}_PORT"):
            out.env[f"{name}_URL"] = f"http://127.0.0.1:{int(env[f'{name}_PORT'])}"
            out.services[name] = f"{name}_PORT"
        elif recorded.get(f"{name}_URL"):
            out.env[f"{name}_URL"] = recorded[f"{name}_URL"]
            out.services[name] = where
        else:
            out.env[f"{name}_URL"] = f"http://127.0.0.1:{port}"
            out.services[name] = "the default"
    return out


def store_summary(env: MutableMapping | dict) -> str:
    if env.get("REDIS_CLUSTER_NODES"):
        return (f"Redis Cluster {env['REDIS_CLUSTER_NODES']}"
                + (f", queues on {env['QUEUE_REDIS_URL']}" if env.get("QUEUE_REDIS_URL") else ""))
    url = env.get("REDIS_URL") or DEFAULT_REDIS_URL
    queues = f", queues on {redact(env['QUEUE_REDIS_URL'])}" if env.get("QUEUE_REDIS_URL") else ""
    return f"Redis {redact(url)}{queues}"


def redact(url: str) -> str:
    """A Redis URL without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user + ':' if user else ':'}***@{host}"


def use(command: str, *, store: bool = True, services: tuple[str, ...] = (),
        env: MutableMapping | None = None, out=None) -> Resolved:
    """Resolve, put the variables the environment lacks into ``env`` (``os.environ``), and say on
    ``out`` (standard error) what ``command`` works on: the store when ``store``, the URLs of
    ``services`` (names of ``SERVICES``)."""
    env = os.environ if env is None else env
    out = sys.stderr if out is None else out
    found = resolve(env)
    for note in found.notes:
        print(f"{command}: {note}", file=out)
    wanted = (STORE_VARS if store else ()) + tuple(f"{s}_URL" for s in services)
    for name in wanted:
        if name in found.env:
            env[name] = found.env[name]
    if store:
        print(f"{command}: on {store_summary(env)} ({found.store})", file=out)
    if services:
        sources = {found.services[s] for s in services}
        if len(sources) == 1:  # one source for all: said once
            line = ", ".join(f"{s.lower()} {env[f'{s}_URL']}" for s in services) + f" ({sources.pop()})"
        else:
            line = ", ".join(f"{s.lower()} {env[f'{s}_URL']} ({found.services[s]})" for s in services)
        print(f"{command}: {line}", file=out)
    out.flush()
    return found
