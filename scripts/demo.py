"""``make demo``: a full match over HTTP against a running stack (``make run``).

One seat is played by this script exactly as a third-party client would, with the project's
Python client (``tabletop_client``): register, open a table, read legal moves, post moves with the
expected version (retried safely under an Idempotency-Key), and wait on the live event stream while
the bots play. At the end it prints the standings, the scoring service's result and the audit.

The services: ``--matchmaking``/``--rules``/``--scoring``, else ``MATCHMAKING_URL`` (or
``MATCHMAKING_PORT``, as ``make run`` takes it) and so on, else the stack ``make run`` recorded in
``.data/stack.json`` (``shared.stackfile``), else ports 8001-8003 on this machine.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from contextlib import closing
import uuid

from shared import stackfile
from tabletop_client import ApiProblem, Tabletop, Unavailable, playable


def wait_for_change(events, version: int) -> None:
    """Block until the match's event stream brings an event after ``version`` (or ends)."""
    for event in events:
        if event["seq"] > version:
            return


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="arkon")
    ap.add_argument("--players", type=int, default=None, help="seats (default: 3, or the game's maximum if lower)")
    ap.add_argument("--bot", default="greedy", choices=["random", "greedy", "search"])
    ap.add_argument("--matchmaking", help="the matchmaking service's URL")
    ap.add_argument("--rules", help="the rules service's URL")
    ap.add_argument("--scoring", help="the scoring service's URL")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    missing = tuple(name for name in stackfile.SERVICES if getattr(args, name.lower()) is None)
    if missing:  # the environment's, else the stack `make run` recorded, else the defaults
        stackfile.use("make demo", store=False, services=missing)
        for name in missing:
            setattr(args, name.lower(), os.environ[f"{name}_URL"])
    rnd = random.Random(args.seed)
    api = Tabletop(args.matchmaking, args.rules, args.scoring)

    try:
        games = {g["id"]: g for g in api.games()}
    except Unavailable as err:
        print(f"make demo: no matchmaking service answers at {args.matchmaking} ({err}); is `make run` going?",
              file=sys.stderr)
        return 2
    if args.game not in games:
        print(f"unknown game {args.game!r}; the server hosts: {', '.join(games)}")
        return 2
    players = args.players or min(3, games[args.game]["max_players"])
    me = api.register(f"demo-{uuid.uuid4().hex[:8]}")  # names are unique
    seats = [{"player_id": me.player_id}] + [{"bot": args.bot}] * (players - 1)
    try:
        match_id = api.create_table(args.game, seats)["match_id"]
    except ApiProblem as err:
        print(f"could not open a table: {err}")
        return 1
    print(f"match {match_id}: {args.game}, you are seat 0 against {players - 1} {args.bot} bot(s)")
    print(f"watch it: {args.rules}/viewer/#/match/{match_id}")

    moves = 0
    with closing(api.stream(match_id)) as events:  # one stream for the whole match
        while True:
            turn = api.turn(match_id)  # our view and legal moves at one version
            if playable(turn):  # the legal moves less those that only undo a step
                move = rnd.choice(playable(turn))
                try:
                    done = api.move(match_id, move, turn["version"], idempotency_key=f"demo-{turn['version']}")
                except ApiProblem as err:
                    if err.stale:
                        continue
                    raise
                moves += 1
                if moves % 10 == 1:
                    print(f"  v{done['version']}: played {json.dumps(move)}")
                continue
            match = api.match(match_id)
            if match["status"] != "active":
                break
            if match["version"] == turn["version"]:  # not our decision: sleep until the match moves on
                wait_for_change(events, turn["version"])

    print(f"\nfinished at version {match['version']} after {moves} moves of ours")
    print("standings (rank per seat):", match["result"]["ranks"], "scores:", match["result"]["scores"])
    result = None
    for _ in range(100):
        try:
            result = api.result(match_id)
            break
        except ApiProblem as err:
            if err.status != 404:
                raise
            time.sleep(0.1)
    print("scoring result:", json.dumps(result, indent=2))
    audit = api.audit(match_id)
    print("audit:", json.dumps(audit, indent=2))
    print(f"export and verify it offline: scripts/verify --download {args.rules} {match_id}")
    ok = audit.get("chain_valid") and audit.get("replay_valid") and audit.get("chance_valid")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
