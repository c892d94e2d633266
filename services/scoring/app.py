"""The scoring service: results, ratings and leaderboards (``create_app`` is the Flask factory)."""
from __future__ import annotations

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from shared.auth import auth_migrations
from shared.config import Config, load, store_client
from shared.migrations import ensure
from shared.web import ApiError, create_base_app, error_responses

from .migrations import MIGRATIONS
from .store import ScoringStore

blp = Blueprint("scoring", __name__, url_prefix="/v1", description="Results, ratings and leaderboards")


class LimitArgs(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=1000))


class Standing(Schema):
    seat = fields.Integer()
    player_id = fields.String()
    bot = fields.String()
    rank = fields.Integer()
    score = fields.Float()
    abandoned = fields.Boolean()


class ResultOut(Schema):
    match_id = fields.String()
    game = fields.String()
    standings = fields.List(fields.Nested(Standing))
    ratings = fields.Dict(keys=fields.String(), values=fields.Dict())


class Entry(Schema):
    player_id = fields.String()
    name = fields.String()
    rating = fields.Float()
    mu = fields.Float()
    sigma = fields.Float()
    matches = fields.Integer()
    provisional = fields.Boolean()


class BoardOut(Schema):
    game = fields.String()
    entries = fields.List(fields.Nested(Entry))


class PlayerRatingsOut(Schema):
    player_id = fields.String()
    ratings = fields.Dict(keys=fields.String(), values=fields.Dict())


def _store() -> ScoringStore:
    return current_app.extensions["scoring"]


@blp.route("/results/<match_id>")
class ResultResource(MethodView):
    @blp.response(200, ResultOut)
    @error_responses(blp, 404)
    def get(self, match_id):
        """Standings and rating changes of a finished match; 404 until it is scored."""
        result = _store().result(match_id)
        if result is None:
            raise ApiError(404, "Not Found", f"match {match_id!r} has not been scored (yet)", "not-scored")
        return result


@blp.route("/leaderboards/<game>")
class BoardResource(MethodView):
    @blp.arguments(LimitArgs, location="query")
    @blp.response(200, BoardOut)
    def get(self, args, game):
        """The best-rated players and bots of a game (provisional: fewer than 5 matches)."""
        return {"game": game, "entries": _store().leaderboard(game, args["limit"])}


@blp.route("/players/<player_id>/ratings")
class PlayerResource(MethodView):
    @blp.response(200, PlayerRatingsOut)
    def get(self, player_id):
        """A player's (or ``bot:<level>``'s) rating in every game it has played."""
        return {"player_id": player_id, "ratings": _store().player_ratings(player_id)}


def migrate(client) -> None:
    """Bring scoring's data (and the tokens it checks) to this release's schema, once."""
    ensure(client, "auth", auth_migrations())
    ensure(client, "scoring", MIGRATIONS)


def create_app(config: Config | None = None):
    config = config or load()
    client = store_client(config)
    migrate(client)
    app, api = create_base_app("scoring", config, client)
    app.extensions["scoring"] = ScoringStore(client)
    api.register_blueprint(blp)
    return app
