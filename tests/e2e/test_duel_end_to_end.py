"""A match through every service: table -> rules -> bots -> scoring, with the audit at the end."""
from tests.support.stack import Client, wait_for


def play_until_finished(client: Client, match_id: str, seat: int, timeout: float = 120) -> dict:
    base = f"{client.stack.rules}/v1/matches/{match_id}"

    def step():
        m = client.get(base).json()
        if m["status"] != "active":
            return m
        if seat in m["to_act"]:
            legal = client.get(f"{base}/legal-moves").json()
            if legal["moves"] and legal["version"] == m["version"]:
                r = client.post(f"{base}/moves", json={"move": legal["moves"][0], "expected_version": legal["version"]})
                assert r.status_code in (201, 409), r.text
        return None

    return wait_for(step, timeout=timeout, interval=0.05, what=f"match {match_id} to finish")


def test_table_with_bots_finishes_scores_and_audits(stack):
    alice = Client.register(stack, "alice")
    r = alice.post(f"{stack.mm}/v1/tables", json={
        "game": "duel", "seats": [{"player_id": alice.player_id}, {"bot": "greedy"}, {"bot": "search"}]})
    assert r.status_code == 201, r.text
    table = r.json()
    match_id = table["match_id"]
    assert [s.get("bot") for s in table["seats"]] == [None, "greedy", "search"]
    final = play_until_finished(alice, match_id, 0)
    assert final["status"] == "finished" and final["result"]["ranks"]
    result = wait_for(lambda: (lambda r: r.status_code == 200 and r.json())(
        alice.get(f"{stack.scoring}/v1/results/{match_id}")), timeout=30, what="the scored result")
    assert [row["seat"] for row in result["standings"]] == [0, 1, 2]
    assert result["standings"][0]["player_id"] == alice.player_id
    assert set(result["ratings"]) == {alice.player_id, "bot:greedy", "bot:search"}
    audit = alice.get(f"{stack.rules}/v1/matches/{match_id}/audit").json()
    assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"], audit
    assert audit["seed"] and audit["seed_commitment"]
    board = alice.get(f"{stack.scoring}/v1/leaderboards/duel").json()
    assert {e["player_id"] for e in board["entries"]} == {alice.player_id, "bot:greedy", "bot:search"}
