"""The matchmaking service: players and tokens, games, tables and the queue."""
from __future__ import annotations

import logging
from collections.abc import Iterator

import redis
from flask import current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from shared import paging
from shared.auth import auth_migrations
from shared.bots import levels
from shared import stream_format
from shared.config import Config, load, store_client
from shared.engine import registry
from shared.migrations import ensure
from shared.held_streams import Held, HeldStreams, Pacing
from shared.web import PROBLEM, REDIS_OUTAGE, ApiError, authenticated, create_base_app, error_responses, principal

from . import schemas as s
from .forming import Former
from .inbox import Inbox, parse_last_event_id
from .inbox_feed import InboxListener
from .migrations import MIGRATIONS
from .players import Players
from .queue import Queue
from .settings import Limits
from .tables import Tables
from .tournaments.routes import blp as tournaments_blp
from .tournaments.service import Tournaments

log = logging.getLogger("matchmaking")
REDIS_CONNECTIONS = 64   # per process
REDIS_WAIT_S = 10        # a request waits this long for a free connection, then answers 503
blp = Blueprint("matchmaking", __name__, url_prefix="/v1", description="Players, games, tables and the queue")


def _ext(name):
    return current_app.extensions[name]


def player_auth(func):
    """The operation needs a player's token (401 without a valid one; 403 for a bot's token)."""
    return authenticated(blp)(error_responses(blp, 403)(func))


def _player_id() -> str:
    who = principal(required=True)
    if who.is_bot:
        raise ApiError(403, "Forbidden", "bot tokens cannot use matchmaking", "bot-token")
    return who.player_id


@blp.route("/games")
class GamesResource(MethodView):
    @blp.response(200, s.GamesOut)
    def get(self):
        """Every game the server hosts, with its player counts, options and bot levels (weakest first,
        each with its measured win rates against the level below)."""
        return {"games": [{**g.describe(), "versions": registry.versions(g.id), "bot_levels": levels.describe(g.id),
                           "calibration": levels.calibration(g.id)} for g in registry.all_games()]}


@blp.route("/players")
class PlayersResource(MethodView):
    @blp.arguments(s.PlayerIn)
    @blp.response(201, s.PlayerOut)
    @blp.alt_response(409, description="the name is taken", content_type=PROBLEM)
    @blp.alt_response(422, description="the name is invalid (the reason in detail)", content_type=PROBLEM)
    def post(self, body):
        """Register a player; the answer holds its bearer token (keep it secret; it expires after
        TOKEN_TTL_S, 30 days by default)."""
        player = _ext("players").create(body["name"])
        token = _ext("tokens").for_player(player["player_id"])
        return {**player, "token": token, "token_expires_at": _ext("tokens").verify(token).expires_at}


@blp.route("/players/me")
class MeResource(MethodView):
    @player_auth
    @blp.response(200, s.PlayerOut)
    @blp.alt_response(404, description="the token's player no longer exists", content_type=PROBLEM)
    def get(self):
        """Who your token names: your player id, name and when the token expires (Unix time)."""
        who = principal(required=True)
        if who.is_bot:
            raise ApiError(403, "Forbidden", "bot tokens cannot use matchmaking", "bot-token")
        player = _ext("players").get(who.player_id)
        if player is None:
            raise ApiError(404, "Not Found", f"no player {who.player_id!r}", "no-such-player")
        return {**player, "token_expires_at": who.expires_at}


@blp.route("/players/me/token")
class TokenResource(MethodView):
    @player_auth
    @blp.response(201, s.TokenOut)
    def post(self):
        """Rotate your token: the answer holds a new one; every older token of yours stops working at once."""
        player_id = _player_id()
        token = _ext("tokens").rotate(player_id)
        return {"player_id": player_id, "token": token, "token_expires_at": _ext("tokens").verify(token).expires_at}


