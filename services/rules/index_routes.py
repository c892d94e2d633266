"""The match index over HTTP: ``GET /v1/matches`` and ``GET /v1/players/{id}/matches``."""
from __future__ import annotations

import math
from datetime import datetime, timezone

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate

from shared import paging
from shared.engine import registry
from shared.web import ApiError

from .index import STATUSES, BadCursor, MatchIndex

blp = Blueprint("match-index", __name__, url_prefix="/v1/matches", description="The match index: find matches")
players_blp = Blueprint("player-matches", __name__, url_prefix="/v1/players", description="A player's match history")


class Instant(fields.Field):
    """A point in time: unix seconds, or an ISO 8601 date-time (UTC unless it names a zone)."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            number = float(value)
        except (TypeError, ValueError):
            number = None
        if number is not None:
            if not math.isfinite(number):
                raise ValidationError("a time must be a finite number of unix seconds")
            return number
        try:
            when = datetime.fromisoformat(str(value))
            return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).timestamp()
        except (ValueError, OverflowError):
            raise ValidationError("give unix seconds or an ISO 8601 date-time, e.g. 2026-12-01T08:00:00Z") from None


class PageArgs(Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    since = Instant(metadata={"description": "created at or after (unix seconds or ISO 8601)"})
    until = Instant(metadata={"description": "created at or before (unix seconds or ISO 8601)"})
    cursor = fields.String(metadata={"description": "next_cursor of the previous page"})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class IndexArgs(PageArgs):
    game = fields.String(metadata={"description": "a game id (GET /v1/games)"})
    player = fields.String(metadata={"description": "a player id: matches where the player holds a seat"})


class IndexSeat(Schema):
    seat = fields.Integer()
    player_id = fields.String()
    bot = fields.String()
    name = fields.String()


class MatchItem(Schema):
    match_id = fields.String()
    game = fields.String()
    seats = fields.List(fields.Nested(IndexSeat))
    status = fields.String()
    version = fields.Integer()
    created_at = fields.Float(metadata={"description": "unix seconds"})
    finished_at = fields.Float(allow_none=True, metadata={"description": "unix seconds; null while active"})
    result = fields.Dict(allow_none=True, metadata={"description": "the outcome (ranks, scores, ...) once finished"})


class MatchPage(Schema):
    matches = fields.List(fields.Nested(MatchItem))
    next_cursor = fields.String(allow_none=True, metadata={"description": "pass as cursor for the next page; null "
                                                                          "on the last page"})


def _page(args: dict, **filters) -> dict:
    if filters.get("game") is not None:
        known = {g.id for g in registry.all_games()}
        if filters["game"] not in known:
            raise ApiError(422, "Unprocessable Entity", f"unknown game {filters['game']!r}; games: "
                                                        f"{', '.join(sorted(known))}", "unknown-game")
    if args.get("since") is not None and args.get("until") is not None and args["since"] > args["until"]:
        raise ApiError(422, "Unprocessable Entity", "since is after until", "bad-time-range")
    index = MatchIndex(current_app.extensions["redis"])
    try:
        page = index.query(status=args.get("status"), since=args.get("since"), until=args.get("until"),
                           cursor=args.get("cursor"), limit=args["limit"], **filters)
    except BadCursor as err:
        raise ApiError(400, "Bad Request", str(err), "bad-cursor") from None
    return {"matches": page.items, "next_cursor": page.next_cursor}, 200, paging.next_page_headers(page.next_cursor,
                                                                                              args["limit"])


@blp.route("")
class MatchIndexResource(MethodView):
    @blp.arguments(IndexArgs, location="query")
    @blp.response(200, MatchPage, headers=paging.HEADERS)
    def get(self, args):
        """Matches newest first, filtered by game, player, status and creation time; cursor-paged."""
        return _page(args, game=args.get("game"), player=args.get("player"))


@players_blp.route("/<player_id>/matches")
class PlayerMatchesResource(MethodView):
    @players_blp.arguments(PageArgs, location="query")
    @players_blp.response(200, MatchPage, headers=paging.HEADERS)
    def get(self, args, player_id):
        """A player's matches, newest first (the same as ``GET /v1/matches?player=``)."""
        return _page(args, player=player_id)
