"""``Tabletop``: one method per endpoint of the public API (docs/api.md), over ``requests``.

* Every refusal raises ``ApiProblem`` (type, status, title, detail, and the whole problem body).
* Reads are retried on connection errors, 429 (after ``Retry-After``) and 5xx; a move is retried the
  same way with one ``Idempotency-Key`` for all its attempts, so it is applied at most once.
* Event streams (``stream``, ``my_stream``, ``turn_stream``) are iterators over server-sent events
  that reconnect (with ``Last-Event-ID``) when a connection drops.
"""
from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict
from urllib.parse import quote

import requests

from .errors import ApiProblem, Unavailable
from .sse import ServerEvent, iter_sse

Move = dict[str, Any]
RETRY_STATUS = frozenset({429, 502, 503, 504})
DAMAGED_LOG = "urn:problem:damaged-log"  # a 503 that is not retried (docs/api.md, "A damaged log")


class Seat(TypedDict, total=False):
    seat: int
    player_id: str
    bot: str
    name: str
    controller: str
    abandoned: bool


class MatchSummary(TypedDict, total=False):
    match_id: str
    game: str
    engine: str
    options: dict
    seats: list[Seat]
    status: str
    version: int
    to_act: list[int]
    head_hash: str
    result: dict
    turn_seconds: float | None
    deadlines: dict


class View(TypedDict, total=False):
    match_id: str
    version: int
    seat: int | None
    to_act: list[int]
    status: str
    seats: list[Seat]
    state: Any


class LegalMoves(TypedDict, total=False):
    version: int
    seat: int
    moves: list[Move]
    undoing: list[int]  # positions in ``moves`` of those that only undo a step (servers since 1.x)


def playable(turn: dict) -> list[Move]:
    """The legal moves of a ``turn`` (or ``legal_moves``) answer less those that only undo a step
    of the pending decision (``undoing``): playing the first of them always finishes a match."""
    undoing = set(turn.get("undoing", ()))
    return [m for i, m in enumerate(turn.get("moves", ())) if i not in undoing]


class MoveResult(TypedDict):
    version: int
    events: list[dict]


class EventsPage(TypedDict):
    events: list[dict]
    next_after: int


class Audit(TypedDict, total=False):
    match_id: str
    version: int
    chain_valid: bool
    replay_valid: bool
    chance_valid: bool
    head_hash: str
    seed_commitment: str
    seed: str
    problems: list[str]


class MatchItem(TypedDict, total=False):
    match_id: str
    game: str
    seats: list[Seat]
    status: str
    version: int
    created_at: float
    finished_at: float | None
    result: dict | None


class MatchPage(TypedDict):
    matches: list[MatchItem]
    next_cursor: str | None


@dataclass(frozen=True)
class Player:
    player_id: str
    name: str
    token: str


def _env(name: str, default: str) -> str:
    return os.environ.get(name) or default


