"""Tables: a host seats itself and bots, invites players and leaves seats open for anyone.

Consent: nobody is seated without accepting. A seat naming the host seats the host; a seat naming
another player is an invitation (the seat is reserved for that player until ``INVITE_TTL_S``
passes) that only that player can take, by ``join``, or ``decline``. A lapsed or declined
invitation becomes an open seat; it is never filled with the invitee. A table whose seats are all
the host's and bots' becomes a match at once; any other table waits, open, until its last seat is
taken (then the match starts) or its host starts it with bots in the open seats (never while an
invitation is pending).

Limits: a host has at most ``MAX_OPEN_TABLES`` open tables; a table without activity for
``TABLE_IDLE_S`` expires. Indexes (sorted sets of open tables by creation time): all, per game,
per host, per invitee; ``{mm}:tables:idle`` (by last activity) and ``{mm}:invites:due`` (by expiry)
drive the sweep that expires tables and invitations.
"""
from __future__ import annotations

import base64
import binascii
import time
import uuid
from typing import Callable

import redis

from shared.canonical import dumps, loads
from shared.web import ApiError

from .forming import Former, check_game
from .inbox import Inbox
from .players import Players
from .settings import Limits
from .slot import key

OPEN = key("tables:open")  # sorted set: table id -> created time
IDLE = key("tables:idle")  # sorted set: open table id -> last activity
INVITES_DUE = key("invites:due")  # sorted set: "table id:seat" -> when the invitation lapses
MAX_PAGE = 200

Notice = tuple[str, str, dict]  # (player id, inbox event type, data)


def table_key(table_id: str) -> str:
    return key(f"table:{table_id}")


def by_game(game: str) -> str:
    return key(f"tables:open:game:{game}")


def by_host(player_id: str) -> str:
    return key(f"tables:open:host:{player_id}")


def by_invitee(player_id: str) -> str:
    return key(f"tables:invited:{player_id}")


def _unprocessable(detail: str, slug: str) -> ApiError:
    return ApiError(422, "Unprocessable Entity", detail, slug)


def _conflict(detail: str, slug: str) -> ApiError:
    return ApiError(409, "Conflict", detail, slug)


