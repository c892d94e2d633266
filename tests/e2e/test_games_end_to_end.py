"""Every game, end to end over HTTP: a table with a client-driven seat and bot seats finishes,
scoring returns its result and the audit is all true. Arkon also runs through ``make demo``'s
script, exactly as a user would."""
import random
import subprocess
import sys

import pytest
import requests

from shared.engine import registry
from tests.support.stack import ROOT, Client, wait_for

REAL_GAMES = ["arkon", "fate-of-akalon", "battlefields-of-olympus", "rise-of-tribes", "fellowships-of-fate"]
SEATS = {"arkon": 3, "fate-of-akalon": 3, "battlefields-of-olympus": 2, "rise-of-tribes": 3, "fellowships-of-fate": 3}


def play_random_until_finished(client, match_id, seat, rnd, timeout=300):
    base = f"{client.stack.rules}/v1/matches/{match_id}"

    def step():
        legal = client.get(f"{base}/legal-moves").json()
        if legal["moves"]:
            r = client.post(f"{base}/moves", json={"move": rnd.choice(legal["moves"]),
                                                   "expected_version": legal["version"]})
            assert r.status_code in (201, 409), r.text
            return None
        m = client.get(base).json()
        return m if m["status"] != "active" else None

    return wait_for(step, timeout=timeout, interval=0.01, what=f"{match_id} to finish")


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_table_with_bots_finishes_is_scored_and_audits_clean(stack, game_id):
    if game_id not in {g.id for g in registry.all_games()}:
        pytest.fail(f"{game_id} is not registered")
    rnd = random.Random(game_id)
    me = Client.register(stack, f"player-{game_id}")
    bots = ["greedy", "random", "greedy"][: SEATS[game_id] - 1]
    r = me.post(f"{stack.mm}/v1/tables", json={"game": game_id, "seats": [{"player_id": me.player_id}] +
                                               [{"bot": b} for b in bots]})
    assert r.status_code == 201, r.text
    match_id = r.json()["match_id"]
    final = play_random_until_finished(me, match_id, 0, rnd)
    assert final["status"] == "finished" and len(final["result"]["ranks"]) == SEATS[game_id]
    result = wait_for(lambda: (lambda x: x.status_code == 200 and x.json())(
        requests.get(f"{stack.scoring}/v1/results/{match_id}")), 60, what="the scored result")
    assert [row["rank"] for row in result["standings"]] == final["result"]["ranks"]
    audit = requests.get(f"{stack.rules}/v1/matches/{match_id}/audit").json()
    assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"], audit


def test_make_demo_plays_a_full_arkon_match(stack):
    out = subprocess.run([sys.executable, "-m", "scripts.demo", "--game", "arkon", "--seed", "1",
                          "--matchmaking", stack.mm, "--rules", stack.rules, "--scoring", stack.scoring],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert '"chance_valid": true' in out.stdout and "standings" in out.stdout and "scoring result" in out.stdout
