"""``make demo``: a full match over HTTP against a running stack (``make run``).

One seat is played by this script exactly as a third-party client would (register, open a table,
read legal moves, post moves with the expected version, follow the live event stream), the other
seats by bot workers. At the end it prints the standings, the scoring service's result and the
audit.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import uuid

import requests


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="arkon")
    ap.add_argument("--players", type=int, default=None, help="seats (default: 3, or the game's maximum if lower)")
    ap.add_argument("--bot", default="greedy", choices=["random", "greedy", "search"])
    ap.add_argument("--matchmaking", default=os.environ.get("MATCHMAKING_URL", "http://127.0.0.1:8001"))
    ap.add_argument("--rules", default=os.environ.get("RULES_URL", "http://127.0.0.1:8002"))
    ap.add_argument("--scoring", default=os.environ.get("SCORING_URL", "http://127.0.0.1:8003"))
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    http = requests.Session()

    games = {g["id"]: g for g in http.get(f"{args.matchmaking}/v1/games", timeout=10).json()["games"]}
    if args.game not in games:
        print(f"unknown game {args.game!r}; the server hosts: {', '.join(games)}")
        return 2
    players = args.players or min(3, games[args.game]["max_players"])
    registered = http.post(f"{args.matchmaking}/v1/players", json={"name": f"demo-{uuid.uuid4().hex[:8]}"},
                           timeout=10)
    if registered.status_code != 201:  # names are unique: a clash with an earlier demo player
        print(f"could not register: {registered.status_code} {registered.text}")
        return 1
    me = registered.json()
    auth = {"Authorization": f"Bearer {me['token']}"}
    seats = [{"player_id": me["player_id"]}] + [{"bot": args.bot}] * (players - 1)
    table = http.post(f"{args.matchmaking}/v1/tables", json={"game": args.game, "seats": seats}, headers=auth, timeout=60)
    if table.status_code != 201:
        print(f"could not open a table: {table.status_code} {table.text}")
        return 1
    match_id = table.json()["match_id"]
    base = f"{args.rules}/v1/matches/{match_id}"
    print(f"match {match_id}: {args.game}, you are seat 0 against {players - 1} {args.bot} bot(s)")

    moves = 0
    while True:
        legal = http.get(f"{base}/legal-moves", headers=auth, timeout=10).json()
        match = http.get(base, timeout=10).json()
        if match["status"] != "active":
            break
        if legal["moves"] and legal["version"] == match["version"]:
            move = rnd.choice(legal["moves"])
            r = http.post(f"{base}/moves", json={"move": move, "expected_version": legal["version"]},
                          headers={**auth, "Idempotency-Key": f"demo-{legal['version']}"}, timeout=10)
            if r.status_code == 201:
                moves += 1
                if moves % 10 == 1:
                    print(f"  v{r.json()['version']}: played {json.dumps(move)}")
            continue
        time.sleep(0.05)

    print(f"\nfinished at version {match['version']} after {moves} moves of ours")
    print("standings (rank per seat):", match["result"]["ranks"], "scores:", match["result"]["scores"])
    for _ in range(100):
        result = http.get(f"{args.scoring}/v1/results/{match_id}", timeout=10)
        if result.status_code == 200:
            break
        time.sleep(0.1)
    print("scoring result:", json.dumps(result.json(), indent=2))
    audit = http.get(f"{base}/audit", timeout=30).json()
    print("audit:", json.dumps(audit, indent=2))
    ok = audit.get("chain_valid") and audit.get("replay_valid") and audit.get("chance_valid")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
