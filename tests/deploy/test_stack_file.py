"""``make run`` records where its stack is (``$DATA_DIR/stack.json``, ``shared.stackfile``) and the
commands that work on a running stack find it there: the environment always wins, a record whose
launcher is gone is ignored (and said), the defaults otherwise.

Real files and real processes throughout: the commands run as subprocesses (``make compact``'s
``services.rules.compact`` on a real Redis, ``make demo``'s script, the verifier's download), and
the launcher itself writes and removes the file around a small supervised Procfile."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys

import pytest
import redis

from shared import stackfile
from shared.eventstore import EventStore
from shared.localredis import free_port
from shared.matches import Matches
from tests.support.playout import play_random
from tests.support.stack import ROOT, start_stack, wait_for

STACK_VARS = ("REDIS_URL", "REDIS_CLUSTER_NODES", "QUEUE_REDIS_URL", "MATCHMAKING_URL", "RULES_URL", "SCORING_URL",
              "MATCHMAKING_PORT", "RULES_PORT", "SCORING_PORT", "EMBEDDED_REDIS_PORT",
              "EMBEDDED_QUEUE_REDIS_PORT")


def clean_env(data_dir, **extra) -> dict:
    """This process's environment without anything naming a stack, with ``DATA_DIR``."""
    env = {k: v for k, v in os.environ.items() if k not in STACK_VARS}
    env.update(DATA_DIR=str(data_dir), PYTHONPATH=str(ROOT), **extra)
    return env


def launcher_env(redis_url="redis://127.0.0.1:6380/0", ports=(9001, 9002, 9003), **more) -> dict:
    """An environment as ``deploy.run.prepare`` leaves it."""
    env = {"REDIS_URL": redis_url, **more}
    for name, port in zip(stackfile.SERVICES, ports):
        env[f"{name}_PORT"] = str(port)
        env[f"{name}_URL"] = f"http://127.0.0.1:{port}"
    return env


def record_running(data_dir, **kw) -> dict:
    """A record of a stack whose launcher is this (running) test process."""
    content = stackfile.record(launcher_env(**kw), pid=os.getpid(), embedded_redis_port=6380)
    stackfile.write(data_dir / "stack.json", content)
    return content


