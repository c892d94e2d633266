"""Request and response schemas of the tournament routes."""
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ..schemas import BOT_LEVELS

FORMATS = ("swiss", "round-robin", "arena")
STATUSES = ("open", "running", "finished")


class TournamentIn(Schema):
    game = fields.String(required=True)
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    players_per_match = fields.Integer(load_default=2, validate=validate.Range(2, 16))
    rounds = fields.Integer(validate=validate.Range(1, 50), metadata={"description": "a Swiss's rounds"})
    duration_s = fields.Float(validate=validate.Range(10, 24 * 3600), metadata={"description": "an arena's length"})
    cutoff_s = fields.Float(validate=validate.Range(0, 3600), metadata={
        "description": "an arena makes no pairing later than this before its end (default min(30, duration/4))"})
    options = fields.Dict(load_default=dict)
    turn_seconds = fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=1, max=86400))
    max_entrants = fields.Integer(validate=validate.Range(2, 100000))

    @validates_schema
    def per_format(self, data, **_):
        if data.get("format") == "swiss" and "rounds" not in data:
            raise ValidationError("a Swiss needs rounds", "rounds")
        if data.get("format") == "arena" and "duration_s" not in data:
            raise ValidationError("an arena needs duration_s", "duration_s")


class EntrantIn(Schema):
    bot = fields.String(validate=validate.OneOf(BOT_LEVELS), metadata={
        "description": "the organiser enters a bot of this level (each entry a distinct entrant); "
                       "without it the caller enters"})
    invite = fields.String(validate=validate.Length(min=1, max=200), metadata={
        "description": "the organiser invites this player (told on its stream); only the player's own "
                       "entry ({}) accepts, and only a player who entered is ever seated"})

    @validates_schema
    def one_kind(self, data, **_):
        if "bot" in data and "invite" in data:
            raise ValidationError("either bot or invite, not both")


class EntrantOut(Schema):
    tournament_id = fields.String()
    invited = fields.String(metadata={"description": "the player invited (an invitation, not an entry)"})
    entrant_id = fields.String()
    player_id = fields.String()
    bot = fields.String()
    name = fields.String()
    rating = fields.Float(allow_none=True)


class MatchOut(Schema):
    match_id = fields.String()
    entrants = fields.List(fields.String())
    status = fields.String()
    result = fields.Dict()


class RoundOut(Schema):
    round = fields.Integer()
    matches = fields.List(fields.Nested(MatchOut))
    byes = fields.List(fields.String())


class StandingOut(Schema):
    rank = fields.Integer()
    entrant_id = fields.String()
    player_id = fields.String()
    bot = fields.String()
    name = fields.String()
    points = fields.Float()
    played = fields.Integer()
    withdrawn = fields.Boolean()
    tiebreaks = fields.Dict(metadata={"description": "buchholz, sonneborn_berger, rating (before the event)"})


class TournamentSummary(Schema):
    tournament_id = fields.String()
    game = fields.String()
    format = fields.String()
    players_per_match = fields.Integer()
    status = fields.String()
    entrants = fields.Integer()
    organiser = fields.String()
    created_at = fields.Float()
    started_at = fields.Float(allow_none=True)
    finished_at = fields.Float(allow_none=True)


class TournamentOut(TournamentSummary):
    rounds = fields.List(fields.Nested(RoundOut))
    rounds_planned = fields.Integer(allow_none=True)
    duration_s = fields.Float(allow_none=True)
    ends_at = fields.Float()
    options = fields.Dict()
    turn_seconds = fields.Float(allow_none=True)
    max_entrants = fields.Integer()
    invited = fields.List(fields.String(), metadata={"description": "players invited who have not entered"})
    standings = fields.List(fields.Nested(StandingOut))
    version = fields.Integer(metadata={"description": "the tournament log's length"})
    head_hash = fields.String(metadata={"description": "the hash of the tournament log's last record"})


class TournamentsArgs(Schema):
    game = fields.String()
    status = fields.String(validate=validate.OneOf(STATUSES))
    format = fields.String(validate=validate.OneOf(FORMATS))
    cursor = fields.String(validate=validate.Length(max=400))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class TournamentsOut(Schema):
    tournaments = fields.List(fields.Nested(TournamentSummary))
    next_cursor = fields.String(allow_none=True)
