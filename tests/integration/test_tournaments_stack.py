"""Tournaments through the real stack (deploy/Procfile on its own Redis; duel, short options, bots):
a 3-round Swiss of 7 with a human played by a scripted client, a round robin of 4, a 3-player Swiss
of 6, a short arena, a withdrawal, and each export re-verified offline by scripts/verify."""
from __future__ import annotations

import itertools
import json
import subprocess

import pytest

from shared import localredis
from tests.support.stack import ROOT, Client, start_stack, wait_for
from tests.support.tournaments import create, enter, play_human_turns, tournament


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("tournaments")
    server = localredis.start(workdir / "redis")
    s = start_stack(server.url, workdir, MAX_OPEN_TOURNAMENTS="10")
    yield s
    s.kill()
    server.stop()


def run_to_end(client: Client, tid: str, humans=(), timeout: float = 300) -> dict:
    def done():
        t = tournament(client, tid)
        for human, entrant_id in humans:
            play_human_turns(human, entrant_id, t)
        return t if t["status"] == "finished" else None

    return wait_for(done, timeout, 0.3, "the tournament to finish")


def pairs_of(t: dict) -> list[frozenset]:
    return [frozenset(p) for rnd in t["rounds"] for m in rnd["matches"] for p in itertools.combinations(m["entrants"], 2)]


