"""Tables: a host seats players and bots, possibly leaving seats open for others to join.

A table with every seat filled becomes a match at once. An open table waits in
``mm:tables:open`` until its host starts it (optionally filling open seats with bots).
A player sits at most once at a table.
"""
from __future__ import annotations

import time
import uuid

import redis

from shared.canonical import dumps, loads
from shared.web import ApiError

from .forming import Former, check_game
from .players import Players

OPEN = "mm:tables:open"  # sorted set: table id -> created time


def table_key(table_id: str) -> str:
    return f"mm:table:{table_id}"


def _unprocessable(detail: str, slug: str) -> ApiError:
    return ApiError(422, "Unprocessable Entity", detail, slug)


class Tables:
    def __init__(self, client: redis.Redis, players: Players, former: Former):
        self.r = client
        self.players = players
        self.former = former

    # ----- seats -------------------------------------------------------------------------------
    def _seat(self, spec: dict) -> dict:
        if spec.get("open"):
            return {"open": True}
        if "bot" in spec:
            return {"bot": spec["bot"], "name": f"bot:{spec['bot']}"}
        player = self.players.get(spec["player_id"])
        if player is None:
            raise _unprocessable(f"unknown player {spec['player_id']!r}", "unknown-player")
        return {"player_id": player["player_id"], "name": player["name"]}

    @staticmethod
    def _check_unique(seats: list[dict]) -> None:
        ids = [s["player_id"] for s in seats if "player_id" in s]
        if len(ids) != len(set(ids)):
            raise _unprocessable("a player sits at most once at a table", "player-seated-twice")

    # ----- tables ------------------------------------------------------------------------------
    def create(self, host: str, body: dict) -> dict:
        seats = [self._seat(s) for s in body["seats"]]
        self._check_unique(seats)
        options = check_game(body["game"], len(seats), body["options"])
        if not any(s.get("open") for s in seats):
            match_id = self.former.form(body["game"], seats, options, body["turn_seconds"])
            return {"match_id": match_id, "game": body["game"], "status": "started",
                    "seats": [{"seat": i, **s} for i, s in enumerate(seats)]}
        table = {"table_id": uuid.uuid4().hex, "game": body["game"], "host": host, "options": options,
                 "turn_seconds": body["turn_seconds"], "seats": seats, "status": "open", "created_at": time.time()}
        self.r.set(table_key(table["table_id"]), dumps(table))
        self.r.zadd(OPEN, {table["table_id"]: table["created_at"]})
        return self.present(table)

    @staticmethod
    def present(table: dict) -> dict:
        out = {k: v for k, v in table.items() if k not in ("seats", "created_at")}
        out["seats"] = [{"seat": i, **s} for i, s in enumerate(table["seats"])]
        return out

    def get(self, table_id: str) -> dict:
        raw = self.r.get(table_key(table_id))
        if raw is None:
            raise ApiError(404, "Not Found", f"no table {table_id!r}", "no-such-table")
        return loads(raw)

    def list_open(self, game: str | None) -> list[dict]:
        ids = [i.decode() for i in self.r.zrange(OPEN, 0, 199)]
        raws = self.r.mget([table_key(i) for i in ids]) if ids else []
        tables = [loads(raw) for raw in raws if raw]
        return [self.present(t) for t in tables if t["status"] == "open" and (game is None or t["game"] == game)]

    def _update(self, table_id: str, change) -> dict:
        """Apply ``change(table)`` atomically (optimistic, retried on a concurrent write)."""
        key = table_key(table_id)
        while True:
            with self.r.pipeline() as pipe:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    if raw is None:
                        raise ApiError(404, "Not Found", f"no table {table_id!r}", "no-such-table")
                    table = loads(raw)
                    change(table)
                    pipe.multi()
                    pipe.set(key, dumps(table))
                    if table["status"] != "open":
                        pipe.zrem(OPEN, table_id)
                    pipe.execute()
                    return table
                except redis.WatchError:
                    continue

    def join(self, table_id: str, player_id: str, seat: int | None) -> dict:
        player = self.players.get(player_id)
        if player is None:
            raise ApiError(403, "Forbidden", "only registered players can join a table", "unknown-player")

        def sit(table):
            if table["status"] != "open":
                raise ApiError(409, "Conflict", f"the table is {table['status']}", "table-closed")
            if any(s.get("player_id") == player_id for s in table["seats"]):
                raise ApiError(409, "Conflict", "you already sit at this table", "already-seated")
            free = [i for i, s in enumerate(table["seats"]) if s.get("open")]
            if not free:
                raise ApiError(409, "Conflict", "the table has no open seat", "table-full")
            target = free[0] if seat is None else seat
            if target not in free:
                raise ApiError(409, "Conflict", f"seat {target} is not open; open seats: {free}", "seat-taken")
            table["seats"][target] = {"player_id": player_id, "name": player["name"]}

        return self.present(self._update(table_id, sit))

    def leave(self, table_id: str, player_id: str) -> dict:
        def stand(table):
            if table["status"] != "open":
                raise ApiError(409, "Conflict", f"the table is {table['status']}", "table-closed")
            for i, s in enumerate(table["seats"]):
                if s.get("player_id") == player_id:
                    table["seats"][i] = {"open": True}
                    return
            raise ApiError(409, "Conflict", "you do not sit at this table", "not-seated")

        return self.present(self._update(table_id, stand))

    def start(self, table_id: str, player_id: str, fill_with_bots: str | None) -> dict:
        def close(table):
            if table["host"] != player_id:
                raise ApiError(403, "Forbidden", "only the table's host can start it", "not-host")
            if table["status"] != "open":
                raise ApiError(409, "Conflict", f"the table is {table['status']}", "table-closed")
            for i, s in enumerate(table["seats"]):
                if s.get("open"):
                    if not fill_with_bots:
                        raise ApiError(409, "Conflict", f"seat {i} is still open; wait for players or start with "
                                       '{"fill_with_bots": "greedy"}', "seats-open")
                    table["seats"][i] = {"bot": fill_with_bots, "name": f"bot:{fill_with_bots}"}
            table["status"] = "starting"
            table["match_id"] = uuid.uuid4().hex

        table = self._update(table_id, close)
        self.former.form(table["game"], table["seats"], table["options"], table["turn_seconds"],
                         match_id=table["match_id"])
        table = self._update(table_id, lambda t: t.update(status="started"))
        return self.present(table)
