"""An example bot account that plays through the per-player event stream instead of polling.

It listens on ``GET /v1/players/me/stream``, accepts every invitation (``POST /v1/tables/{id}/join``;
on a fresh start also those already pending, from ``GET /v1/tables?invited=me``),
and whenever it is asked to act (``your_turn``) posts a random legal move at the version it read.
On a dropped connection it reconnects with ``Last-Event-ID``, so it misses nothing.

    python -m scripts.stream_bot --name my-bot        # registers, prints its player id, plays for ever
    python -m scripts.stream_bot --token TOKEN --matches 3
"""
from __future__ import annotations

import argparse
import json
import os
import random
import threading
import time
import uuid
from typing import Callable, Iterator

import requests


def sse_events(resp: requests.Response) -> Iterator[dict]:
    """The events of an open text/event-stream response: {"id", "event", "data"} (comments skipped)."""
    event: dict = {}
    for line in resp.iter_lines(decode_unicode=True):
        if line == "":
            if event:
                yield event
            event = {}
        elif not line.startswith(":"):
            field, _, value = line.partition(": ")
            event[field] = json.loads(value) if field == "data" else value


class StreamBot:
    def __init__(self, matchmaking: str, rules: str, token: str, *, seed: int | None = None,
                 log: Callable[[str], None] = print):
        self.mm, self.rules = matchmaking.rstrip("/"), rules.rstrip("/")
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.rnd = random.Random(seed)
        self.log = log
        self.last_event_id: str | None = None
        self.connected = threading.Event()  # set once the stream is open

    def run(self, matches: int | None = None) -> list[str]:
        """Play until ``matches`` matches have ended (for ever when None); the ids of the ended matches."""
        ended: list[str] = []
        while matches is None or len(ended) < matches:
            headers = {"Last-Event-ID": self.last_event_id} if self.last_event_id else {}
            try:
                with self.http.get(f"{self.mm}/v1/players/me/stream", headers=headers, stream=True,
                                   timeout=(10, 120)) as resp:
                    if resp.status_code == 429:
                        time.sleep(int(resp.headers.get("Retry-After", "1")))
                        continue
                    resp.raise_for_status()
                    if self.last_event_id is None:  # a fresh stream: catch up on invitations sent before
                        self.accept_pending()
                    self.connected.set()
                    for event in sse_events(resp):
                        self.last_event_id = event.get("id", self.last_event_id)
                        self.handle(event)
                        if event.get("event") == "match_ended":
                            ended.append(event["data"]["match_id"])
                            if matches is not None and len(ended) >= matches:
                                break
            except requests.RequestException as err:
                self.log(f"stream interrupted ({err}); resuming after {self.last_event_id}")
                time.sleep(1)
        return ended

    def accept_pending(self) -> None:
        pending = self.http.get(f"{self.mm}/v1/tables", params={"invited": "me"}, timeout=30)
        for table in pending.json() if pending.status_code == 200 else []:
            self.handle({"event": "invitation", "data": {"table_id": table["table_id"], "game": table["game"]}})

    def handle(self, event: dict) -> None:
        kind, data = event.get("event"), event.get("data") or {}
        if kind == "invitation":
            r = self.http.post(f"{self.mm}/v1/tables/{data['table_id']}/join", json={}, timeout=60)
            self.log(f"invitation to table {data['table_id']} ({data['game']}): {r.status_code}")
        elif kind == "your_turn":
            self.play(data["match_id"])
        elif kind in ("match_started", "match_ended"):
            self.log(f"{kind}: {data['match_id']} seat {data['seat']}")

    def play(self, match_id: str) -> None:
        """One random legal move at the version read (a stale read is refused with 409 and ignored:
        a newer your_turn follows whenever the seat is still to act)."""
        legal = self.http.get(f"{self.rules}/v1/matches/{match_id}/legal-moves", timeout=30)
        if legal.status_code != 200 or not legal.json()["moves"]:
            return
        body = {"move": self.rnd.choice(legal.json()["moves"]), "expected_version": legal.json()["version"]}
        self.http.post(f"{self.rules}/v1/matches/{match_id}/moves", json=body, timeout=30,
                       headers={"Idempotency-Key": uuid.uuid4().hex})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matchmaking", default=os.environ.get("MATCHMAKING_URL", "http://127.0.0.1:8001"))
    ap.add_argument("--rules", default=os.environ.get("RULES_URL", "http://127.0.0.1:8002"))
    ap.add_argument("--token", help="an existing player's token (else a new player is registered)")
    ap.add_argument("--name", default=f"stream-bot-{uuid.uuid4().hex[:6]}")
    ap.add_argument("--matches", type=int, default=None, help="stop after this many matches ended")
    args = ap.parse_args()
    token = args.token
    if token is None:
        r = requests.post(f"{args.matchmaking}/v1/players", json={"name": args.name}, timeout=10)
        if r.status_code != 201:
            print(f"could not register: {r.status_code} {r.text}")
            return 1
        token = r.json()["token"]
        print(f"registered {args.name}: player id {r.json()['player_id']} (invite it to a table)")
    StreamBot(args.matchmaking, args.rules, token).run(args.matches)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