def encode_cursor(score: float, table_id: str) -> str:
    return base64.urlsafe_b64encode(f"{score!r}:{table_id}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[float, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        score, table_id = raw.split(":", 1)
        value = float(score)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(score)
        return value, table_id
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise ApiError(400, "Bad Request", "cursor is not one this service gave out", "bad-cursor") from None


def invitations(table: dict) -> list[tuple[int, dict]]:
    return [(i, s) for i, s in enumerate(table["seats"]) if "invited" in s]


class Tables:
    def __init__(self, client: redis.Redis, players: Players, former: Former, inbox: Inbox,
                 limits: Limits | None = None, clock: Callable[[], float] = time.time):
        self.r = client
        self.players = players
        self.former = former
        self.inbox = inbox
        self.limits = limits or Limits()
        self.clock = clock

    # ----- seats -------------------------------------------------------------------------------
    def _seat(self, host: str, spec: dict, expires_at: float) -> dict:
        if spec.get("open"):
            return {"open": True}
        if "bot" in spec:
            return {"bot": spec["bot"], "name": f"bot:{spec['bot']}"}
        player = self.players.get(spec["player_id"])
        if player is None:
            raise _unprocessable(f"unknown player {spec['player_id']!r}", "unknown-player")
        if player["player_id"] == host:
            return {"player_id": player["player_id"], "name": player["name"]}
        return {"invited": player["player_id"], "name": player["name"], "expires_at": expires_at}

    @staticmethod
    def _check_unique(seats: list[dict]) -> None:
        ids = [s.get("player_id") or s.get("invited") for s in seats if "player_id" in s or "invited" in s]
        if len(ids) != len(set(ids)):
            raise _unprocessable("a player sits at most once at a table", "player-seated-twice")

    # ----- indexes -----------------------------------------------------------------------------
    @staticmethod
    def _unindex(pipe, table: dict) -> None:
        tid = table["table_id"]
        pipe.zrem(OPEN, tid)
        pipe.zrem(IDLE, tid)
        pipe.zrem(by_game(table["game"]), tid)
        pipe.zrem(by_host(table["host"]), tid)
        for i, seat in invitations(table):
            pipe.zrem(by_invitee(seat["invited"]), tid)
            pipe.zrem(INVITES_DUE, f"{tid}:{i}")

    @staticmethod
    def _index(pipe, table: dict) -> None:
        if table["status"] != "open":
            return
        tid, created = table["table_id"], table["created_at"]
        pipe.zadd(OPEN, {tid: created})
        pipe.zadd(IDLE, {tid: table["updated_at"]})
        pipe.zadd(by_game(table["game"]), {tid: created})
        pipe.zadd(by_host(table["host"]), {tid: created})
        for i, seat in invitations(table):
            pipe.zadd(by_invitee(seat["invited"]), {tid: created})
            pipe.zadd(INVITES_DUE, {f"{tid}:{i}": seat["expires_at"]})

    # ----- tables ------------------------------------------------------------------------------
    def create(self, host: str, body: dict) -> dict:
        now = self.clock()
        ttl = min(body.get("invite_ttl_s") or self.limits.invite_ttl_s, self.limits.invite_ttl_s)
        seats = [self._seat(host, s, now + ttl) for s in body["seats"]]
        self._check_unique(seats)
        options = check_game(body["game"], len(seats), body["options"])
        if all("bot" in s or "player_id" in s for s in seats):  # the host and bots: nobody else to ask
            match_id = self.former.form(body["game"], seats, options, body["turn_seconds"])
            return {"match_id": match_id, "game": body["game"], "status": "started", "host": host,
                    "seats": [{"seat": i, **s} for i, s in enumerate(seats)]}
        table = {"table_id": uuid.uuid4().hex, "game": body["game"], "host": host, "options": options,
                 "turn_seconds": body["turn_seconds"], "seats": seats, "status": "open",
                 "created_at": now, "updated_at": now}
        self._claim_host_slot(host, table["table_id"], now)
        pipe = self.r.pipeline(transaction=True)
        pipe.set(table_key(table["table_id"]), dumps(table))
        self._index(pipe, table)
        pipe.execute()
        host_name = (self.players.get(host) or {"name": host})["name"]
        for i, seat in invitations(table):
            self.inbox.post(seat["invited"], "invitation", {
                "table_id": table["table_id"], "game": table["game"], "host": host, "host_name": host_name,
                "seat": i, "expires_at": seat["expires_at"]})
        return self.present(table)

    def _claim_host_slot(self, host: str, table_id: str, now: float) -> None:
        """Count the new table against the host's cap of open tables (429 past it)."""
        key = by_host(host)
        self.r.zadd(key, {table_id: now})
        if self.r.zcard(key) <= self.limits.max_open_tables:
            return
        for other in [m.decode() for m in self.r.zrange(key, 0, -1)]:  # drop tables time has closed
            if other != table_id:
                try:
                    self._update(other, lambda t: None)
                except ApiError:
                    self.r.zrem(key, other)
        if self.r.zcard(key) <= self.limits.max_open_tables:
            return
        self.r.zrem(key, table_id)
        others = [m.decode() for m in self.r.zrange(key, 0, -1)]
        idle_since = [s for s in self.r.zmscore(IDLE, others) if s is not None] if others else []
        retry = max(1, int(min(idle_since) + self.limits.table_idle_s - now) + 1) if idle_since else 1
        raise ApiError(429, "Too Many Requests", f"you already host {self.limits.max_open_tables} open tables, "
                       "the most allowed: start or cancel one, or wait for one to expire", "too-many-open-tables",
                       retry_after=retry)

    @staticmethod
    def present(table: dict) -> dict:
        out = {k: v for k, v in table.items() if k not in ("seats", "created_at", "updated_at")}
        out["seats"] = [{"seat": i, **s} for i, s in enumerate(table["seats"])]
        if table["status"] == "open":
            out["created_at"] = table["created_at"]
        return out

    def _load(self, table_id: str) -> dict:
        raw = self.r.get(table_key(table_id))
        if raw is None:
            raise ApiError(404, "Not Found", f"no table {table_id!r}", "no-such-table")
        return loads(raw)

    def get(self, table_id: str) -> dict:
        """The table as it stands now (lapsed invitations and idleness applied)."""
        table = self._load(table_id)
        self._lapse(table, self.clock())
        return table

    def _lapse(self, table: dict, now: float) -> list[Notice]:
        """Apply time: invitations past their expiry become open seats; an idle open table expires."""
        if table["status"] != "open":
            return []
        notices: list[Notice] = []
        if "updated_at" not in table:  # made before invitations existed: its seats were never consented to
            table["status"] = "expired"
            return []
        if table["updated_at"] + self.limits.table_idle_s <= now:
            table["status"] = "expired"
            return [(s["invited"], "invitation_expired", {"table_id": table["table_id"], "seat": i})
                    for i, s in invitations(table)]
        for i, seat in invitations(table):
            if seat["expires_at"] <= now:
                table["seats"][i] = {"open": True}
                notices.append((seat["invited"], "invitation_expired", {"table_id": table["table_id"], "seat": i}))
        return notices

    # ----- listing -----------------------------------------------------------------------------
    def list_open(self, *, game: str | None = None, host: str | None = None, invited: str | None = None,
                  cursor: str | None = None, limit: int = MAX_PAGE) -> tuple[list[dict], str | None]:
        """One page of open tables, oldest first, and the cursor of the next page (None at the end)."""
        index = by_invitee(invited) if invited else by_host(host) if host else by_game(game) if game else OPEN
        after_score, after_id = decode_cursor(cursor) if cursor else (float("-inf"), "")
        low = "-inf" if cursor is None else repr(after_score)
        now = self.clock()
        found: list[dict] = []
        offset, batch = 0, max(limit + 1, 50)
        while len(found) <= limit:
            entries = self.r.zrangebyscore(index, low, "+inf", start=offset, num=batch, withscores=True)
            if not entries:
                break
            offset += len(entries)
            entries = [(m.decode(), s) for m, s in entries if s > after_score or m.decode() > after_id]
            raws = self.r.mget([table_key(tid) for tid, _ in entries]) if entries else []
            for (tid, score), raw in zip(entries, raws):
                if raw is None:
                    continue
                table = loads(raw)
                self._lapse(table, now)
                if self._listed(table, game, host, invited):
                    found.append(table)
                    if len(found) > limit:
                        break
        page = found[:limit]
        next_cursor = encode_cursor(page[-1]["created_at"], page[-1]["table_id"]) if len(found) > limit else None
        return [self.present(t) for t in page], next_cursor

    @staticmethod
    def _listed(table: dict, game: str | None, host: str | None, invited: str | None) -> bool:
        if table["status"] != "open":
            return False
        if game is not None and table["game"] != game:
            return False
        if host is not None and table["host"] != host:
            return False
        return invited is None or any(s["invited"] == invited for _, s in invitations(table))

    # ----- changes -----------------------------------------------------------------------------
    def _update(self, table_id: str, change: Callable[[dict], list[Notice] | None]) -> dict:
        """Apply time, then ``change(table)``, atomically (optimistic, retried on a concurrent write);
        then deliver the inbox events that the change and the lapse produced."""
        key = table_key(table_id)
        while True:
            with self.r.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    if raw is None:
                        raise ApiError(404, "Not Found", f"no table {table_id!r}", "no-such-table")
                    before = loads(raw)
                    table = loads(raw)
                    now = self.clock()
                    notices = self._lapse(table, now)
                    lapsed = loads(dumps(table))
                    try:
                        notices += change(table) or []
                    except ApiError:
                        if lapsed == before:
                            raise
                        self._write(pipe, before, lapsed)  # keep what time did, then refuse
                        self._deliver(notices)
                        raise
                    if table != lapsed:
                        table["updated_at"] = now
                    self._write(pipe, before, table)
                    self._deliver(notices)
                    return table
                except redis.WatchError:
                    continue

    def _write(self, pipe, before: dict, table: dict) -> None:
        pipe.multi()
        pipe.set(table_key(table["table_id"]), dumps(table))
        self._unindex(pipe, before)
        self._index(pipe, table)
        pipe.execute()

    def _deliver(self, notices: list[Notice]) -> None:
        for player_id, kind, data in notices:
            self.inbox.post(player_id, kind, data)

    @staticmethod
    def _must_be_open(table: dict) -> None:
        if table["status"] != "open":
            raise _conflict(f"the table is {table['status']}", "table-closed")

    def join(self, table_id: str, player_id: str, seat: int | None) -> dict:
        """Take the seat you are invited to, or an open one; the last seat taken starts the match."""
        player = self.players.get(player_id)
        if player is None:
            raise ApiError(403, "Forbidden", "only registered players can join a table", "unknown-player")

        def sit(table):
            self._must_be_open(table)
            if any(s.get("player_id") == player_id for s in table["seats"]):
                raise _conflict("you already sit at this table", "already-seated")
            mine = [i for i, s in invitations(table) if s["invited"] == player_id]
            free = mine or [i for i, s in enumerate(table["seats"]) if s.get("open")]
            if not free:
                raise _conflict("the table has no open seat", "table-full")
            target = free[0] if seat is None else seat
            if target not in free:
                raise _conflict(f"seat {target} is not yours to take; you may take: {free}", "seat-taken")
            table["seats"][target] = {"player_id": player_id, "name": player["name"]}
            self._start_if_full(table)

        return self._started(self._update(table_id, sit))

    def decline(self, table_id: str, player_id: str) -> dict:
        """Refuse an invitation: the seat becomes open and the host is told."""
        def refuse(table):
            self._must_be_open(table)
            mine = [i for i, s in invitations(table) if s["invited"] == player_id]
            if not mine:
                raise _conflict("you have no pending invitation at this table", "not-invited")
            table["seats"][mine[0]] = {"open": True}
            return [(table["host"], "invitation_declined", {"table_id": table_id, "seat": mine[0],
                                                            "player_id": player_id})]

        return self.present(self._update(table_id, refuse))

    def leave(self, table_id: str, player_id: str) -> dict:
        def stand(table):
            self._must_be_open(table)
            for i, s in enumerate(table["seats"]):
                if s.get("player_id") == player_id:
                    table["seats"][i] = {"open": True}
                    return
            raise _conflict("you do not sit at this table", "not-seated")

        return self.present(self._update(table_id, stand))

    def cancel(self, table_id: str, player_id: str) -> None:
        """The host closes a table that has not started; pending invitations are withdrawn."""
        def close(table):
            if table["host"] != player_id:
                raise ApiError(403, "Forbidden", "only the table's host can cancel it", "not-host")
            self._must_be_open(table)
            table["status"] = "cancelled"
            return [(s["invited"], "invitation_withdrawn", {"table_id": table_id, "seat": i})
                    for i, s in invitations(table)]

        self._update(table_id, close)

    def start(self, table_id: str, player_id: str, fill_with_bots: str | None) -> dict:
        """The host starts the table, bots (if asked) in the open seats; never while an invitation is pending."""
        def close(table):
            if table["host"] != player_id:
                raise ApiError(403, "Forbidden", "only the table's host can start it", "not-host")
            self._must_be_open(table)
            for i, s in invitations(table):
                raise _conflict(f"seat {i} is reserved for {s['name']} ({s['invited']}) until their invitation "
                                "is accepted, declined or expires", "invitation-pending")
            for i, s in enumerate(table["seats"]):
                if s.get("open"):
                    if not fill_with_bots:
                        raise _conflict(f"seat {i} is still open; wait for players or start with "
                                        '{"fill_with_bots": "greedy"}', "seats-open")
                    table["seats"][i] = {"bot": fill_with_bots, "name": f"bot:{fill_with_bots}"}
            self._start_if_full(table)

        return self._started(self._update(table_id, close))

    @staticmethod
    def _start_if_full(table: dict) -> None:
        if all("bot" in s or "player_id" in s for s in table["seats"]):
            table["status"] = "starting"
            table["match_id"] = uuid.uuid4().hex

    def _started(self, table: dict) -> dict:
        """Form the match of a table that just filled up; the table as it is then."""
        if table["status"] == "starting":
            self.former.form(table["game"], table["seats"], table["options"], table["turn_seconds"],
                             match_id=table["match_id"])
            table = self._update(table["table_id"], lambda t: t.update(status="started"))
        return self.present(table)

    # ----- time --------------------------------------------------------------------------------
    def sweep(self) -> int:
        """Expire lapsed invitations and idle tables (with their inbox events); returns tables changed."""
        now = self.clock()
        due = {m.decode().rsplit(":", 1)[0] for m in self.r.zrangebyscore(INVITES_DUE, "-inf", now)}
        due |= {m.decode() for m in self.r.zrangebyscore(IDLE, "-inf", now - self.limits.table_idle_s)}
        for table_id in due:
            try:
                self._update(table_id, lambda t: None)
            except ApiError:  # gone meanwhile
                self.r.zrem(IDLE, table_id)
        return len(due)
