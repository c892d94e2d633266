"""deploy/k8s/: every manifest parses and validates against Kubernetes' own schemas (shipped in the
pinned ``kubernetes-validate``, no network); every container has readiness and liveness probes and
resource requests and limits; every process of deploy/Procfile has a workload running its command;
Redis is a StatefulSet with a claim and deploy/redis.conf; bot workers scale on the bot queue with
KEDA and never see AUTH_SECRET."""
from __future__ import annotations

import pytest
import yaml

from shared.config import Config
from tests.deploy.common import ROOT, STREAM_PROCESS, STREAM_SOCKET_DIR, needs_auth_secret, processes

K8S = ROOT / "deploy" / "k8s"
K8S_VERSION = "1.33"
WORKLOADS = ("Deployment", "StatefulSet")
SIDECARS = {STREAM_PROCESS: "rules"}  # a process that runs as a container of another process's pod


def documents() -> list[dict]:
    docs = []
    for path in sorted(K8S.glob("*.yaml")):
        if path.name != "kustomization.yaml":
            docs += [d for d in yaml.safe_load_all(path.read_text()) if d]
    return docs


@pytest.fixture(scope="module")
def docs() -> list[dict]:
    return documents()


def by_kind(docs, kind: str) -> dict[str, dict]:
    return {d["metadata"]["name"]: d for d in docs if d["kind"] == kind}


def containers(workload: dict) -> list[dict]:
    spec = workload["spec"]["template"]["spec"]
    return spec.get("initContainers", []) + spec["containers"]


def test_the_kustomization_lists_every_manifest():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    files = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == files


def test_every_core_manifest_validates_against_the_kubernetes_schema(docs):
    kubernetes_validate = pytest.importorskip("kubernetes_validate")
    checked = 0
    for doc in docs:
        if doc["apiVersion"].startswith("keda.sh/"):
            continue  # a custom resource: checked below
        kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
        checked += 1
    assert checked >= 10
    broken = dict(by_kind(docs, "Deployment")["rules"])
    broken["spec"] = {**broken["spec"], "replicas": "two"}
    with pytest.raises(kubernetes_validate.ValidationError):  # it does catch a mistake
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)


def test_every_container_has_probes_and_resource_requests_and_limits(docs):
    workloads = [d for d in docs if d["kind"] in WORKLOADS]
    assert len(workloads) >= 10
    for workload in workloads:
        for c in containers(workload):
            where = f"{workload['metadata']['name']}/{c['name']}"
            assert c.get("readinessProbe") and c.get("livenessProbe"), where
            for probe in (c["readinessProbe"], c["livenessProbe"]):
                if "httpGet" in probe:  # a probe asks a port the container declares
                    assert probe["httpGet"]["port"] in {p["containerPort"] for p in c["ports"]}, where
            for part in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(c["resources"][part]), where


def workload_of(deployments: dict, name: str) -> tuple[dict, dict]:
    """The Deployment and the container that run Procfile process ``name``."""
    host = SIDECARS.get(name, name)
    workload = deployments.get(host.replace("_", "-"))
    assert workload is not None, f"{name} (deploy/Procfile) has no Deployment in deploy/k8s"
    pod = workload["spec"]["template"]["spec"]["containers"]
    if name not in SIDECARS:
        assert len(pod) == 1 + sum(h == host for h in SIDECARS.values()), name
    (container,) = [c for c in pod if c["name"] == name.replace("_", "-")]
    return workload, container


def test_every_procfile_process_has_a_workload_running_its_command(docs):
    deployments = by_kind(docs, "Deployment")
    for name, (_count, argv) in processes().items():
        workload, container = workload_of(deployments, name)
        assert container["args"] == argv, name
        assert container["image"] == "tabletop-server:latest"
        labels = workload["spec"]["template"]["metadata"]["labels"]
        assert workload["spec"]["selector"]["matchLabels"].items() <= labels.items(), name
        if argv[0] != "gunicorn":  # no HTTP API: the probes read the metrics exporter it is told to serve
            env = {e["name"]: e.get("value") for e in container.get("env", [])}
            assert str(container["livenessProbe"]["httpGet"]["port"]) == env["METRICS_PORT"], name


def test_rule_streams_that_hold_the_stream_process_is_a_container_of_the_rules_pod_sharing_its_socket(docs):
    deployments = by_kind(docs, "Deployment")
    workload, streams = workload_of(deployments, STREAM_PROCESS)
    _, rules = workload_of(deployments, SIDECARS[STREAM_PROCESS])
    pod = workload["spec"]["template"]["spec"]
    sockets = []
    for c in (rules, streams):
        env = {e["name"]: e.get("value") for e in c["env"]}
        sockets.append(env["STREAM_HANDOFF_SOCKET"])
        mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
        volume = mounts[STREAM_SOCKET_DIR]
        assert {"name": volume, "emptyDir": {}} in pod["volumes"], c["name"]
    assert sockets[0] == sockets[1] and sockets[0].rsplit("/", 1)[0] == STREAM_SOCKET_DIR
    assert streams["readinessProbe"]["httpGet"]["path"] == "/healthz"  # ready once it listens on the socket


