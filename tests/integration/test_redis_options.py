"""``shared.redisoptions``: the pooled connection's readiness check, asked before every command,
answers "nothing to read" without a greenlet switch under gevent, and still finds what redis-py's
own check finds — a reply left on the connection, a connection the server closed — so the pool
never hands out a dirty connection. Against the session's real Redis server; the gevent part in a
child process of its own (monkey-patching this one would patch the whole test session)."""
from __future__ import annotations

import json
import select
import subprocess
import sys
import textwrap

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from shared import limits
from shared.config import Config, queue_client, store_client
from shared.redisoptions import HiredisParser, connection_options

# In a gevent-patched child: greenlet switches made by one idle connection's readiness check, with
# redis-py's parser and with ours (``greenlet.settrace`` sees every switch, the hub's included).
_SWITCHES = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()
    import json, sys
    import greenlet, redis
    from shared.redisoptions import connection_options

    def switches(**options):
        client = redis.Redis.from_url(sys.argv[1], **options)
        client.ping()
        conn = client.connection_pool.get_connection()
        seen = []
        previous = greenlet.settrace(lambda event, args: seen.append(event))
        try:
            ready = conn.can_read()
        finally:
            greenlet.settrace(previous)
        client.connection_pool.release(conn)
        return {"ready": ready, "switches": len(seen)}

    print(json.dumps({"redis-py": switches(), "ours": switches(**connection_options())}))
""")


def test_the_readiness_check_of_an_idle_connection_makes_no_greenlet_switch_under_gevent(redis_url):
    out = subprocess.run([sys.executable, "-c", _SWITCHES, redis_url], capture_output=True, text=True, timeout=60,
                         check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert found["redis-py"]["ready"] is False and found["ours"]["ready"] is False
    assert found["redis-py"]["switches"] > 0  # what the parser saves: gevent's poll goes through the hub
    assert found["ours"]["switches"] == 0


def _client(redis_url: str) -> redis.Redis:
    return redis.Redis.from_url(redis_url, **connection_options())


def test_a_reply_left_on_a_pooled_connection_is_never_read_as_the_next_command_s(redis_url):
    client = _client(redis_url)
    client.set("k", "v")
    conn = client.connection_pool.get_connection()
    conn.send_command("ECHO", "left over")  # its reply is never read
    assert select.select([conn._sock], [], [], 30)[0]  # the reply has arrived
    assert conn.can_read() is True
    client.connection_pool.release(conn)
    assert client.get("k") == b"v"  # the pool saw the reply and reconnected


def test_a_connection_the_server_closed_is_replaced_before_the_next_command(redis_url):
    # no retries: the next command must work at its first try
    client = redis.Redis.from_url(redis_url, retry=Retry(NoBackoff(), 0), **connection_options())
    admin = redis.Redis.from_url(redis_url)
    client.client_setname("doomed")
    conn = client.connection_pool.get_connection()
    doomed = next(c["id"] for c in admin.client_list() if c["name"] == "doomed")
    client.connection_pool.release(conn)
    admin.client_kill_filter(_id=doomed)
    assert select.select([conn._sock], [], [], 30)[0]  # the close has reached the socket
    with pytest.raises(redis.ConnectionError):  # the check tells a closed socket from an idle one
        conn.can_read()
    assert client.ping() is True
    assert "doomed" not in [c["name"] for c in admin.client_list()]
    admin.close()


def test_every_client_the_project_makes_parses_with_it(redis_url):
    config = Config(redis_url=redis_url, queue_redis_url=redis_url)
    bounded = store_client(config, max_connections=4, wait_s=1)
    pools = [c.connection_pool for c in (store_client(config), bounded, queue_client(config))]
    pools.append(limits._pool_options(redis_url)["connection_pool"])
    for pool in pools:
        assert pool.connection_kwargs["parser_class"] is HiredisParser
        assert not pool.maint_notifications_enabled()  # None or False: the pool acts on the check
    assert isinstance(bounded.connection_pool.get_connection()._parser, HiredisParser)
