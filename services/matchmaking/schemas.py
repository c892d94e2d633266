"""Request and response schemas of the matchmaking service."""
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

BOT_LEVELS = ("random", "greedy", "search")


class PlayerIn(Schema):
    name = fields.String(required=True, metadata={"description": (
        "1 to 32 printable characters, no control or format (bidirectional) characters, no leading or "
        "trailing white space, not beginning with 'bot:'; unique case-insensitively after NFKC "
        "normalisation (409 when taken, 422 with the reason when invalid)")})


class PlayerOut(Schema):
    player_id = fields.String()
    name = fields.String()
    token = fields.String()
    token_expires_at = fields.Float(metadata={"description": "when the token stops working (Unix time)"})


class TokenOut(Schema):
    player_id = fields.String()
    token = fields.String()
    token_expires_at = fields.Float()


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
    invite_ttl_s = fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=1), metadata={
        "description": "how long the invitations stay open, in seconds (at most INVITE_TTL_S, its default)"})


class SeatOut(Schema):
    seat = fields.Integer()
    player_id = fields.String(metadata={"description": "the player sitting here (the host, or one who accepted)"})
    invited = fields.String(metadata={"description": "the player this seat is reserved for (a pending invitation)"})
    expires_at = fields.Float(metadata={"description": "when the invitation lapses (Unix time)"})
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
    created_at = fields.Float()
    seats = fields.List(fields.Nested(SeatOut))


class TablesArgs(Schema):
    game = fields.String(metadata={"description": "only tables of this game"})
    host = fields.String(metadata={"description": "only tables of this host (a player id)"})
    invited = fields.String(validate=validate.Equal("me"), metadata={
        "description": "'me': only tables with an invitation pending for the caller (needs a token)"})
    cursor = fields.String(validate=validate.Length(max=400), metadata={
        "description": "the next page: the X-Next-Cursor header (or Link rel=next) of the previous answer"})
    limit = fields.Integer(load_default=200, validate=validate.Range(min=1, max=200))


class JoinIn(Schema):
    seat = fields.Integer(validate=validate.Range(min=0))


class StartIn(Schema):
    fill_with_bots = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(BOT_LEVELS))


class LevelRecordOut(Schema):
    level = fields.String(metadata={"description": "the level below, the opponent"})
    players = fields.Integer()
    matches = fields.Integer()
    win_rate = fields.Float(metadata={"description": "share of seat-rotated matches won against the level below"})
    ci95 = fields.List(fields.Float(), metadata={"description": "95% Wilson interval of win_rate"})
    fair_share = fields.Float(metadata={"description": "what an equal player would win (one over the sides)"})
    options = fields.Dict()


class BotLevelOut(Schema):
    level = fields.String()
    description = fields.String()
    against_level_below = fields.List(fields.Nested(LevelRecordOut))


class GameOut(Schema):
    id = fields.String()
    title = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    version = fields.String(metadata={"description": "the newest engine version: what a new match is played with"})
    versions = fields.List(fields.String(), metadata={
        "description": "every installed engine version, oldest first: a match keeps the one it started with"})
    options = fields.Dict()
    bot_levels = fields.List(fields.Nested(BotLevelOut), metadata={
        "description": "the bot levels, weakest first, with measured win rates against the level below"})
    calibration = fields.Dict(metadata={
        "description": "the leaderboard calibration run of the bot levels: matches played and ratings"})


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