def _secret_refs(workload: dict, only: str | None = None) -> list[str]:
    spec = workload["spec"]["template"]["spec"]
    refs = [v["secret"]["secretName"] for v in spec.get("volumes", []) if "secret" in v]
    for c in containers(workload):
        if only is not None and c["name"] != only:
            continue
        refs += [e["secretRef"]["name"] for e in c.get("envFrom", []) if "secretRef" in e]
        refs += [e["valueFrom"]["secretKeyRef"]["name"] for e in c.get("env", [])
                 if "secretKeyRef" in e.get("valueFrom", {})]
        refs += [e["name"] for e in c.get("env", []) if e["name"] == "AUTH_SECRET"]
    return refs


def test_only_what_signs_tokens_gets_the_auth_secret_and_bot_workers_get_no_secret(docs):
    deployments = by_kind(docs, "Deployment")
    for name, (_count, argv) in processes().items():
        workload, container = workload_of(deployments, name)
        refs = _secret_refs(workload, container["name"])
        assert bool(refs) == needs_auth_secret(argv), (name, refs)
    assert _secret_refs(deployments["bot-worker"]) == []
    for config in by_kind(docs, "ConfigMap").values():
        assert "AUTH_SECRET" not in config["data"]
    assert not by_kind(docs, "Secret")  # the key is made in the cluster, never committed


def test_redis_is_a_stateful_set_with_a_claim_and_the_projects_configuration(docs):
    for config, conf in (("redis-config", "redis.conf"), ("queue-redis-config", "redis-queue.conf")):
        assert by_kind(docs, "ConfigMap")[config]["data"]["redis.conf"] == (ROOT / "deploy" / conf).read_text()
    services = by_kind(docs, "Service")
    for name, config in (("redis", "redis-config"), ("queue-redis", "queue-redis-config")):
        redis = by_kind(docs, "StatefulSet")[name]
        assert redis["spec"]["volumeClaimTemplates"][0]["metadata"]["name"] == "data"
        pod = redis["spec"]["template"]["spec"]
        (container,) = pod["containers"]
        assert container["args"][0] == "/etc/redis/redis.conf"
        mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
        assert mounts == {"config": "/etc/redis", "data": "/data"}
        assert {"name": "config", "configMap": {"name": config}} in pod["volumes"]
        assert container["readinessProbe"]["exec"]["command"] == ["redis-cli", "ping"]
        assert services[name]["spec"]["selector"] == redis["spec"]["template"]["metadata"]["labels"]
    config = by_kind(docs, "ConfigMap")["tabletop-config"]["data"]
    assert config["REDIS_URL"].startswith("redis://redis:")
    assert config["QUEUE_REDIS_URL"].startswith("redis://queue-redis:")
    for url in ("MATCHMAKING_URL", "RULES_URL", "SCORING_URL"):
        host = config[url].split("//")[1].split(":")[0]
        assert host in services and by_kind(docs, "Deployment")[host]


def test_bot_workers_scale_with_keda_on_the_length_of_the_bot_queue(docs):
    (scaled,) = [d for d in docs if d["kind"] == "ScaledObject"]
    assert scaled["apiVersion"] == "keda.sh/v1alpha1"
    target = scaled["spec"]["scaleTargetRef"]
    assert target.get("kind", "Deployment") == "Deployment" and target["name"] == "bot-worker"
    assert target["name"] in by_kind(docs, "Deployment")
    assert 1 <= scaled["spec"]["minReplicaCount"] < scaled["spec"]["maxReplicaCount"]
    (trigger,) = scaled["spec"]["triggers"]
    assert trigger["type"] == "redis"
    meta = trigger["metadata"]
    assert meta["listName"] == f"rq:queue:{Config().bot_queue}" == "rq:queue:bots"
    assert int(meta["listLength"]) >= 1
    # KEDA's operator asks from its own namespace: the queue Redis's Service by its full name
    namespace = yaml.safe_load((K8S / "kustomization.yaml").read_text())["namespace"]
    assert namespace in by_kind(docs, "Namespace")
    host, port = meta["address"].split(":")
    service, suffix = host.split(".", 1)
    assert suffix == f"{namespace}.svc.cluster.local"
    queue_url = by_kind(docs, "ConfigMap")["tabletop-config"]["data"]["QUEUE_REDIS_URL"]
    assert queue_url.startswith(f"redis://{service}:{port}/") and service in by_kind(docs, "Service")
    for value in meta.values():
        assert isinstance(value, str)  # KEDA's trigger metadata is a map of strings
