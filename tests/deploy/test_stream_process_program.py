"""The launcher runs deploy/Procfile's ``rules_streams`` beside the rules workers with a socket in
the data directory; with ``STREAM_HANDOFF_SOCKET`` set empty, or a Procfile without it, there is
no stream process and the workers serve their streams themselves (no Redis needed)."""
from __future__ import annotations

import pytest

from deploy import run
from tests.deploy.test_viewer_cors import launcher_env


def test_rule_streams_that_hold_make_run_starts_the_stream_process_with_a_socket_in_the_data_directory(tmp_path):
    env, programs, said = run.prepare(launcher_env(tmp_path))
    assert programs["rules_streams"] == "python -m services.rules.stream_server"
    assert env["STREAM_HANDOFF_SOCKET"] == str(tmp_path / "rules-streams.sock")
    assert "rules_streams=1" in env["STACK_REPLICAS"].split(",")
    assert any("rules_streams" in line for line in said)


def test_rule_streams_that_hold_an_empty_socket_leaves_the_streams_in_the_workers(tmp_path):
    env, programs, _said = run.prepare(launcher_env(tmp_path, STREAM_HANDOFF_SOCKET=""))
    assert "rules_streams" not in programs and "rules" in programs
    assert env["STREAM_HANDOFF_SOCKET"] == ""
    assert "rules_streams" not in env["STACK_REPLICAS"]
    assert "program:rules_streams" not in run.supervisor_config(programs, env, tmp_path)


def test_rule_streams_that_hold_a_procfile_without_the_stream_process_sets_no_socket(tmp_path):
    procfile = tmp_path / "Procfile"
    procfile.write_text("\n".join(line for line in run.PROCFILE.read_text().splitlines()
                                  if not line.startswith("rules_streams")) + "\n")
    env, programs, _said = run.prepare(launcher_env(tmp_path, PROCFILE=str(procfile)))
    assert "rules_streams" not in programs and env["STREAM_HANDOFF_SOCKET"] == ""


def test_rule_streams_that_hold_the_stream_process_runs_once(tmp_path):
    with pytest.raises(run.StartError, match="REPLICAS_RULES_STREAMS"):
        run.prepare(launcher_env(tmp_path, REPLICAS_RULES_STREAMS="2"))
