"""The matchmaking service: players and tokens, games, tables and the queue."""
from __future__ import annotations

import redis
from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from shared.config import Config, load
from shared.engine import registry
from shared.web import ApiError, create_base_app, principal

from . import schemas as s
from .forming import Former
from .players import Players
from .queue import Queue
from .tables import Tables

blp = Blueprint("matchmaking", __name__, url_prefix="/v1", description="Players, games, tables and the queue")


def _ext(name):
    return current_app.extensions[name]


def _player_id() -> str:
    who = principal(required=True)
    if who.is_bot:
        raise ApiError(403, "Forbidden", "bot tokens cannot use matchmaking", "bot-token")
    return who.player_id


@blp.route("/games")
class GamesResource(MethodView):
    @blp.response(200, s.GamesOut)
    def get(self):
        """Every game the server hosts, with its player counts and options."""
        return {"games": [g.describe() for g in registry.all_games()]}


@blp.route("/players")
class PlayersResource(MethodView):
    @blp.arguments(s.PlayerIn)
    @blp.response(201, s.PlayerOut)
    def post(self, body):
        """Register a player; the answer holds its bearer token (keep it secret)."""
        player = _ext("players").create(body["name"])
        player["token"] = _ext("tokens").for_player(player["player_id"])
        return player


@blp.route("/players/<player_id>")
class PlayerResource(MethodView):
    @blp.response(200, s.PlayerOut)
    def get(self, player_id):
        """A player's public profile."""
        player = _ext("players").get(player_id)
        if player is None:
            raise ApiError(404, "Not Found", f"no player {player_id!r}", "no-such-player")
        return player


@blp.route("/tables")
class TablesResource(MethodView):
    @blp.arguments(s.TableIn)
    @blp.response(201, s.TableOut)
    def post(self, body):
        """Seat players and bots. All seats filled: the match starts (answer has match_id). Open seats:
        the table waits for players (answer has table_id, status "open")."""
        return _ext("tables").create(_player_id(), body)

    @blp.arguments(s.TablesArgs, location="query")
    @blp.response(200, s.TableOut(many=True))
    def get(self, args):
        """Tables waiting for players."""
        return _ext("tables").list_open(args.get("game"))


@blp.route("/tables/<table_id>")
class TableResource(MethodView):
    @blp.response(200, s.TableOut)
    def get(self, table_id):
        """One table."""
        return Tables.present(_ext("tables").get(table_id))


@blp.route("/tables/<table_id>/join")
class JoinResource(MethodView):
    @blp.arguments(s.JoinIn)
    @blp.response(200, s.TableOut)
    def post(self, body, table_id):
        """Take an open seat (a given one, or the first)."""
        return _ext("tables").join(table_id, _player_id(), body.get("seat"))


@blp.route("/tables/<table_id>/leave")
class LeaveResource(MethodView):
    @blp.response(200, s.TableOut)
    def post(self, table_id):
        """Give up your seat at a table that has not started."""
        return _ext("tables").leave(table_id, _player_id())


@blp.route("/tables/<table_id>/start")
class StartResource(MethodView):
    @blp.arguments(s.StartIn)
    @blp.response(200, s.TableOut)
    def post(self, body, table_id):
        """The host starts the table; open seats are filled with bots of the given level if asked."""
        return _ext("tables").start(table_id, _player_id(), body.get("fill_with_bots"))


@blp.route("/queue")
class QueueResource(MethodView):
    @blp.arguments(s.QueueIn)
    @blp.response(202, s.TicketOut)
    def post(self, body):
        """Wait for a match with players of similar rating."""
        return _ext("queue").enqueue(_player_id(), body)


@blp.route("/queue/<ticket_id>")
class TicketResource(MethodView):
    @blp.response(200, s.TicketOut)
    def get(self, ticket_id):
        """A ticket: waiting, matched (with match_id and seat) or cancelled."""
        player_id = _player_id()
        ticket = _ext("queue").get(ticket_id)
        if ticket["player_id"] != player_id:
            raise ApiError(403, "Forbidden", "this ticket is not yours", "not-your-ticket")
        return _ext("queue").present(ticket)

    @blp.response(204)
    def delete(self, ticket_id):
        """Cancel a waiting ticket."""
        _ext("queue").cancel(ticket_id, _player_id())


def build(client: redis.Redis, config: Config) -> dict:
    players = Players(client)
    former = Former(client, config.rules_url, config.table_wait_s)
    return {"players": players, "tables": Tables(client, players, former), "queue": Queue(client, players, former)}


def create_app(config: Config | None = None):
    config = config or load()
    client = redis.Redis.from_url(config.redis_url)
    app, api = create_base_app("matchmaking", config, client)
    registry.load_all()
    app.extensions.update(build(client, config))
    api.register_blueprint(blp)
    return app
