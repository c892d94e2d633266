"""The Python client (``tabletop_client``) against the real stack: typed calls for the endpoints,
problem documents raised as ``ApiProblem``, a move whose answer is lost retried under one
Idempotency-Key and applied once, SSE iteration with resumption, the index paged, the export
downloaded and verified (also by ``python -m shared.verify --download``)."""
import os
import subprocess
import sys

import pytest
import requests
from requests.adapters import HTTPAdapter

from shared.verify import verify_file
from tabletop_client import ApiProblem, Tabletop
from tests.support.stack import ROOT, wait_for


def bot_match(api: Tabletop) -> str:
    match_id = api.create_table("duel", [{"bot": "random"}, {"bot": "greedy"}])["match_id"]
    wait_for(lambda: api.match(match_id)["status"] == "finished", 120, what="the bots to finish")
    return match_id


def alone_to_act(api: Tabletop, match_id: str) -> None:
    """Until the bot has made its simultaneous decision, so that the version holds still for ours."""
    wait_for(lambda: api.match(match_id)["to_act"] == [0], 60, what="the bot's decision")


@pytest.fixture(scope="module")
def finished_match(stack):
    api = stack.api()
    api.register("client-host")
    return bot_match(api)


def test_a_match_played_through_the_client(stack):
    api = stack.api()
    me = api.register("ada")
    assert api.token == me.token and me.name == "ada"
    assert "duel" in {g["id"] for g in api.games()}
    match_id = api.create_table("duel", [{"player_id": me.player_id}, {"bot": "random"}])["match_id"]
    summary = api.match(match_id)
    assert summary["status"] == "active" and summary["seats"][0]["player_id"] == me.player_id
    view = api.view(match_id)
    assert view["seat"] == 0 and isinstance(view["state"]["hands"]["0"], list)
    alone_to_act(api, match_id)
    legal = api.legal_moves(match_id)
    done = api.move(match_id, legal["moves"][0], legal["version"])
    assert done["version"] > legal["version"] and done["events"][0]["type"] == "committed"
    assert api.view(match_id, at=1)["version"] == 1
    assert [e["seq"] for e in api.events(match_id, after=0, limit=2)["events"]] == [1, 2]


def test_problems_are_raised_with_their_type_status_and_detail(stack):
    api = stack.api()
    api.register("bea")
    match_id = api.create_table("duel", [{"bot": "random"}, {"bot": "random"}])["match_id"]
    with pytest.raises(ApiProblem) as err:
        api.match("no-such-match")
    assert err.value.status == 404 and err.value.type.endswith("no-such-match") and err.value.detail
    with pytest.raises(ApiProblem) as err:
        stack.api().legal_moves(match_id)  # no token
    assert err.value.status == 401
    with pytest.raises(ApiProblem) as err:
        api.create_table("chess", [{"bot": "random"}, {"bot": "random"}])
    assert err.value.status == 422 and "chess" in err.value.detail
    with pytest.raises(ApiProblem) as err:
        api.matches(status="sleeping")
    assert err.value.status == 422 and err.value.body["errors"]


def test_a_stale_move_is_a_problem_marked_stale(stack):
    api = stack.api()
    me = api.register("cy")
    match_id = api.create_table("duel", [{"player_id": me.player_id}, {"bot": "random"}])["match_id"]
    alone_to_act(api, match_id)
    legal = api.legal_moves(match_id)
    api.move(match_id, legal["moves"][0], legal["version"])
    with pytest.raises(ApiProblem) as err:
        api.move(match_id, legal["moves"][1], legal["version"])
    assert err.value.stale and err.value.body["current_version"] > legal["version"]


class LoseFirstAnswer(HTTPAdapter):
    """Delivers the first POST to the server, then loses its answer (as a dropped connection would)."""

    def __init__(self):
        super().__init__()
        self.posts = 0

    def send(self, request, **kw):
        resp = super().send(request, **kw)
        if request.method == "POST":
            self.posts += 1
            if self.posts == 1:
                raise requests.ConnectionError("the answer was lost")
        return resp


def test_a_move_whose_answer_is_lost_is_retried_and_applied_once(stack):
    session = requests.Session()
    api = Tabletop(stack.mm, stack.rules, stack.scoring, session=session, backoff=0.01)
    me = api.register("dee")
    match_id = api.create_table("duel", [{"player_id": me.player_id}, {"bot": "random"}])["match_id"]
    alone_to_act(api, match_id)
    legal = api.legal_moves(match_id)
    lossy = LoseFirstAnswer()
    session.mount(stack.rules, lossy)
    done = api.move(match_id, legal["moves"][0], legal["version"])
    assert lossy.posts == 2  # the first attempt reached the server, its answer did not come back
    mine = [e for e in api.all_events(match_id) if e["type"] == "committed" and e["data"]["seat"] == 0]
    assert len(mine) == 1 and done["events"][0]["seq"] == mine[0]["seq"]