@blp.route("/players/me/stream")
class PlayerStreamResource(MethodView):
    @player_auth
    @blp.doc(responses={200: {"description": (
        "One message per event (id = the event's id; event = its type; data = JSON): invitation, "
        "invitation_expired, invitation_withdrawn, invitation_declined (to the host), match_started, "
        "your_turn, match_ended, tournament_invitation, tournament_pairing. Server-sent events by default; `Accept: application/x-ndjson` for NDJSON "
        "(one `{\"id\", \"event\", \"data\"}` object a line, empty lines as keep-alives). Resumable with "
        "Last-Event-ID (or ?after=); without it, only new events. Keep-alives every SSE_KEEPALIVE_S when "
        "quiet; the stream stays open as long as the client keeps it, and ends within STREAM_RECHECK_S "
        "seconds of its token being rotated, revoked or expiring."), "content": stream_format.OPENAPI_CONTENT},
        400: {"description": "a bad Last-Event-ID", "content": {PROBLEM: {}}},
        401: {"description": "no valid token", "content": {PROBLEM: {}}},
        429: {"description": "too many streams opened (the rate limit) or held at once by this player "
                             "(MAX_STREAMS_PER_PLAYER, 32 by default); Retry-After", "content": {PROBLEM: {}}}},
        parameters=[
            {"in": "header", "name": "Last-Event-ID", "required": False, "schema": {"type": "string"},
             "description": "resume after this event (the `id` of the last message received, such as "
                            "`1796111447832-0`); without it (and without `after`), only new events"},
            {"in": "query", "name": "after", "required": False, "schema": {"type": "string"},
             "description": "the same as Last-Event-ID, for clients that cannot set headers (EventSource)"}])
    def get(self):
        """Your events across every match and table, as server-sent events or NDJSON (token required)."""
        player_id = _player_id()
        inbox = _ext("inbox")
        raw = request.headers.get("Last-Event-ID") or request.args.get("after")
        after = parse_last_event_id(raw) if raw else inbox.head(player_id)
        fmt = stream_format.wanted()
        streams = _ext("held_streams")
        held = streams.claim(principal(required=True), request.remote_addr)
        answer = stream_format.response(_player_events(held, player_id, after, fmt), fmt)
        answer.call_on_close(lambda: streams.release(held))  # also when the stream never started
        return answer


def _player_events(held: Held, player_id: str, after: str, fmt: str) -> Iterator[str]:
    """The per-player stream's messages after ``after``, until the client leaves or its token ends."""
    listener, inbox, streams, config = _ext("inbox_listener"), _ext("inbox"), _ext("held_streams"), _ext("config")
    pacing = Pacing(config.sse_keepalive_s, config.stream_recheck_s)
    try:
        with listener.watch(player_id) as feed:
            yield stream_format.opening(fmt)
            while not held.ended:
                got = feed.after(after)
                if got is None:  # further behind than the feed reaches: from the inbox itself
                    try:
                        got = inbox.read(player_id, after)
                    except REDIS_OUTAGE:  # headers are sent: end; the client resumes from its last id
                        log.warning("player stream of %s ends: redis is unavailable", player_id)
                        return
                for entry_id, kind, data in got:
                    yield stream_format.encode(entry_id, kind, data).as_(fmt)
                    after = entry_id
                if got:
                    pacing.sent()
                elif not feed.wait_beyond(after, pacing.wait_s()) and pacing.keepalive_due():
                    yield stream_format.keepalive(fmt)
                    pacing.sent()
            log.info("player stream of %s ends: %s", player_id, held.reason)
    finally:
        streams.release(held)


@blp.route("/players/<player_id>")
class PlayerResource(MethodView):
    @blp.response(200, s.PlayerOut)
    @error_responses(blp, 404)
    def get(self, player_id):
        """A player's public profile."""
        player = _ext("players").get(player_id)
        if player is None:
            raise ApiError(404, "Not Found", f"no player {player_id!r}", "no-such-player")
        return player


