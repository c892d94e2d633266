"""Bot workers hold no signing key: each bot job carries a token the rules service minted for that
match and seat only."""
from __future__ import annotations

import subprocess
import sys

import pytest
import redis
import requests
from rq.job import Job

from shared import localredis
from tests.support.stack import ROOT, Client, start_stack, wait_for

pytestmark = pytest.mark.slow


def no_bot_workers(tmp_path) -> str:
    procfile = tmp_path / "Procfile.nobots"
    lines = [line for line in (ROOT / "deploy/Procfile").read_text().splitlines() if not line.startswith("bot_worker")]
    procfile.write_text("\n".join(lines) + "\n")
    return str(procfile)


def test_a_worker_without_the_auth_secret_plays_whole_matches_with_the_tokens_its_jobs_carry(tmp_path):
    server = localredis.start(tmp_path / "redis")
    stack = start_stack(server.url, tmp_path, procfile=no_bot_workers(tmp_path))
    worker = None
    try:
        host = Client.register(stack, "host")
        tables = [host.post(f"{stack.mm}/v1/tables", json={"game": "duel", "seats": [
            {"bot": "random"}, {"bot": "greedy"}]}).json()["match_id"] for _ in range(2)]
        r = redis.Redis.from_url(server.url)
        wait_for(lambda: r.llen("rq:queue:bots") >= 4, 30, what="the first bot jobs")
        jobs = [Job.fetch(job_id.decode(), connection=r) for job_id in r.lrange("rq:queue:bots", 0, -1)]
        first = next(j for j in jobs if j.args[0] == tables[0])
        match_id, seat, _version, _level, _game, _engine, token = first.args
        other = tables[1]
        # the token acts for its own seat of its own match, and nowhere else
        mine = requests.get(f"{stack.rules}/v1/matches/{match_id}/turn", headers={"Authorization": f"Bearer {token}"})
        assert mine.status_code == 200 and mine.json()["seat"] == seat
        elsewhere = requests.get(f"{stack.rules}/v1/matches/{other}/turn", headers={"Authorization": f"Bearer {token}"})
        assert elsewhere.status_code == 403
        assert requests.get(f"{stack.mm}/v1/queue/x", headers={"Authorization": f"Bearer {token}"}).status_code == 403

        env = {k: v for k, v in stack.env.items() if k != "AUTH_SECRET"}
        worker = subprocess.Popen([sys.executable, "-m", "services.bots"], cwd=ROOT, env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for match_id in tables:
            wait_for(lambda: requests.get(f"{stack.rules}/v1/matches/{match_id}").json()["status"] == "finished",
                     120, 0.2, f"bot match {match_id} to finish")
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(30)
        stack.stop()
        server.stop()


@pytest.mark.parametrize("after_s, valid", [(0, True), (599, True), (601, False)])
def test_a_bot_token_expires(after_s, valid):
    from shared.auth import Tokens

    now = [1_000_000.0]
    tokens = Tokens("secret", clock=lambda: now[0])
    token = tokens.for_bot("m1", 1, "greedy", ttl_s=600)
    now[0] += after_s
    who = tokens.verify(token)
    assert (who is not None) == valid
    if valid:
        assert (who.bot_match, who.bot_seat) == ("m1", 1)


def test_a_bot_token_without_an_expiry_is_refused():
    from itsdangerous import URLSafeSerializer

    from shared.auth import Tokens

    legacy = URLSafeSerializer("secret", salt="bearer-v1").dumps({"b": "greedy", "m": "m1", "s": 1})
    assert Tokens("secret").verify(legacy) is None