class Tabletop:
    """A client of the three services. ``token``: the bearer token of the player (or bot seat)
    this client acts as; ``register`` sets it."""

    def __init__(self, matchmaking_url: str | None = None, rules_url: str | None = None,
                 scoring_url: str | None = None, *, token: str | None = None, timeout: float = 30,
                 retries: int = 4, backoff: float = 0.25, session: requests.Session | None = None):
        self.matchmaking_url = (matchmaking_url or _env("MATCHMAKING_URL", "http://127.0.0.1:8001")).rstrip("/")
        self.rules_url = (rules_url or _env("RULES_URL", "http://127.0.0.1:8002")).rstrip("/")
        self.scoring_url = (scoring_url or _env("SCORING_URL", "http://127.0.0.1:8003")).rstrip("/")
        self.token = token
        self.timeout, self.retries, self.backoff = timeout, retries, backoff
        self.http = session or requests.Session()

    def as_token(self, token: str | None) -> Tabletop:
        """Another client for the same servers acting with ``token`` (sharing the connection pool)."""
        return Tabletop(self.matchmaking_url, self.rules_url, self.scoring_url, token=token, timeout=self.timeout,
                        retries=self.retries, backoff=self.backoff, session=self.http)

    # ----- transport ---------------------------------------------------------------------------
    def headers(self, extra: dict | None = None) -> dict:
        h = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        h.update(extra or {})
        return h

    def send(self, method: str, url: str, **kw) -> requests.Response:
        """One raw request with this client's token (no retries, no error mapping)."""
        kw.setdefault("timeout", self.timeout)
        return self.http.request(method, url, headers=self.headers(kw.pop("headers", None)), **kw)

    def _call(self, method: str, url: str, *, retry: bool = True, expect_json: bool = True, **kw):
        """The request with retries of what may succeed later; raises ApiProblem or Unavailable."""
        attempts = self.retries + 1 if retry else 1
        last_error: Exception | None = None
        for attempt in range(attempts):
            try:
                resp = self.send(method, url, **kw)
            except (requests.ConnectionError, requests.Timeout) as err:
                last_error = err
            else:
                if resp.status_code < 400:
                    if not expect_json:
                        return resp
                    return resp.json() if resp.content else None
                if resp.status_code not in RETRY_STATUS and resp.status_code < 500:
                    raise ApiProblem.from_response(resp)
                last_error = ApiProblem.from_response(resp)
                if last_error.type == DAMAGED_LOG:  # the stored log is damaged: no retry mends it
                    raise last_error
                if attempt + 1 < attempts and resp.headers.get("Retry-After", "").isdigit():
                    time.sleep(min(float(resp.headers["Retry-After"]), 30))
                    continue
            if attempt + 1 < attempts:
                time.sleep(self.backoff * 2 ** attempt)
        if isinstance(last_error, ApiProblem):
            raise last_error
        raise Unavailable(f"{method} {url}: {last_error}") from last_error

    def _mm(self, path: str) -> str:
        return f"{self.matchmaking_url}{path}"

    def _rules(self, path: str) -> str:
        return f"{self.rules_url}{path}"

    def _match(self, match_id: str, tail: str = "") -> str:
        return self._rules(f"/v1/matches/{quote(match_id, safe='')}{tail}")

    @staticmethod
    def _params(**kw) -> dict:
        return {k: v for k, v in kw.items() if v is not None}

    # ----- every service ----------------------------------------------------------------------
    def service_url(self, service: str) -> str:
        """The base URL of "matchmaking", "rules" or "scoring"."""
        return {"matchmaking": self.matchmaking_url, "rules": self.rules_url, "scoring": self.scoring_url}[service]

    def ready(self, service: str) -> bool:
        """``GET /readyz``: the service is up and reaches its Redis (False when not, or unreachable)."""
        try:
            return self.send("GET", f"{self.service_url(service)}/readyz", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def openapi(self, service: str) -> dict:
        """The service's OpenAPI document."""
        return self._call("GET", f"{self.service_url(service)}/openapi.json")

    # ----- matchmaking -------------------------------------------------------------------------
    def games(self) -> list[dict]:
        return self._call("GET", self._mm("/v1/games"))["games"]

    def register(self, name: str, *, use: bool = True) -> Player:
        """A new player; with ``use`` this client acts as that player from now on."""
        body = self._call("POST", self._mm("/v1/players"), json={"name": name}, retry=False)
        player = Player(body["player_id"], body["name"], body["token"])
        if use:
            self.token = player.token
        return player

    def rotate_token(self) -> str:
        """A new token for this player; every older one stops working. This client uses the new one."""
        body = self._call("POST", self._mm("/v1/players/me/token"), json={}, retry=False)
        self.token = body["token"]
        return self.token

    def me(self) -> dict:
        """The player this client's token belongs to (``GET /v1/players/me``)."""
        return self._call("GET", self._mm("/v1/players/me"))

    def player(self, player_id: str) -> dict:
        return self._call("GET", self._mm(f"/v1/players/{player_id}"))

    def create_table(self, game: str, seats: list[dict], options: dict | None = None,
                     turn_seconds: float | None = None) -> dict:
        """Seat players and bots: ``{"match_id", ...}`` when the match started, ``{"table_id",
        "status": "open", ...}`` when seats are open or invitations pending."""
        body = self._params(game=game, seats=seats, options=options or {}, turn_seconds=turn_seconds)
        return self._call("POST", self._mm("/v1/tables"), json=body, retry=False)

    def tables(self, game: str | None = None, *, invited: str | None = None, host: str | None = None,
               cursor: str | None = None, limit: int | None = None) -> list[dict]:
        """Open tables (one page; ``invited="me"``: the tables that invite you)."""
        return self._call("GET", self._mm("/v1/tables"),
                          params=self._params(game=game, invited=invited, host=host, cursor=cursor, limit=limit))

    def table(self, table_id: str) -> dict:
        return self._call("GET", self._mm(f"/v1/tables/{table_id}"))

    def join_table(self, table_id: str, seat: int | None = None) -> dict:
        return self._call("POST", self._mm(f"/v1/tables/{table_id}/join"), json=self._params(seat=seat), retry=False)

    def leave_table(self, table_id: str) -> dict:
        return self._call("POST", self._mm(f"/v1/tables/{table_id}/leave"), json={}, retry=False)

    def decline_table(self, table_id: str) -> dict:
        """Decline an invitation to this table."""
        return self._call("POST", self._mm(f"/v1/tables/{table_id}/decline"), json={}, retry=False)

    def cancel_table(self, table_id: str) -> None:
        """The host cancels an open table."""
        self._call("DELETE", self._mm(f"/v1/tables/{table_id}"), retry=False, expect_json=False)

    def start_table(self, table_id: str, fill_with_bots: str | None = None) -> dict:
        return self._call("POST", self._mm(f"/v1/tables/{table_id}/start"),
                          json={"fill_with_bots": fill_with_bots}, retry=False)

    def enqueue(self, game: str, players: int, options: dict | None = None,
                bot_fill_after_s: float | None = None) -> str:
        """Join the rating-aware queue; the ticket id."""
        body = {"game": game, "players": players, "options": options or {}, "bot_fill_after_s": bot_fill_after_s}
        return self._call("POST", self._mm("/v1/queue"), json=body, retry=False)["ticket_id"]

    def ticket(self, ticket_id: str) -> dict:
        return self._call("GET", self._mm(f"/v1/queue/{ticket_id}"))

    def cancel_ticket(self, ticket_id: str) -> None:
        self._call("DELETE", self._mm(f"/v1/queue/{ticket_id}"), expect_json=False)

    def my_stream(self, last_event_id: str | None = None,
                  on_open: Callable[[], None] | None = None) -> Iterator[ServerEvent]:
        """The per-player stream (your turn, match started or ended, invitations), reconnecting;
        ``on_open`` is called each time the stream is (re)opened, before its first event."""
        return self._sse(self._mm("/v1/players/me/stream"), last_event_id, forever=True, on_open=on_open)

    # ----- rules: finding matches ------------------------------------------------------------
    def matches(self, *, game: str | None = None, player: str | None = None, status: str | None = None,
                since: float | str | None = None, until: float | str | None = None, cursor: str | None = None,
                limit: int | None = None) -> MatchPage:
        """One page of the match index, newest first."""
        params = self._params(game=game, player=player, status=status, since=since, until=until, cursor=cursor,
                              limit=limit)
        return self._call("GET", self._rules("/v1/matches"), params=params)

    def iter_matches(self, **filters) -> Iterator[MatchItem]:
        """Every match of the index that passes ``filters`` (as for ``matches``), page after page."""
        cursor = None
        while True:
            page = self.matches(cursor=cursor, **filters)
            yield from page["matches"]
            cursor = page["next_cursor"]
            if not cursor:
                return

    def player_matches(self, player_id: str, *, status: str | None = None, cursor: str | None = None,
                       limit: int | None = None) -> MatchPage:
        return self._call("GET", self._rules(f"/v1/players/{player_id}/matches"),
                          params=self._params(status=status, cursor=cursor, limit=limit))

    # ----- rules: one match --------------------------------------------------------------------
    def match(self, match_id: str) -> MatchSummary:
        return self._call("GET", self._match(match_id))

    def view(self, match_id: str, at: int | None = None) -> View:
        return self._call("GET", self._match(match_id, "/view"), params=self._params(at=at))

    def legal_moves(self, match_id: str) -> LegalMoves:
        return self._call("GET", self._match(match_id, "/legal-moves"))

    def turn(self, match_id: str) -> dict:
        """Everything this client's seat needs to decide, at one version: ``version``, ``state``
        (its view), ``moves`` (its legal moves, empty when it need not act) and ``undoing`` (the
        positions of those that only undo a step; ``playable(turn)`` leaves them out)."""
        return self._call("GET", self._match(match_id, "/turn"))

    def move(self, match_id: str, move: Move, expected_version: int, idempotency_key: str | None = None) -> MoveResult:
        """Make a move. Retried (connection errors, 429, 5xx) under one Idempotency-Key, so it is
        applied at most once; ``ApiProblem`` with ``stale`` set when the version moved on."""
        key = idempotency_key or uuid.uuid4().hex
        return self._call("POST", self._match(match_id, "/moves"), json={"move": move, "expected_version": expected_version},
                          headers={"Idempotency-Key": key})

    def resign(self, match_id: str) -> MoveResult:
        return self._call("POST", self._match(match_id, "/resign"), retry=False)

    def events(self, match_id: str, after: int = 0, limit: int = 100) -> EventsPage:
        return self._call("GET", self._match(match_id, "/events"), params={"after": after, "limit": limit})

    def all_events(self, match_id: str, after: int = 0) -> Iterator[dict]:
        """Every event after ``after``, page after page (redacted for this client's seat)."""
        while True:
            page = self.events(match_id, after=after, limit=1000)
            yield from page["events"]
            if len(page["events"]) < 1000:
                return
            after = page["next_after"]

    def stream(self, match_id: str, after: int | None = None) -> Iterator[dict]:
        """The match's events as they are appended (each as ``events`` shows it), from ``after``;
        ends after the last event of a match that is over; reconnects when a connection drops."""
        for message in self._sse(self._match(match_id, "/stream"), str(after) if after else None, forever=False):
            yield message.data

    def turn_stream(self, match_id: str) -> Iterator[dict]:
        """Your seat's state stream: what ``turn`` answers (``version``, ``seat``, ``to_act``,
        ``status``, ``state``, ``moves``, ``deadlines``?), first the current state, then at each
        new version, so a bot needs no other read: post one of ``moves`` with
        ``expected_version=turn["version"]`` (``moves`` is empty when the seat need not act). Ends
        after the message of a match that is over; reconnects when the connection drops or the
        server ends the stream of an active match, and never yields a version twice."""
        last = -1
        for message in self._sse(self._match(match_id, "/turn/stream"), None, forever=True):
            turn = message.data
            if turn["version"] > last:
                last = turn["version"]
                yield turn
            if turn["status"] != "active":
                return

    def audit(self, match_id: str) -> Audit:
        return self._call("GET", self._match(match_id, "/audit"))

    def export(self, match_id: str) -> Iterator[bytes]:
        """The NDJSON export of a finished or aborted match, line by line."""
        resp = self._call("GET", self._match(match_id, "/export"), expect_json=False, stream=True)
        with resp:
            for line in resp.iter_lines():
                if line:
                    yield line + b"\n"

    def download_export(self, match_id: str, path: str | Path) -> Path:
        """Save the export to ``path``; the path."""
        path = Path(path)
        with open(path, "wb") as f:
            f.writelines(self.export(match_id))
        return path

    # ----- scoring -------------------------------------------------------------------------------
    def result(self, match_id: str) -> dict:
        return self._call("GET", f"{self.scoring_url}/v1/results/{match_id}")

    def leaderboard(self, game: str, limit: int | None = None) -> dict:
        return self._call("GET", f"{self.scoring_url}/v1/leaderboards/{game}", params=self._params(limit=limit))

    def ratings(self, player_id: str) -> dict:
        return self._call("GET", f"{self.scoring_url}/v1/players/{player_id}/ratings")

    # ----- server-sent events --------------------------------------------------------------------
    def _sse(self, url: str, last_event_id: str | None, *, forever: bool,
             on_open: Callable[[], None] | None = None) -> Iterator[ServerEvent]:
        """Messages of an event stream; on a dropped connection, reconnect with Last-Event-ID.
        ``forever``: also reconnect when the server ends the stream normally."""
        failures = 0
        while True:
            headers = {"Accept": "text/event-stream"}
            if last_event_id:
                headers["Last-Event-ID"] = last_event_id
            try:
                resp = self.send("GET", url, headers=headers, stream=True, timeout=(self.timeout, None))
                if resp.status_code >= 400:
                    problem = ApiProblem.from_response(resp)
                    resp.close()
                    if resp.status_code not in RETRY_STATUS and resp.status_code < 500:
                        raise problem
                    raise requests.ConnectionError(str(problem))
                with resp:
                    if on_open is not None:
                        on_open()
                    for message in iter_sse(resp.iter_lines(decode_unicode=True)):
                        failures = 0
                        if message.id is not None:
                            last_event_id = message.id
                        yield message
                if not forever:
                    return
            except (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError) as err:
                failures += 1
                if failures > self.retries:
                    raise Unavailable(f"GET {url}: {err}") from err
                time.sleep(self.backoff * 2 ** (failures - 1))