@blp.route("/tables")
class TablesResource(MethodView):
    @player_auth
    @blp.arguments(s.TableIn)
    @blp.response(201, s.TableOut)
    @blp.alt_response(422, description="unknown game, bad seat count, bad options or seats", content_type=PROBLEM)
    @blp.alt_response(429, description="you host the most open tables allowed (MAX_OPEN_TABLES)", content_type=PROBLEM)
    def post(self, body):
        """Create a table. Seats: yourself ({"player_id": your id}), bots, open seats, and other players,
        who are invited (the seat is reserved for them until INVITE_TTL_S passes; they sit by
        POST /v1/tables/{id}/join or decline). Only you and bots: the match starts at once (answer has
        match_id). Otherwise the table is open (answer has table_id, status "open") and the match starts
        when every seat is taken, or when you start it with bots in the open seats."""
        return _ext("tables").create(_player_id(), body)

    @authenticated(blp, optional=True)
    @blp.arguments(s.TablesArgs, location="query")
    @blp.response(200, s.TableOut(many=True), headers=paging.HEADERS)
    def get(self, args):
        """Open tables, oldest first, one page (a JSON list, as before paging existed). Filters: game,
        host, invited=me. Paging: limit (at most 200) and cursor; the next page is in the Link header
        (rel="next") and its cursor in X-Next-Cursor."""
        invited = _player_id() if args.get("invited") == "me" else None
        page, next_cursor = _ext("tables").list_open(game=args.get("game"), host=args.get("host"), invited=invited,
                                                     cursor=args.get("cursor"), limit=args["limit"])
        return page, 200, paging.next_page_headers(next_cursor, args["limit"])


@blp.route("/tables/<table_id>")
class TableResource(MethodView):
    @blp.response(200, s.TableOut)
    @blp.alt_response(404, description="no such table", content_type=PROBLEM)
    def get(self, table_id):
        """One table: status open (waiting), starting, started (with match_id), expired or cancelled."""
        return Tables.present(_ext("tables").get(table_id))

    @player_auth
    @blp.response(204)
    @blp.alt_response(403, description="only the host cancels a table", content_type=PROBLEM)
    @blp.alt_response(404, description="no such table", content_type=PROBLEM)
    @blp.alt_response(409, description="the table is no longer open", content_type=PROBLEM)
    def delete(self, table_id):
        """The host cancels a table that has not started; pending invitations are withdrawn."""
        _ext("tables").cancel(table_id, _player_id())


@blp.route("/tables/<table_id>/join")
class JoinResource(MethodView):
    @player_auth
    @blp.arguments(s.JoinIn)
    @blp.response(200, s.TableOut)
    @blp.alt_response(404, description="no such table", content_type=PROBLEM)
    @blp.alt_response(409, description="the table is closed, full, or the seat is not yours to take", content_type=PROBLEM)
    def post(self, body, table_id):
        """Accept your invitation (take the seat reserved for you) or take an open seat (a given one, or
        the first). When this fills the last seat the match starts (answer has match_id)."""
        return _ext("tables").join(table_id, _player_id(), body.get("seat"))


@blp.route("/tables/<table_id>/decline")
class DeclineResource(MethodView):
    @player_auth
    @blp.response(200, s.TableOut)
    @blp.alt_response(404, description="no such table", content_type=PROBLEM)
    @blp.alt_response(409, description="no pending invitation of yours at this table", content_type=PROBLEM)
    def post(self, table_id):
        """Decline your invitation: the seat becomes open and the host is told."""
        return _ext("tables").decline(table_id, _player_id())


@blp.route("/tables/<table_id>/leave")
class LeaveResource(MethodView):
    @player_auth
    @blp.response(200, s.TableOut)
    @blp.alt_response(404, description="no such table", content_type=PROBLEM)
    @blp.alt_response(409, description="the table has started or closed, or you do not sit at it", content_type=PROBLEM)
    def post(self, table_id):
        """Give up your seat at a table that has not started."""
        return _ext("tables").leave(table_id, _player_id())