def test_the_event_stream_iterates_and_resumes(stack, finished_match):
    api = stack.api()
    everything = list(api.stream(finished_match))
    assert [e["seq"] for e in everything] == list(range(1, len(everything) + 1))
    assert everything[-1]["type"] == "match.ended" and everything == list(api.all_events(finished_match))
    resumed = list(api.stream(finished_match, after=3))
    assert [e["seq"] for e in resumed] == list(range(4, len(everything) + 1))


def test_the_index_pages_through_the_client(stack, finished_match):
    api = stack.api()
    api.register("pager")
    for _ in range(2):
        bot_match(api)
    pages = api.matches(limit=1)
    assert len(pages["matches"]) == 1 and pages["next_cursor"]
    every = list(api.iter_matches(limit=1))
    assert len(every) >= 3 and len({m["match_id"] for m in every}) == len(every)
    assert finished_match in {m["match_id"] for m in every}
    assert [m["created_at"] for m in every] == sorted((m["created_at"] for m in every), reverse=True)
    assert api.player_matches("nobody")["matches"] == []


def test_the_export_downloads_and_verifies(stack, finished_match, tmp_path):
    api = stack.api()
    path = api.download_export(finished_match, tmp_path / "m.ndjson")
    report = verify_file(path, head_hash=api.match(finished_match)["head_hash"])
    assert report.ok, report.lines()
    out = subprocess.run([sys.executable, "-m", "shared.verify", "--download", stack.rules, finished_match,
                          str(tmp_path / "cli.ndjson")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "GENUINE" in out.stdout, out.stdout + out.stderr
    missing = subprocess.run([sys.executable, "-m", "shared.verify", "--download", stack.rules, "no-such-match",
                              str(tmp_path / "none.ndjson")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "404" in missing.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULES_")}
    no_url = subprocess.run([sys.executable, "-m", "shared.verify", "--download", finished_match, "--json",
                             str(tmp_path / "env.ndjson")], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env=dict(env, RULES_URL=stack.rules))  # RULES_URL optional: the environment's
    assert no_url.returncode == 0 and (tmp_path / "env.ndjson").exists(), no_url.stdout + no_url.stderr
    assert f"verify --download: rules {stack.rules} (RULES_URL)" in no_url.stderr


def test_scoring_and_service_calls(stack, finished_match):
    api = stack.api()
    assert all(api.ready(s) for s in ("matchmaking", "rules", "scoring"))
    assert "/v1/matches/{match_id}/export" in api.openapi("rules")["paths"]
    result = wait_for(lambda: _result_or_none(api, finished_match), 60, what="the scored result")
    assert result["match_id"] == finished_match and len(result["standings"]) == 2
    assert api.leaderboard("duel", limit=5)["game"] == "duel"
    assert "ratings" in api.ratings("bot:random")
    assert api.audit(finished_match)["chance_valid"] is True


def _result_or_none(api, match_id):
    try:
        return api.result(match_id)
    except ApiProblem as err:
        if err.status == 404:
            return None
        raise


def test_invitations_turns_and_token_rotation_through_the_client(stack):
    host, guest = stack.api(), stack.api()
    me = host.register("client-inviter")
    invited = guest.register("client-guest")
    table = host.create_table("duel", [{"player_id": me.player_id}, {"player_id": invited.player_id}])
    assert table["status"] == "open" and "match_id" not in table
    assert [t["table_id"] for t in guest.tables(invited="me")] == [table["table_id"]]
    guest.decline_table(table["table_id"])
    assert guest.tables(invited="me") == []
    host.cancel_table(table["table_id"])
    with pytest.raises(ApiProblem) as cancelled:
        guest.join_table(table["table_id"])
    assert cancelled.value.status in (404, 409)

    match_id = host.create_table("duel", [{"player_id": me.player_id}, {"bot": "random"}])["match_id"]
    alone_to_act(host, match_id)
    turn = host.turn(match_id)
    assert turn["seat"] == 0 and turn["version"] == host.match(match_id)["version"]
    assert turn["moves"] == host.legal_moves(match_id)["moves"] and turn["state"]["hands"]["0"]

    old = guest.token
    new = guest.rotate_token()
    assert new != old and guest.games()
    with pytest.raises(ApiProblem) as revoked:
        guest.as_token(old).tables(invited="me")
    assert revoked.value.status == 401

