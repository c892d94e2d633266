"""An example bot account that plays through the per-player event stream instead of polling.

It listens on ``GET /v1/players/me/stream`` (``Tabletop.my_stream``) and accepts every invitation
(on a fresh start also those already pending, ``GET /v1/tables?invited=me``). Each match it sits
in (``match_started``, or a ``your_turn`` of a match it is not yet playing, after a restart) is
played on a thread of its own through the seat's state stream (``Tabletop.turn_stream``, ``GET
/v1/matches/{id}/turn/stream``): every message carries the view and the legal moves at one
version, so the bot posts a random legal move at that version without another read. The client
reconnects a dropped stream (``Last-Event-ID`` on the player stream), so it misses nothing.

    python -m scripts.stream_bot --name my-bot        # registers, prints its player id, plays for ever
    python -m scripts.stream_bot --token TOKEN --matches 3

The services: ``--matchmaking``/``--rules``, else ``MATCHMAKING_URL``/``RULES_URL``, else the stack
``make run`` recorded in ``.data/stack.json``, else ports 8001-8002 on this machine. It plays every
game the server hosts (a test plays a whole match of each through it).
"""
from __future__ import annotations

import argparse
import os
import random
import threading
import uuid
from typing import Callable

from tabletop_client import ApiProblem, Tabletop, playable
from tabletop_client.sse import ServerEvent


class StreamBot:
    def __init__(self, api: Tabletop, *, seed: int | None = None, log: Callable[[str], None] = print):
        self.api = api
        self.rnd = random.Random(seed)
        self.log = log
        self.connected = threading.Event()  # set once the stream is open
        self.playing: dict[str, threading.Thread] = {}  # match id -> the thread playing it
        self.lock = threading.Lock()

    def run(self, matches: int | None = None) -> list[str]:
        """Play until ``matches`` matches have ended (for ever when None); the ids of the ended matches."""
        ended: list[str] = []
        for event in self.api.my_stream(on_open=self._opened):
            self.handle(event)
            if event.event == "match_ended":
                ended.append(event.data["match_id"])
                if matches is not None and len(ended) >= matches:
                    break
        return ended

    def _opened(self) -> None:
        if not self.connected.is_set():  # a fresh stream: catch up on invitations sent before it
            for table in self.api.tables(invited="me"):
                self.accept(table["table_id"], table["game"])
        self.connected.set()

    def handle(self, event: ServerEvent) -> None:
        data = event.data or {}
        if event.event == "invitation":
            self.accept(data["table_id"], data["game"])
        elif event.event in ("match_started", "your_turn"):
            self.follow(data["match_id"])
            if event.event == "match_started":
                self.log(f"{event.event}: {data['match_id']} seat {data['seat']}")
        elif event.event == "match_ended":
            self.log(f"{event.event}: {data['match_id']} seat {data['seat']}")

    def accept(self, table_id: str, game: str) -> None:
        try:
            self.api.join_table(table_id)
            self.log(f"joined table {table_id} ({game})")
        except ApiProblem as err:  # withdrawn, expired or already full meanwhile
            self.log(f"could not join table {table_id}: {err.detail}")

    def follow(self, match_id: str) -> None:
        """Play ``match_id`` on a thread of its own, unless one already does."""
        with self.lock:
            if match_id in self.playing and self.playing[match_id].is_alive():
                return
            thread = threading.Thread(target=self.play, args=(match_id,), daemon=True, name=f"play-{match_id}")
            self.playing[match_id] = thread
        thread.start()

    def play(self, match_id: str) -> None:
        """The whole match through the seat's state stream: a random legal move that does not only
        undo a step (``playable``) at each version that asks for one (a stale version is refused
        with 409 and ignored: the next message follows)."""
        for turn in self.api.turn_stream(match_id):
            moves = playable(turn)
            if not moves:
                continue
            try:
                self.api.move(match_id, self.rnd.choice(moves), turn["version"])
            except ApiProblem as err:
                if err.status != 409:
                    raise

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matchmaking", default=None, help="default: MATCHMAKING_URL, the stack of `make run`, or :8001")
    ap.add_argument("--rules", default=None, help="default: RULES_URL, the stack of `make run`, or :8002")
    ap.add_argument("--token", help="an existing player's token (else a new player is registered)")
    ap.add_argument("--name", default=f"stream-bot-{uuid.uuid4().hex[:6]}")
    ap.add_argument("--matches", type=int, default=None, help="stop after this many matches ended")
    args = ap.parse_args()
    missing = tuple(name for name in ("MATCHMAKING", "RULES") if getattr(args, name.lower()) is None)
    if missing:  # the environment's, else the stack `make run` recorded, else the defaults
        from shared import stackfile  # the server's checkout only; a bot elsewhere passes the URLs

        stackfile.use("stream_bot", store=False, services=missing)
        for name in missing:
            setattr(args, name.lower(), os.environ[f"{name}_URL"])
    api = Tabletop(args.matchmaking, args.rules, token=args.token)
    if args.token is None:
        player = api.register(args.name)
        print(f"registered {args.name}: player id {player.player_id} (invite it to a table)")
    StreamBot(api).run(args.matches)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