@blp.route("/tables/<table_id>/start")
class StartResource(MethodView):
    @player_auth
    @blp.arguments(s.StartIn)
    @blp.response(200, s.TableOut)
    @blp.alt_response(403, description="only the host starts a table", content_type=PROBLEM)
    @blp.alt_response(404, description="no such table", content_type=PROBLEM)
    @blp.alt_response(409, description="the table is closed, a seat is open without fill_with_bots, or an invitation "
                      "is pending", content_type=PROBLEM)
    def post(self, body, table_id):
        """The host starts the table; open seats are filled with bots of the given level if asked. Refused
        (409) while an invitation is pending: a reserved seat is never filled without its invitee."""
        return _ext("tables").start(table_id, _player_id(), body.get("fill_with_bots"))


@blp.route("/queue")
class QueueResource(MethodView):
    @player_auth
    @blp.arguments(s.QueueIn)
    @blp.response(202, s.TicketOut)
    @blp.alt_response(409, description="you already have a live ticket in this pool", content_type=PROBLEM)
    @blp.alt_response(429, description="you hold the most live tickets allowed (MAX_LIVE_TICKETS)",
                      content_type=PROBLEM)
    def post(self, body):
        """Wait for a match with players of similar rating."""
        return _ext("queue").enqueue(_player_id(), body)


@blp.route("/queue/<ticket_id>")
class TicketResource(MethodView):
    @player_auth
    @blp.response(200, s.TicketOut)
    @blp.alt_response(403, description="the ticket is not yours", content_type=PROBLEM)
    @blp.alt_response(404, description="no such ticket", content_type=PROBLEM)
    def get(self, ticket_id):
        """A ticket: waiting, matched (with match_id and seat) or cancelled."""
        player_id = _player_id()
        ticket = _ext("queue").get(ticket_id)
        if ticket["player_id"] != player_id:
            raise ApiError(403, "Forbidden", "this ticket is not yours", "not-your-ticket")
        return _ext("queue").present(ticket)

    @player_auth
    @blp.response(204)
    @blp.alt_response(403, description="the ticket is not yours", content_type=PROBLEM)
    @blp.alt_response(404, description="no such ticket", content_type=PROBLEM)
    @blp.alt_response(409, description="the ticket is already matched", content_type=PROBLEM)
    def delete(self, ticket_id):
        """Cancel a waiting ticket."""
        _ext("queue").cancel(ticket_id, _player_id())


def migrate(client: redis.Redis) -> None:
    """Bring matchmaking's data (and the tokens it issues) to this release's schema, once."""
    ensure(client, "auth", auth_migrations())
    ensure(client, "matchmaking", MIGRATIONS)


def build(client: redis.Redis, config: Config, limits: Limits | None = None) -> dict:
    limits = limits or Limits()
    migrate(client)
    players = Players(client)
    former = Former(client, config.rules_url, config.table_wait_s)
    inbox = Inbox(client)
    return {"players": players, "inbox": inbox, "limits": limits, "config": config,
            "inbox_listener": InboxListener(config, inbox.head),
            "held_streams": HeldStreams(client, "matchmaking", per_player=config.max_streams_per_player,
                                        per_address=config.max_streams_per_address,
                                        recheck_s=config.stream_recheck_s),
            "tables": Tables(client, players, former, inbox, limits),
            "tournaments": Tournaments(client, players, former, inbox),
            "queue": Queue(client, players, former, max_live_tickets=limits.max_live_tickets)}


def create_app(config: Config | None = None):
    config = config or load()
    # a bounded pool that waits: a burst of requests (hundreds of streams opening at once) queues
    # for a connection instead of failing on redis-py's default cap of 100
    client = store_client(config, max_connections=REDIS_CONNECTIONS, wait_s=REDIS_WAIT_S)
    app, api = create_base_app("matchmaking", config, client)
    registry.load_all()
    app.extensions.update(build(client, config))
    api.register_blueprint(blp)
    api.register_blueprint(tournaments_blp)
    return app
