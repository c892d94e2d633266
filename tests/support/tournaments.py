"""Tournaments through a stack in tests: create one of duel (short options), enter, read, and a
scripted human that plays the first legal move in its active matches."""
from __future__ import annotations

from tabletop_client import ApiProblem
from tests.support.stack import Client

DUEL = {"rounds": 1}


def create(org: Client, **body) -> dict:
    r = org.post(f"{org.stack.mm}/v1/tournaments", json={"game": "duel", "options": DUEL, **body})
    assert r.status_code == 201, r.text
    return r.json()


def enter(client: Client, tid: str, bot: str | None = None) -> dict:
    r = client.post(f"{client.stack.mm}/v1/tournaments/{tid}/entrants", json={"bot": bot} if bot else {})
    assert r.status_code == 201, r.text
    return r.json()


def tournament(client: Client, tid: str) -> dict:
    r = client.get(f"{client.stack.mm}/v1/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return r.json()


def play_human_turns(human: Client, entrant_id: str, t: dict, rounds: int | None = None) -> None:
    """The scripted human: in each of its active matches (of the first ``rounds`` only, if given),
    the first legal move when it is to act."""
    for rnd in t["rounds"][:rounds]:
        for m in rnd["matches"]:
            if m["status"] != "active" or entrant_id not in m["entrants"]:
                continue
            try:
                turn = human.api.turn(m["match_id"])
                if turn["moves"]:
                    human.api.move(m["match_id"], turn["moves"][0], turn["version"])
            except ApiProblem:
                pass  # not created yet, stale, or already over: look again next time
