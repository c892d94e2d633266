"""Tournaments on Redis: create, enter, withdraw, start, read, list, export, and advance (record a
finished match, pair the next round, create its matches).

Everything authoritative is the tournament's log (``log``); the rest is an index: a sorted set of
all tournaments by creation time (``{mm}:tournaments``), a summary hash each (game, format, status,
for the list's filters), each organiser's open tournaments, and ``mm:tournament-of:<match id>``.

Idempotent and replica-safe: appends carry the expected version (a racing replica gets
``Conflict``, re-reads and finds the work done); a round's match ids are derived from
(tournament, round, table), so a crash between "round paired" and "matches created" is repaired by
the next ``advance`` (``sweep`` runs it for every running tournament), which publishes "match
formed" for every paired match not yet created — the rules service creates a match once per id.
"""
from __future__ import annotations

import base64
import binascii
import time
import uuid
from typing import Callable, Iterator

import redis

from shared import faults
from shared.bots import levels
from shared.canonical import dumps, loads
from shared.engine import registry
from shared.web import ApiError

from ..forming import Former, check_game
from ..inbox import Inbox
from ..players import Players
from ..queue import rating_key
from ..slot import key
from shared.tournaments import fold as f
from .log import Conflict, TournamentLog
from .settings import TournamentLimits

INDEX = key("tournaments")  # sorted set: id -> created time
RUNNING = "mm:tournaments:running"  # set: the tournaments the sweep advances
MAX_PAGE = 200
FORMATS = ("swiss", "round-robin", "arena")


def summary_key(tid: str) -> str:
    return f"mm:tournament:{tid}"


def organiser_key(player_id: str) -> str:
    return f"mm:tournaments:open-by:{player_id}"


def created_key(tid: str) -> str:
    return f"{{t:{tid}}}:created"


def tournament_of(match_id: str) -> str:
    return f"mm:tournament-of:{match_id}"


def _err(status: int, detail: str, slug: str) -> ApiError:
    titles = {400: "Bad Request", 403: "Forbidden", 404: "Not Found", 409: "Conflict", 422: "Unprocessable Entity",
              429: "Too Many Requests"}
    return ApiError(status, titles[status], detail, slug)


