"""Request and response schemas of the matchmaking service."""
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

BOT_LEVELS = ("random", "greedy", "search")


class PlayerIn(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64))


class PlayerOut(Schema):
    player_id = fields.String()
    name = fields.String()
    token = fields.String()


class SeatIn(Schema):
    player_id = fields.String()
    bot = fields.String(validate=validate.OneOf(BOT_LEVELS))
    open = fields.Boolean()

    @validates_schema
    def one_kind(self, data, **_):
        kinds = [k for k in ("player_id", "bot") if k in data] + (["open"] if data.get("open") else [])
        if len(kinds) != 1:
            raise ValidationError('a seat is {"player_id": ...}, {"bot": "random"|"greedy"|"search"} or {"open": true}')


class TableIn(Schema):
    game = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatIn), required=True, validate=validate.Length(min=1, max=8))
    options = fields.Dict(load_default=dict)
    turn_seconds = fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=1, max=7 * 24 * 3600))


class SeatOut(Schema):
    seat = fields.Integer()
    player_id = fields.String()
    name = fields.String()
    bot = fields.String()
    open = fields.Boolean()


class TableOut(Schema):
    match_id = fields.String()
    table_id = fields.String()
    game = fields.String()
    status = fields.String()
    host = fields.String()
    options = fields.Dict()
    turn_seconds = fields.Float(allow_none=True)
    seats = fields.List(fields.Nested(SeatOut))


class TablesArgs(Schema):
    game = fields.String()


class JoinIn(Schema):
    seat = fields.Integer(validate=validate.Range(min=0))


class StartIn(Schema):
    fill_with_bots = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(BOT_LEVELS))


class GameOut(Schema):
    id = fields.String()
    title = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    version = fields.String()
    options = fields.Dict()


class GamesOut(Schema):
    games = fields.List(fields.Nested(GameOut))


class QueueIn(Schema):
    game = fields.String(required=True)
    players = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=8))
    options = fields.Dict(load_default=dict)
    bot_fill_after_s = fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=0))
    turn_seconds = fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=1, max=7 * 24 * 3600))


class TicketOut(Schema):
    ticket_id = fields.String()
    status = fields.String()
    match_id = fields.String()
    seat = fields.Integer()
    game = fields.String()
    players = fields.Integer()
    waited_s = fields.Float()
