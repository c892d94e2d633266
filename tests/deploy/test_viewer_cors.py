"""The launcher lets the viewer served by the rules service call matchmaking from the browser:
with ``CORS_ORIGINS`` unset it allows the rules service's own origins; set (even empty), it is
the operator's choice and stays as given (no Redis needed)."""
from __future__ import annotations

from deploy import run
from shared.localredis import free_port


def launcher_env(tmp_path, **extra) -> dict:
    env = {"AUTH_SECRET": "s", "DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "REDIS_URL": "redis://127.0.0.1:1/0",
           "MATCHMAKING_PORT": str(free_port()), "RULES_PORT": str(free_port()), "SCORING_PORT": str(free_port())}
    env.update(extra)
    return env


def test_unset_cors_origins_become_the_viewers_origins(tmp_path):
    env, _programs, said = run.prepare(launcher_env(tmp_path))
    port = env["RULES_PORT"]
    assert env["CORS_ORIGINS"] == f"http://127.0.0.1:{port},http://localhost:{port}"
    assert any("CORS_ORIGINS" in line for line in said)


def test_cors_origins_given_by_the_operator_are_kept(tmp_path):
    for given in ("https://play.example.org", ""):
        env, _programs, _said = run.prepare(launcher_env(tmp_path, CORS_ORIGINS=given))
        assert env["CORS_ORIGINS"] == given