def export_and_verify(stack, client: Client, tid: str, tmp_path) -> list[dict]:
    r = client.get(f"{stack.mm}/v1/tournaments/{tid}/export")
    assert r.status_code == 200, r.text
    path = tmp_path / f"t-{tid}.ndjson"
    path.write_bytes(r.content)
    lines = [json.loads(x) for x in r.content.splitlines() if x.strip()]
    ok = subprocess.run([str(ROOT / "scripts/verify"), "--json", str(path)], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    report = json.loads(ok.stdout)
    assert report["verdict"] == "genuine"
    assert report["standings"] == tournament(client, tid)["standings"]
    return lines


def test_a_three_round_swiss_of_seven_with_a_human_and_its_export(stack, tmp_path):
    org = Client.register(stack, "swiss-org")
    t = create(org, format="swiss", players_per_match=2, rounds=3)
    me = enter(org, t["tournament_id"])
    bots = [enter(org, t["tournament_id"], bot="random" if i % 2 else "greedy") for i in range(6)]
    assert len({b["entrant_id"] for b in bots}) == 6  # each bot entry is a distinct entrant
    r = org.post(f"{stack.mm}/v1/tournaments/{t['tournament_id']}/start")
    assert r.status_code == 200, r.text
    final = run_to_end(org, t["tournament_id"], humans=[(org, me["entrant_id"])])
    assert len(final["rounds"]) == 3
    for rnd in final["rounds"]:
        assert len(rnd["matches"]) == 3 and len(rnd["byes"]) == 1
    byes = [b for rnd in final["rounds"] for b in rnd["byes"]]
    assert len(set(byes)) == 3  # one bye per entrant at most
    pairs = pairs_of(final)
    assert len(pairs) == len(set(pairs)) == 9  # no rematch
    assert sum(row["points"] for row in final["standings"]) == pytest.approx(12)
    assert [row["rank"] for row in final["standings"]] == list(range(1, 8))
    me_row = next(row for row in final["standings"] if row["entrant_id"] == me["entrant_id"])
    assert me_row["player_id"] == org.player_id and me_row["played"] + (me["entrant_id"] in byes) == 3
    # the human was told of each pairing through its own stream
    told = []
    for ev in org.api.my_stream("0-0"):
        if ev.event == "tournament_pairing":
            told.append(ev.data)
        if len(told) == 3 - (me["entrant_id"] in byes):
            break
    assert {x["tournament_id"] for x in told} == {t["tournament_id"]}
    lines = export_and_verify(stack, org, t["tournament_id"], tmp_path)
    assert sum(1 for x in lines if x["kind"] == "match") == 9
    # a forged result is caught offline
    forged = [x for x in lines]
    for x in forged:
        if x["kind"] == "record" and x["record"]["type"] == "match.recorded":
            x["record"]["data"]["ranks"] = list(reversed(x["record"]["data"]["ranks"]))
            break
    bad = tmp_path / "forged.ndjson"
    bad.write_text("\n".join(json.dumps(x) for x in forged) + "\n")
    got = subprocess.run([str(ROOT / "scripts/verify"), str(bad)], capture_output=True, text=True, timeout=300)
    assert got.returncode == 1, got.stdout + got.stderr


def test_a_round_robin_of_four(stack, tmp_path):
    org = Client.register(stack, "rr-org")
    t = create(org, format="round-robin", players_per_match=2)
    for level in ("random", "greedy", "random", "greedy"):
        enter(org, t["tournament_id"], bot=level)
    assert org.post(f"{stack.mm}/v1/tournaments/{t['tournament_id']}/start").status_code == 200
    final = run_to_end(org, t["tournament_id"])
    assert len(final["rounds"]) == 3
    ids = [row["entrant_id"] for row in final["standings"]]
    assert sorted(pairs_of(final), key=sorted) == sorted((frozenset(p) for p in itertools.combinations(ids, 2)),
                                                         key=sorted)
    export_and_verify(stack, org, t["tournament_id"], tmp_path)


def test_a_three_player_swiss_of_six(stack, tmp_path):
    org = Client.register(stack, "pods-org")
    t = create(org, format="swiss", players_per_match=3, rounds=2)
    for _ in range(6):
        enter(org, t["tournament_id"], bot="random")
    assert org.post(f"{stack.mm}/v1/tournaments/{t['tournament_id']}/start").status_code == 200
    final = run_to_end(org, t["tournament_id"])
    assert len(final["rounds"]) == 2
    assert all(len(m["entrants"]) == 3 for rnd in final["rounds"] for m in rnd["matches"])
    assert all(not rnd["byes"] and len(rnd["matches"]) == 2 for rnd in final["rounds"])
    # points per table of three: 1 + 1/2 + 0 shared out by rank, so 1.5 per table
    assert sum(row["points"] for row in final["standings"]) == pytest.approx(1.5 * 4)
    export_and_verify(stack, org, t["tournament_id"], tmp_path)


def test_a_short_arena(stack, tmp_path):
    org = Client.register(stack, "arena-org")
    t = create(org, format="arena", players_per_match=2, duration_s=60, cutoff_s=15)
    for level in ("random", "greedy", "random", "greedy"):
        enter(org, t["tournament_id"], bot=level)
    assert org.post(f"{stack.mm}/v1/tournaments/{t['tournament_id']}/start").status_code == 200
    final = run_to_end(org, t["tournament_id"], timeout=240)
    lines = export_and_verify(stack, org, t["tournament_id"], tmp_path)
    records = [x["record"] for x in lines if x["kind"] == "record"]
    started = next(r["at"] for r in records if r["type"] == "tournament.started")
    paired = [r for r in records if r["type"] == "round.paired"]
    assert len(paired) >= 2
    assert all(r["at"] <= started + 60 - 15 + 1 for r in paired)  # no pairing after the cut-off (clock in the log)
    assert all(len(m["entrants"]) == 2 for rnd in final["rounds"] for m in rnd["matches"])


def test_a_withdrawal_forfeits_later_rounds_and_keeps_past_results(stack, tmp_path):
    """The human plays round one, then withdraws (four entrants: no byes, so round two, which names
    it, cannot end before it acts) and resigns the round-two match it was already paired in: round
    three is paired without it; its past results stay."""
    org = Client.register(stack, "wd-org")
    human = Client.register(stack, "wd-human")
    t = create(org, format="swiss", players_per_match=2, rounds=3)
    tid = t["tournament_id"]
    me = enter(human, tid)
    for _ in range(3):
        enter(org, tid, bot="random")
    assert org.post(f"{stack.mm}/v1/tournaments/{tid}/start").status_code == 200

    def round_two_paired():
        cur = tournament(org, tid)
        play_human_turns(human, me["entrant_id"], cur, rounds=1)  # then it stops playing
        return len(cur["rounds"]) == 2 and cur

    cur = wait_for(round_two_paired, 120, 0.3, "round two")
    r = human.delete(f"{stack.mm}/v1/tournaments/{tid}/entrants/me")
    assert r.status_code == 204, r.text
    assert len(tournament(org, tid)["rounds"]) == 2  # round two still waits for the human's move
    mine = next(m for m in cur["rounds"][1]["matches"] if me["entrant_id"] in m["entrants"])
    wait_for(lambda: human.post(f"{stack.rules}/v1/matches/{mine['match_id']}/resign").status_code in (200, 201),
             60, 0.3, "the resignation")
    final = run_to_end(org, tid)
    assert len(final["rounds"]) == 3
    assert me["entrant_id"] not in {e for m in final["rounds"][2]["matches"] for e in m["entrants"]}
    assert me["entrant_id"] not in final["rounds"][2]["byes"]
    row = next(x for x in final["standings"] if x["entrant_id"] == me["entrant_id"])
    assert row["withdrawn"] and row["played"] == 2
    assert human.delete(f"{stack.mm}/v1/tournaments/{tid}/entrants/me").status_code in (404, 409)
    export_and_verify(stack, org, tid, tmp_path)


def test_bad_input_is_a_problem_never_a_500(stack):
    org = Client.register(stack, "bad-org")
    other = Client.register(stack, "bad-other")
    for body, status in [({"game": "duel", "format": "swiss", "players_per_match": 9, "rounds": 2}, 422),
                         ({"game": "duel", "format": "swiss"}, 422),
                         ({"game": "nope", "format": "arena", "duration_s": 60}, 422),
                         ({"game": "duel", "format": "knockout"}, 422)]:
        r = org.post(f"{stack.mm}/v1/tournaments", json=body)
        assert r.status_code == status, (body, r.text)
        assert r.headers["Content-Type"].startswith("application/problem+json")
    t = create(org, format="round-robin")
    tid = t["tournament_id"]
    assert other.post(f"{stack.mm}/v1/tournaments/{tid}/entrants", json={"bot": "random"}).status_code == 403
    assert other.post(f"{stack.mm}/v1/tournaments/{tid}/start").status_code == 403
    assert org.post(f"{stack.mm}/v1/tournaments/{tid}/start").status_code == 409  # too few entrants
    enter(other, tid)
    assert other.post(f"{stack.mm}/v1/tournaments/{tid}/entrants", json={}).status_code == 409
    assert org.get(f"{stack.mm}/v1/tournaments/nope").status_code == 404
    assert org.get(f"{stack.mm}/v1/tournaments", params={"cursor": "!!"}).status_code == 400
    assert org.get(f"{stack.mm}/v1/tournaments", params={"status": "weird"}).status_code == 422


def test_the_list_filters_and_pages(stack):
    org = Client.register(stack, "list-org")
    made = [create(org, format="arena", duration_s=60)["tournament_id"] for _ in range(3)]
    seen, cursor = [], None
    while True:
        r = org.get(f"{stack.mm}/v1/tournaments", params={"format": "arena", "status": "open", "limit": 2,
                                                          **({"cursor": cursor} if cursor else {})})
        assert r.status_code == 200, r.text
        body = r.json()
        assert all(x["format"] == "arena" and x["status"] == "open" for x in body["tournaments"])
        seen += [x["tournament_id"] for x in body["tournaments"]]
        cursor = body["next_cursor"]
        assert (r.headers.get("X-Next-Cursor") == cursor) if cursor else "X-Next-Cursor" not in r.headers
        if not cursor:
            break
    assert set(made) <= set(seen) and len(seen) == len(set(seen))
