"""The values ``shared.metrics`` reads from Redis at scrape time, against a real Redis: consumer-group
lag (also on a Redis older than 7, which has no "lag" field), the bot queue, the due sets — and a
scrape that still answers when Redis is down."""
from __future__ import annotations

import time

import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from shared import metrics
from shared.localredis import free_port
from shared.streams import Consumer, publish


def samples(*collectors) -> dict:
    text = metrics.exposition(collectors).decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def lag(found: dict, stream: str, group: str, state: str) -> float:
    return found[("tabletop_stream_lag_entries", (("group", group), ("state", state), ("stream", stream)))]


def test_stream_lag_counts_undelivered_and_pending_entries_per_group(r):
    stream = "stream:test:lag"
    collector = metrics.StreamLag(r, [(stream, "fast"), (stream, "slow")])
    for i in range(5):
        publish(r, stream, {"n": i})
    found = samples(collector)
    assert lag(found, stream, "slow", "undelivered") == 5  # no group yet: everything waits for it
    fast = Consumer(r, stream, "fast", lambda _id, m: None)
    slow_seen = []

    def refuse(_id, m):
        slow_seen.append(m)
        raise RuntimeError("not yet")  # delivered, never acknowledged: pending

    slow = Consumer(r, stream, "slow", refuse, batch=2)
    fast.poll(block_ms=10)
    slow.poll(block_ms=10)
    found = samples(collector)
    assert (lag(found, stream, "fast", "pending"), lag(found, stream, "fast", "undelivered")) == (0, 0)
    assert (lag(found, stream, "slow", "pending"), lag(found, stream, "slow", "undelivered")) == (2, 3)


def test_without_redis_7s_lag_field_the_undelivered_entries_are_counted(r):
    stream = "stream:test:old-redis"
    ids = [publish(r, stream, {"n": i}) for i in range(4)]
    collector = metrics.StreamLag(r, [])
    assert collector._lag(stream, {"pending": 1, "last-delivered-id": ids[0].encode()}) == (1, 3)
    assert collector._lag(stream, {"pending": 0, "last-delivered-id": ids[-1]}) == (0, 0)


def test_the_bot_queue_and_the_due_sets(r):
    r.rpush("rq:queue:bots", "a", "b", "c")
    r.zadd("rq:failed:bots", {"old": time.time() - 10, "new": time.time() + 3600})  # scored by expiry
    r.zadd("rules:followups", {"due": time.time() - 1, "later": time.time() + 60, "later2": time.time() + 60})
    found = samples(metrics.BotQueue(r, "bots"), metrics.DueSets(r, {"followups": "rules:followups"}))
    assert found[("tabletop_bot_turns_waiting", ())] == 3
    assert found[("tabletop_bot_turns_failed_jobs", ())] == 1
    assert found[("tabletop_due_entries", (("set", "followups"), ("state", "overdue")))] == 1
    assert found[("tabletop_due_entries", (("set", "followups"), ("state", "waiting")))] == 2


def test_a_scrape_answers_while_redis_is_down():
    down = redis.Redis(port=free_port(), socket_connect_timeout=0.5)
    found = samples(metrics.StreamLag(down, [("s", "g")]), metrics.BotQueue(down, "bots"),
                    metrics.DueSets(down, {"followups": "rules:followups"}))
    assert not [k for k in found if k[0].startswith(("tabletop_stream_lag", "tabletop_bot_turns_waiting"))]


@pytest.mark.parametrize("path", ["/v1/things/123", "/no/such/path/456"])
def test_a_request_is_labelled_by_its_route_template_never_its_path(path):
    from flask import Flask

    app = Flask("labels")
    app.add_url_rule("/v1/things/<thing_id>", "thing", lambda thing_id: "ok")
    metrics.install(app, "labels-test")
    app.test_client().get(path)
    text = app.test_client().get("/metrics").data.decode()
    labels = [s.labels for family in text_string_to_metric_families(text) for s in family.samples
              if s.labels.get("service") == "labels-test"]
    assert labels and not [ls for ls in labels if "123" in str(ls) or "456" in str(ls)]
    route = "/v1/things/<thing_id>" if path.startswith("/v1") else metrics.UNMATCHED
    status = "2xx" if path.startswith("/v1") else "4xx"
    assert {"route": route, "method": "GET", "status": status}.items() <= next(
        ls for ls in labels if "status" in ls and ls["route"] == route).items()


def test_the_exporter_answers_metrics_and_reports_a_stuck_main_loop(monkeypatch):
    from werkzeug.test import Client

    client = Client(metrics.exporter_app([]))
    monkeypatch.setitem(metrics._loop, "last", None)
    assert client.get("/healthz").status_code == 200  # no loop (an RQ worker): healthy while it answers
    metrics.stepped()
    assert client.get("/healthz").status_code == 200
    monkeypatch.setenv("LOOP_STALE_S", "30")
    monkeypatch.setitem(metrics._loop, "last", time.monotonic() - 31)
    stuck = client.get("/healthz")
    assert stuck.status_code == 503 and "LOOP_STALE_S=30" in stuck.text
    scraped = client.get("/metrics")
    assert scraped.status_code == 200 and list(text_string_to_metric_families(scraped.text))


def test_a_taken_metrics_port_does_not_stop_the_process_and_is_bound_once_free(monkeypatch):
    """A consumer whose METRICS_PORT is taken keeps working (no exception) and exports as soon
    as the port is free again."""
    import socket

    import requests

    from tests.support.stack import wait_for

    port = free_port()
    squatter = socket.socket()
    squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    squatter.bind(("127.0.0.1", port))
    squatter.listen()
    monkeypatch.setenv("METRICS_PORT", str(port))
    monkeypatch.setenv("METRICS_ADDR", "127.0.0.1")
    try:
        assert metrics.serve([], retry_s=0.1) == port
    finally:
        squatter.close()

    def exported() -> bool:
        try:
            return requests.get(f"http://127.0.0.1:{port}/metrics", timeout=2).status_code == 200
        except requests.ConnectionError:
            return False

    wait_for(exported, 60, 0.2, "the exporter to bind the freed port")