def encode_cursor(score: float, tid: str) -> str:
    return base64.urlsafe_b64encode(f"{score!r}:{tid}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[float, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        score, tid = raw.split(":", 1)
        value = float(score)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(score)
        return value, tid
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise _err(400, "cursor is not one this service gave out", "bad-cursor") from None


class Tournaments:
    def __init__(self, client: redis.Redis, players: Players, former: Former, inbox: Inbox,
                 limits: TournamentLimits | None = None, clock: Callable[[], float] = time.time):
        self.r = client
        self.players = players
        self.former = former
        self.inbox = inbox
        self.limits = limits or TournamentLimits()
        self.clock = clock
        self.log = TournamentLog(client, clock)

    # ----- reading -----------------------------------------------------------------------------
    def state(self, tid: str) -> tuple[list[dict], dict]:
        records = self.log.read(tid)
        if not records:
            raise _err(404, f"no tournament {tid!r}", "no-such-tournament")
        return records, f.fold(records)

    def get(self, tid: str) -> dict:
        return f.present(self.state(tid)[1])

    def _append(self, tid: str, records: list[dict], events: list[dict]) -> dict:
        try:
            records = self.log.append(tid, records, events)
        except Conflict:
            raise _err(409, "the tournament changed meanwhile; try again", "tournament-changed") from None
        state = f.fold(records)
        self.r.hset(summary_key(tid), "status", state["status"])
        if state["status"] == "running":
            self.r.sadd(RUNNING, tid)
        elif state["status"] == "finished":
            self.r.srem(organiser_key(state["settings"]["organiser"]), tid)
            self.r.srem(RUNNING, tid)
        return state

    # ----- organising --------------------------------------------------------------------------
    def create(self, organiser: str, body: dict) -> dict:
        fmt, size = body["format"], body["players_per_match"]
        try:
            game = registry.get(body["game"])
        except KeyError:
            raise _err(422, f"unknown game {body['game']!r}", "unknown-game") from None
        if not game.min_players <= size <= game.max_players:
            raise _err(422, f"players_per_match must be {game.min_players}..{game.max_players} for {game.id}",
                       "bad-players-per-match")
        options = check_game(body["game"], size, body.get("options") or {})
        if fmt == "swiss" and not body.get("rounds"):
            raise _err(422, "a Swiss needs rounds (1 or more)", "no-rounds")
        if fmt == "arena" and not body.get("duration_s"):
            raise _err(422, "an arena needs duration_s", "no-duration")
        cap = self.limits.max_entrants
        max_entrants = body.get("max_entrants") or cap
        if max_entrants > cap:
            raise _err(422, f"max_entrants is at most {cap} (MAX_TOURNAMENT_ENTRANTS)", "too-many-entrants")
        if max_entrants < size:
            raise _err(422, "max_entrants is below players_per_match", "too-few-entrants")
        if self.r.scard(organiser_key(organiser)) >= self.limits.max_open:
            raise _err(429, f"you organise the most open tournaments allowed ({self.limits.max_open}, "
                       "MAX_OPEN_TOURNAMENTS)", "too-many-tournaments")
        tid = uuid.uuid4().hex
        now = self.clock()
        settings = {"tournament_id": tid, "organiser": organiser, "game": game.id, "format": fmt,
                    "players_per_match": size, "rounds": body.get("rounds") if fmt == "swiss" else None,
                    "duration_s": body.get("duration_s") if fmt == "arena" else None,
                    "options": options, "turn_seconds": body.get("turn_seconds"), "max_entrants": max_entrants,
                    "created_at": now}
        if fmt == "arena":
            settings["cutoff_s"] = body.get("cutoff_s") or min(30.0, body["duration_s"] / 4)
        state = self._append(tid, [], [{"type": "tournament.created", "data": settings}])
        pipe = self.r.pipeline()
        pipe.hset(summary_key(tid), mapping={"game": game.id, "format": fmt, "status": "open"})
        pipe.zadd(INDEX, {tid: now})
        pipe.sadd(organiser_key(organiser), tid)
        pipe.execute()
        return f.present(state)

    def enter(self, tid: str, caller: str, bot: str | None = None) -> dict:
        """Enter the caller (or, for the organiser, a bot); entrants racing each other are all
        entered (a lost append re-reads the log and tries again)."""
        for _ in range(9):
            try:
                return self._enter(tid, caller, bot)
            except ApiError as err:
                if err.slug != "tournament-changed":
                    raise
        return self._enter(tid, caller, bot)

    def _enter(self, tid: str, caller: str, bot: str | None) -> dict:
        records, state = self.state(tid)
        s = state["settings"]
        if state["status"] != "open":
            raise _err(409, "the tournament has started; entries are closed", "entries-closed")
        if len(state["order"]) >= s["max_entrants"]:
            raise _err(409, f"the tournament is full ({s['max_entrants']} entrants)", "tournament-full")
        if bot is not None:
            if caller != s["organiser"]:
                raise _err(403, "only the organiser enters bots", "not-organiser")
            offered = [lv["level"] if isinstance(lv, dict) else lv for lv in levels.describe(s["game"])]
            if bot not in offered:
                raise _err(422, f"unknown bot level {bot!r}; offered: {', '.join(map(str, offered))}", "bad-bot-level")
            n = sum(1 for e in state["entrants"].values() if e.get("bot")) + 1
            entrant = {"entrant_id": uuid.uuid4().hex[:12], "bot": bot, "name": f"bot:{bot} #{n}", "rating": None}
        else:
            if any(e.get("player_id") == caller for e in state["entrants"].values()):
                raise _err(409, "you have entered already", "entered-already")
            player = self.players.get(caller)
            rating = self.r.hget(rating_key(s["game"]), caller)
            entrant = {"entrant_id": uuid.uuid4().hex[:12], "player_id": caller,
                       "name": player["name"] if player else caller, "rating": float(rating) if rating else None}
        self._append(tid, records, [{"type": "entrant.entered", "data": entrant}])
        return {"tournament_id": tid, **entrant}

    def invite(self, tid: str, caller: str, player_id: str) -> dict:
        """The organiser invites a player: recorded in the log and told on the player's stream. The
        player accepts by entering itself; until then it is never seated."""
        records, state = self.state(tid)
        if caller != state["settings"]["organiser"]:
            raise _err(403, "only the organiser invites players", "not-organiser")
        if state["status"] != "open":
            raise _err(409, "the tournament has started; entries are closed", "entries-closed")
        player = self.players.get(player_id)
        if player is None:
            raise _err(422, f"unknown player {player_id!r}", "unknown-player")
        if any(e.get("player_id") == player_id for e in state["entrants"].values()):
            raise _err(409, "that player has entered already", "entered-already")
        if player_id not in state["invited"]:
            self._append(tid, records, [{"type": "entrant.invited",
                                         "data": {"player_id": player_id, "name": player["name"]}}])
            self.inbox.post(player_id, "tournament_invitation",
                            {"tournament_id": tid, "game": state["settings"]["game"],
                             "format": state["settings"]["format"], "organiser": caller})
        return {"tournament_id": tid, "invited": player_id, "name": player["name"]}

    def withdraw(self, tid: str, caller: str) -> None:
        records, state = self.state(tid)
        mine = [e for e, v in state["entrants"].items() if v.get("player_id") == caller and e not in state["withdrawn"]]
        if not mine:
            raise _err(404, "you are not an entrant of this tournament", "not-an-entrant")
        if state["status"] == "finished":
            raise _err(409, "the tournament has finished", "tournament-finished")
        self._append(tid, records, [{"type": "entrant.withdrew", "data": {"entrant_id": mine[0]}}])
        if state["status"] == "running":
            self.advance(tid)

    def start(self, tid: str, caller: str) -> dict:
        records, state = self.state(tid)
        s = state["settings"]
        if caller != s["organiser"]:
            raise _err(403, "only the organiser starts a tournament", "not-organiser")
        if state["status"] != "open":
            raise _err(409, "the tournament has started already", "started-already")
        if len(state["order"]) < max(2, s["players_per_match"]):
            raise _err(409, f"a tournament needs at least {max(2, s['players_per_match'])} entrants", "too-few-entrants")
        data: dict = {}
        if s["format"] == "round-robin" and s["players_per_match"] == 2:
            data["schedule"] = f.round_robin_schedule(state["order"])
        self._append(tid, records, [{"type": "tournament.started", "data": data}])
        self.advance(tid)
        return self.get(tid)

    # ----- running -----------------------------------------------------------------------------
    def advance(self, tid: str, attempts: int = 5) -> None:
        """Do whatever the log asks next (pair a round, finish), then create every paired match
        not yet created. Safe to run any number of times, from any replica."""
        for _ in range(attempts):
            records = self.log.read(tid)
            if not records:
                return
            state = f.fold(records)
            step, pairing = f.next_step(state, self.clock())
            try:
                if step == "pair":
                    state = self._pair(tid, records, state, pairing)
                elif step == "finish":
                    state = self._append(tid, records, [{"type": "tournament.finished", "data": {}}])
            except ApiError as err:
                if err.status == 409:
                    continue  # another replica moved the log: read again
                raise
            faults.point("tournament-after-pair")
            self._create_matches(tid, state)
            return

    def _pair(self, tid: str, records: list[dict], state: dict, pairing: dict) -> dict:
        n = len(state["rounds"]) + 1
        tables = [{"match_id": f.match_id_for(tid, n, i), "entrants": list(t)} for i, t in enumerate(pairing["tables"])]
        return self._append(tid, records, [{"type": "round.paired",
                                            "data": {"round": n, "tables": tables, "byes": list(pairing["byes"])}}])

    def _seat(self, entrant: dict) -> dict:
        if entrant.get("bot"):
            return {"bot": entrant["bot"], "name": entrant["name"]}
        return {"player_id": entrant["player_id"], "name": entrant["name"]}

    def _create_matches(self, tid: str, state: dict) -> None:
        s = state["settings"]
        done = {m.decode() for m in self.r.smembers(created_key(tid))}
        for rnd in state["rounds"]:
            for table in rnd["tables"]:
                mid = table["match_id"]
                if mid in done or mid in state["results"]:
                    continue
                self.r.set(tournament_of(mid), tid)
                seats = [self._seat(state["entrants"][e]) for e in table["entrants"]]
                self.former.publish(s["game"], seats, s["options"], s["turn_seconds"], match_id=mid)
                faults.point("tournament-after-publish")
                self.r.sadd(created_key(tid), mid)
                for i, e in enumerate(table["entrants"]):
                    ent = state["entrants"][e]
                    if ent.get("player_id"):
                        self.inbox.post(ent["player_id"], "tournament_pairing",
                                        {"tournament_id": tid, "round": rnd["round"], "match_id": mid, "seat": i,
                                         "entrant_id": e})

    def match_finished(self, message: dict) -> None:
        """A finished match (from the rules service's stream): record it if it is a tournament's,
        then advance that tournament. Idempotent."""
        raw = self.r.get(tournament_of(message["match_id"]))
        if raw is None:
            return
        tid = raw.decode()
        for _ in range(5):
            records = self.log.read(tid)
            state = f.fold(records)
            if message["match_id"] in state["results"]:
                break
            outcome = message.get("outcome") or {}
            data = {"match_id": message["match_id"], "ranks": outcome.get("ranks"), "teams": outcome.get("teams"),
                    "head_hash": message.get("head_hash"), "status": message.get("status"),
                    "abandoned": message.get("abandoned")}
            table = next((t for r in state["rounds"] for t in r["tables"] if t["match_id"] == message["match_id"]), None)
            if table is None:  # not one of this tournament's pairings (an index entry left over): ignore
                return
            if not data["ranks"]:  # a match that ended without ranks (aborted): nobody scores
                data["ranks"] = [len(table["entrants"])] * len(table["entrants"])
            events = [{"type": "match.recorded", "data": data}]
            for seat in message.get("abandoned") or []:  # a player who abandoned: withdrawn after the forfeit
                entrant = table["entrants"][seat] if seat < len(table["entrants"]) else None
                if entrant and entrant not in state["withdrawn"] and state["entrants"][entrant].get("player_id"):
                    events.append({"type": "entrant.withdrew", "data": {"entrant_id": entrant, "abandoned": True}})
            try:
                self.log.append(tid, records, events)
                break
            except Conflict:
                continue
        faults.point("tournament-after-record")
        self.advance(tid)

    def sweep(self) -> int:
        """Advance every running tournament (arena pairings, and repair after a crash)."""
        n = 0
        for raw in self.r.smembers(RUNNING):
            self.advance(raw.decode())
            n += 1
        return n

    # ----- listing and export ------------------------------------------------------------------
    def list(self, *, game=None, status=None, fmt=None, cursor=None, limit=50) -> tuple[list[dict], str | None]:
        limit = max(1, min(limit, MAX_PAGE))
        lo: float | str = "-inf"
        after = decode_cursor(cursor) if cursor else None
        if after:
            lo = after[0]
        page: list[dict] = []
        offset = 0
        while len(page) <= limit:
            batch = self.r.zrangebyscore(INDEX, lo, "+inf", start=offset, num=200, withscores=True)
            if not batch:
                break
            offset += len(batch)
            for raw, score in batch:
                tid = raw.decode()
                if after is not None and (score, tid) <= after:
                    continue
                summary = {k.decode(): v.decode() for k, v in self.r.hgetall(summary_key(tid)).items()}
                if (game and summary.get("game") != game) or (status and summary.get("status") != status) \
                        or (fmt and summary.get("format") != fmt):
                    continue
                page.append((score, tid))
                if len(page) > limit:
                    break
        more = len(page) > limit
        page = page[:limit]
        out = []
        for _, tid in page:
            full = self.get(tid)
            out.append({k: full[k] for k in ("tournament_id", "game", "format", "players_per_match", "status",
                                             "entrants", "organiser", "created_at", "started_at", "finished_at")})
        return out, (encode_cursor(*page[-1]) if more and page else None)

    def export(self, tid: str, fetch_match: Callable[[str], list[bytes]]) -> Iterator[bytes]:
        """NDJSON: a header, the tournament's records, then each match (id, head hash) followed by its
        own exported log, line by line (``kind`` says which)."""
        records, state = self.state(tid)
        yield dumps({"kind": "tournament", "tournament_id": tid, "records": len(records),
                     "head_hash": records[-1]["hash"], "status": state["status"]}).encode() + b"\n"
        for rec in records:
            yield dumps({"kind": "record", "record": rec}).encode() + b"\n"
        for rnd in state["rounds"]:
            for table in rnd["tables"]:
                res = state["results"].get(table["match_id"])
                if res is None:
                    continue
                lines = fetch_match(table["match_id"])
                yield dumps({"kind": "match", "match_id": table["match_id"], "head_hash": res["head_hash"],
                             "lines": len(lines)}).encode() + b"\n"
                for line in lines:
                    yield dumps({"kind": "match-line", "match_id": table["match_id"],
                                 "line": loads(line)}).encode() + b"\n"