def exited_process() -> tuple[int, str]:
    """The pid and start time of a real process that has exited."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    wait_for(lambda: stackfile.process_start(proc.pid), 10, 0.01, "the process to start")
    started = stackfile.process_start(proc.pid)
    proc.kill()
    proc.wait()
    return proc.pid, started


# ----- the file ------------------------------------------------------------------------------------
def test_the_record_is_written_atomically_readable_by_its_owner_only_and_removed_only_by_its_launcher(tmp_path):
    content = record_running(tmp_path, redis_url="redis://:secret@127.0.0.1:6380/0")
    target = tmp_path / "stack.json"
    assert json.loads(target.read_text()) == content
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["stack.json"]  # no temporary file left
    assert content["env"]["REDIS_URL"] == "redis://:secret@127.0.0.1:6380/0"
    assert content["ports"] == {"matchmaking": 9001, "rules": 9002, "scoring": 9003, "embedded_redis": 6380}
    assert stackfile.running(content)
    assert not stackfile.remove(target, os.getpid() + 1) and target.exists()  # another launcher's record
    assert stackfile.remove(target, os.getpid()) and not target.exists()


def test_a_cluster_and_a_queue_redis_are_recorded():
    content = stackfile.record(launcher_env(REDIS_CLUSTER_NODES="10.0.0.1:7000,10.0.0.2:7000",
                                            QUEUE_REDIS_URL="redis://10.0.0.3:6379/0"), pid=os.getpid())
    assert content["env"]["REDIS_CLUSTER_NODES"] == "10.0.0.1:7000,10.0.0.2:7000"
    assert content["env"]["QUEUE_REDIS_URL"] == "redis://10.0.0.3:6379/0" and "REDIS_URL" not in content["env"]
    assert content["embedded_redis"] is False


# ----- resolution ----------------------------------------------------------------------------------
def test_a_running_recorded_stack_gives_every_variable_the_environment_lacks(tmp_path):
    record_running(tmp_path, QUEUE_REDIS_URL="redis://127.0.0.1:6381/0")
    found = stackfile.resolve(clean_env(tmp_path))
    assert found.env == {"REDIS_URL": "redis://127.0.0.1:6380/0", "QUEUE_REDIS_URL": "redis://127.0.0.1:6381/0",
                         "MATCHMAKING_URL": "http://127.0.0.1:9001", "RULES_URL": "http://127.0.0.1:9002",
                         "SCORING_URL": "http://127.0.0.1:9003"}
    assert found.notes == [] and f"launcher pid {os.getpid()}" in found.store


def test_the_environment_wins_and_the_store_variables_go_together(tmp_path):
    record_running(tmp_path, QUEUE_REDIS_URL="redis://127.0.0.1:6381/0")
    only_queue = stackfile.resolve(clean_env(tmp_path, QUEUE_REDIS_URL="redis://elsewhere:6379/0"))
    assert not {"REDIS_URL", "QUEUE_REDIS_URL", "REDIS_CLUSTER_NODES"} & set(only_queue.env)
    assert only_queue.store == "from the environment"
    cluster = stackfile.resolve(clean_env(tmp_path, REDIS_CLUSTER_NODES="127.0.0.1:7000"))
    assert "REDIS_URL" not in cluster.env
    services = stackfile.resolve(clean_env(tmp_path, RULES_URL="http://rules.example:80", RULES_PORT="7002",
                                           SCORING_PORT="7003"))
    assert "RULES_URL" not in services.env  # given: left as it is
    assert services.env["SCORING_URL"] == "http://127.0.0.1:7003"  # the port make run takes
    assert services.env["MATCHMAKING_URL"] == "http://127.0.0.1:9001"  # the record
    assert services.services == {"MATCHMAKING": services.services["MATCHMAKING"], "RULES": "RULES_URL",
                                 "SCORING": "SCORING_PORT"}


def test_without_a_record_the_defaults(tmp_path):
    found = stackfile.resolve(clean_env(tmp_path))
    assert found.env == {"MATCHMAKING_URL": "http://127.0.0.1:8001", "RULES_URL": "http://127.0.0.1:8002",
                         "SCORING_URL": "http://127.0.0.1:8003"}
    assert found.notes == [] and found.store.startswith("the default")


def test_a_record_whose_launcher_exited_or_whose_pid_is_another_process_is_ignored_and_said(tmp_path):
    pid, started = exited_process()
    content = stackfile.record(launcher_env(), pid=pid)
    content["pid_start"] = started
    stackfile.write(tmp_path / "stack.json", content)
    found = stackfile.resolve(clean_env(tmp_path))
    assert "REDIS_URL" not in found.env and found.env["RULES_URL"] == "http://127.0.0.1:8002"
    assert found.notes == [f"{tmp_path / 'stack.json'} records a stack that is not running (launcher pid {pid}, "
                           f"started {content['started_at']}, has exited); ignoring it"]
    content.update(pid=os.getpid(), pid_start="1")  # a live pid, but not the process that wrote the record
    stackfile.write(tmp_path / "stack.json", content)
    assert not stackfile.running(content) and "not running" in stackfile.resolve(clean_env(tmp_path)).notes[0]
    content.update(pid_start=stackfile.process_start(os.getpid()), status="stopped")
    assert not stackfile.running(content)


def test_a_file_that_is_not_a_record_is_ignored_and_said(tmp_path):
    (tmp_path / "stack.json").write_text("{not json")
    found = stackfile.resolve(clean_env(tmp_path))
    assert "REDIS_URL" not in found.env and "is not a stack record" in found.notes[0]
    (tmp_path / "stack.json").write_text('{"pid": "x"}')
    assert "is not a stack record" in stackfile.resolve(clean_env(tmp_path)).notes[0]


def test_a_password_is_not_printed():
    assert stackfile.redact("redis://:secret@host:6379/0") == "redis://:***@host:6379/0"
    assert stackfile.redact("redis://user:secret@host:6379/0") == "redis://user:***@host:6379/0"
    assert stackfile.redact("redis://host:6379/0") == "redis://host:6379/0"


# ----- the commands, as processes ------------------------------------------------------------------
def run(args, env, timeout=120):
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_make_compact_works_on_the_recorded_stacks_redis(tmp_path, r, redis_url):
    play_random(Matches(EventStore(r)), "recorded", "duel", 2, seed=3)
    record_running(tmp_path, redis_url=redis_url)
    out = run(["services.rules.compact"], clean_env(tmp_path))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 compacted" in out.stdout
    assert f"make compact: on Redis {redis_url} (recorded by `make run` in {tmp_path / 'stack.json'}" in out.stderr
    assert r.hget("{m:recorded}:meta", "compacted") is not None


def test_make_compact_ignores_a_stale_record_and_says_so_and_an_explicit_redis_url_wins(tmp_path, r, redis_url):
    pid, started = exited_process()
    content = stackfile.record(launcher_env(redis_url="redis://127.0.0.1:1/0"), pid=pid)
    content["pid_start"] = started
    stackfile.write(tmp_path / "stack.json", content)
    out = run(["services.rules.compact"], clean_env(tmp_path, REDIS_URL=redis_url))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "records a stack that is not running" in out.stderr and "ignoring it" in out.stderr
    assert f"on Redis {redis_url} (from the environment)" in out.stderr


def test_make_migrate_status_and_reindex_and_rebuild_scores_use_the_record(tmp_path, redis_url):
    record_running(tmp_path, redis_url=redis_url)
    for args, command in ((["deploy.migrate", "--status"], "make migrate"),
                          (["services.rules.indexer", "--rebuild"], "make reindex-matches"),
                          (["services.scoring.rebuild"], "make rebuild-scores")):
        out = run(args, clean_env(tmp_path))
        assert out.returncode == 0, out.stdout + out.stderr
        assert f"{command}: on Redis {redis_url} (recorded by `make run`" in out.stderr, out.stderr


def test_make_demo_and_the_verifiers_download_go_to_the_recorded_services(tmp_path):
    dead = free_port()  # nothing listens there: the commands say where they went and fail cleanly
    record_running(tmp_path, ports=(dead, dead, dead))
    demo = run(["scripts.demo"], clean_env(tmp_path))
    assert demo.returncode == 2, demo.stdout + demo.stderr
    assert (f"make demo: matchmaking http://127.0.0.1:{dead}, rules http://127.0.0.1:{dead}, scoring "
            f"http://127.0.0.1:{dead} (recorded by `make run`") in demo.stderr
    assert f"no matchmaking service answers at http://127.0.0.1:{dead}" in demo.stderr
    ported = run(["scripts.demo"], clean_env(tmp_path, MATCHMAKING_PORT=str(dead + 1)))
    assert f"matchmaking http://127.0.0.1:{dead + 1} (MATCHMAKING_PORT)" in ported.stderr
    download = run(["shared.verify", "--download", "some-match", str(tmp_path / "m.ndjson")], clean_env(tmp_path))
    assert download.returncode == 2, download.stdout + download.stderr
    assert f"rules http://127.0.0.1:{dead} (recorded by `make run`" in download.stderr
    assert "cannot download the export of some-match" in download.stderr


# ----- the launcher writes and removes it ----------------------------------------------------------
@pytest.fixture
def small_stack(tmp_path):
    """``deploy/run.py`` with its embedded Redis and one supervised program (cheap to start)."""
    procfile = tmp_path / "Procfile"
    procfile.write_text('sleeper: python -c "import time; time.sleep(3600)"\n')
    stack = start_stack(None, tmp_path, str(procfile), wait=False)
    target = tmp_path / "data" / "stack.json"
    try:
        wait_for(lambda: target.exists() or stack.process.poll() is not None, 60, 0.1, "the stack file")
        assert target.exists(), stack.log()
        yield stack, target
    finally:
        stack.stop()


def test_the_launcher_records_its_stack_and_the_commands_find_its_embedded_redis(small_stack):
    stack, target = small_stack
    content = json.loads(target.read_text())
    port, queue_port = int(stack.env["EMBEDDED_REDIS_PORT"]), int(stack.env["EMBEDDED_QUEUE_REDIS_PORT"])
    assert content["pid"] == stack.process.pid and content["status"] == "running" and stackfile.running(content)
    assert content["env"] == {"REDIS_URL": f"redis://127.0.0.1:{port}/0",
                              "QUEUE_REDIS_URL": f"redis://127.0.0.1:{queue_port}/0", "MATCHMAKING_URL": stack.mm,
                              "RULES_URL": stack.rules, "SCORING_URL": stack.scoring}
    assert content["ports"]["embedded_redis"] == port and content["embedded_redis"] is True
    assert content["ports"]["embedded_queue_redis"] == queue_port
    # the queue Redis runs deploy/redis-queue.conf: a fsync a second, not one a write
    wait_for(lambda: _pings(redis.Redis(port=queue_port)), 30, 0.1, "the embedded queue Redis")
    assert redis.Redis(port=queue_port).config_get("appendfsync") == {"appendfsync": "everysec"}
    assert redis.Redis(port=queue_port).config_get("appendonly") == {"appendonly": "yes"}
    wait_for(lambda: _pings(redis.Redis(port=port)), 30, 0.1, "the embedded Redis")
    assert redis.Redis(port=port).config_get("appendfsync") == {"appendfsync": "always"}
    assert content["ports"]["rules"] == int(stack.env["RULES_PORT"])
    wait_for(lambda: _pings(redis.Redis(port=port)), 30, 0.1, "the embedded Redis")
    out = run(["services.rules.compact"], clean_env(target.parent))
    assert out.returncode == 0 and "nothing to compact" in out.stdout, out.stdout + out.stderr
    assert (f"on Redis redis://127.0.0.1:{port}/0, queues on redis://127.0.0.1:{queue_port}/0 (recorded by `make run`"
            in out.stderr)
    assert "stack.json" in stack.log()  # the launcher says where it recorded the stack
    stack.process.send_signal(signal.SIGTERM)
    assert stack.process.wait(30) == 0
    assert not target.exists()  # removed at a clean exit


def test_a_launcher_killed_with_sigkill_leaves_a_record_the_commands_ignore(small_stack):
    stack, target = small_stack
    stack.process.kill()
    stack.process.wait(30)
    wait_for(lambda: not stack.pids(), 30, 0.2, "the stack to stop")
    assert target.exists()
    found = stackfile.resolve(clean_env(target.parent))
    assert "REDIS_URL" not in found.env and "not running" in found.notes[0]


def test_a_second_launcher_that_cannot_start_leaves_the_first_ones_record(small_stack, tmp_path):
    stack, target = small_stack
    wait_for(lambda: _pings(redis.Redis(port=int(stack.env["EMBEDDED_REDIS_PORT"]))), 30, 0.1, "the embedded Redis")
    before = target.read_text()
    second = subprocess.run([sys.executable, "-m", "deploy.run"], cwd=ROOT, env=dict(stack.env, STACK_ID="second"),
                            capture_output=True, text=True, timeout=60)
    assert second.returncode == 2 and "already in use" in second.stderr
    assert target.read_text() == before


def _pings(client) -> bool:
    try:
        return client.ping()
    except redis.ConnectionError:
        return False
    finally:
        client.close()


def test_a_test_stack_killed_leaves_no_process_of_it_behind(small_stack):
    """``Stack.kill`` (the fixtures' teardown, tests/support/stack.py): the launcher, its supervised
    program and its embedded Redis servers are all gone when it returns."""
    stack, _target = small_stack
    port = int(stack.env["EMBEDDED_REDIS_PORT"])
    wait_for(lambda: _pings(redis.Redis(port=port)), 30, 0.1, "the embedded Redis")
    wait_for(lambda: len(stack.pids()) >= 4, 30, 0.1, "launcher, supervisor, program and Redis servers")
    stack.kill()
    assert stack.process.returncode == -signal.SIGKILL
    assert stack.pids() == set()
