"""``REDIS_CLUSTER_NODES`` and ``REPLICAS_<PROCESS>``: what the configuration accepts, refuses, and
what the launcher makes of it (no Redis needed)."""
from __future__ import annotations

import pytest

from deploy import run
from shared.config import Config, ConfigError, cluster_nodes, limits_storage_uri, store_client
from shared.localredis import free_port


def config(monkeypatch, **env) -> Config:
    for name in ("REDIS_CLUSTER_NODES", "QUEUE_REDIS_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return Config()


def test_a_cluster_without_a_queue_redis_is_refused_clearly(monkeypatch):
    with pytest.raises(ConfigError, match="QUEUE_REDIS_URL"):
        config(monkeypatch, REDIS_CLUSTER_NODES="10.0.0.1:7000,10.0.0.2:7000").check()


@pytest.mark.parametrize("nodes", ["10.0.0.1", "10.0.0.1:x", ":7000", "10.0.0.1:7000,,"])
def test_malformed_cluster_nodes_are_refused(monkeypatch, nodes):
    with pytest.raises(ConfigError, match="host:port"):
        config(monkeypatch, REDIS_CLUSTER_NODES=nodes, QUEUE_REDIS_URL="redis://q:6379/0").check()


def test_cluster_nodes_and_the_rate_limiter_storage(monkeypatch):
    c = config(monkeypatch, REDIS_CLUSTER_NODES="10.0.0.1:7000, 10.0.0.2:7001", QUEUE_REDIS_URL="redis://q/0").check()
    assert c.cluster and cluster_nodes(c) == [("10.0.0.1", 7000), ("10.0.0.2", 7001)]
    assert limits_storage_uri(c) == "redis+cluster://10.0.0.1:7000,10.0.0.2:7001"
    single = config(monkeypatch, REDIS_URL="redis://h:6379/0").check()
    assert not single.cluster and limits_storage_uri(single) == "redis://h:6379/0"


def test_a_cluster_client_waits_for_a_node_then_gives_up_when_told(monkeypatch):
    c = config(monkeypatch, REDIS_CLUSTER_NODES=f"127.0.0.1:{free_port()}", QUEUE_REDIS_URL="redis://q/0")
    with pytest.raises(Exception, match="cannot be connected|Connection refused"):
        store_client(c, connect_wait_s=0.5)


def launcher_env(tmp_path, **extra) -> dict:
    env = {"AUTH_SECRET": "s", "DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin",
           "MATCHMAKING_PORT": str(free_port()), "RULES_PORT": str(free_port()), "SCORING_PORT": str(free_port())}
    env.update(extra)
    return env


def test_the_launcher_refuses_a_cluster_without_a_queue_redis(tmp_path):
    with pytest.raises(run.StartError, match="QUEUE_REDIS_URL"):
        run.prepare(launcher_env(tmp_path, REDIS_CLUSTER_NODES="127.0.0.1:7000"))


def test_the_launcher_runs_no_embedded_redis_with_a_cluster_and_replicates_processes(tmp_path):
    env, programs, said = run.prepare(launcher_env(
        tmp_path, REDIS_CLUSTER_NODES="127.0.0.1:7000", QUEUE_REDIS_URL="redis://127.0.0.1:7100/0",
        REPLICAS_RULES="2", REPLICAS_RULES_CONSUMER="3"))
    assert "redis" not in programs
    assert programs["rules"].startswith("gunicorn --reuse-port ")  # two masters share the port
    assert "--reuse-port" not in programs["scoring"]
    conf = run.supervisor_config(programs, env, tmp_path)
    rules = conf.split("[program:rules]\n", 1)[1].split("\n\n", 1)[0]
    consumer = conf.split("[program:rules_consumer]\n", 1)[1].split("\n\n", 1)[0]
    scoring = conf.split("[program:scoring]\n", 1)[1].split("\n\n", 1)[0]
    assert "numprocs=2" in rules and "numprocs=3" in consumer and "numprocs" not in scoring
    assert "process_name=%(program_name)s_%(process_num)d" in consumer


@pytest.mark.parametrize("count", ["0", "-1", "two", ""])
def test_the_launcher_refuses_a_replica_count_that_is_not_one_or_more(tmp_path, count):
    with pytest.raises(run.StartError, match="REPLICAS_RULES"):
        run.prepare(launcher_env(tmp_path, REDIS_URL="redis://127.0.0.1:1/0", REPLICAS_RULES=count))
