"""Request and response schemas of the rules service (they generate its OpenAPI document)."""
from marshmallow import Schema, fields, validate

from shared.eventstore.store import MAX_SEQ


class MoveBody(Schema):
    move = fields.Dict(required=True, metadata={"description": "a move exactly as listed by legal-moves"})
    expected_version = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=MAX_SEQ))


class ViewArgs(Schema):
    at = fields.Integer(validate=validate.Range(min=1, max=MAX_SEQ),
                        metadata={"description": "the version (event seq) to show the state at"})


class EventsArgs(Schema):
    cursor = fields.String(metadata={"description": "next_cursor of the previous page (the paging of every list)"})
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_SEQ),
                           metadata={"description": "the events after this seq; kept for one release, use cursor"})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class Seat(Schema):
    seat = fields.Integer()
    player_id = fields.String()
    name = fields.String()
    bot = fields.String()
    controller = fields.String()
    abandoned = fields.Boolean()


class MatchSummary(Schema):
    match_id = fields.String()
    game = fields.String()
    engine = fields.String()
    options = fields.Dict()
    seats = fields.List(fields.Nested(Seat))
    status = fields.String()
    version = fields.Integer()
    to_act = fields.List(fields.Integer())
    head_hash = fields.String()
    result = fields.Dict()
    turn_seconds = fields.Float(allow_none=True)
    deadlines = fields.Dict(metadata={"description": "seat -> unix time its pending decision is due"})


class ViewOut(Schema):
    deadlines = fields.Dict(metadata={"description": "seat -> unix time its pending decision is due"})
    seats = fields.List(fields.Nested(Seat), metadata={"description": "who plays each seat; hand-overs show here"})
    match_id = fields.String()
    version = fields.Integer()
    seat = fields.Integer(allow_none=True)
    to_act = fields.List(fields.Integer())
    status = fields.String()
    state = fields.Raw()


UNDOING = ("positions in `moves` of the moves that only undo a step of the seat's pending decision (a card "
           "or member picked, put back); empty in every game's current engine version. A client that plays "
           "the first move not listed here always finishes the match")


class LegalMovesOut(Schema):
    version = fields.Integer()
    seat = fields.Integer()
    moves = fields.List(fields.Dict())
    undoing = fields.List(fields.Integer(), metadata={"description": UNDOING})


class TurnOut(Schema):
    deadlines = fields.Dict(metadata={"description": "seat -> unix time its pending decision is due"})
    match_id = fields.String()
    version = fields.Integer(metadata={"description": "the version both the view and the moves are at"})
    seat = fields.Integer()
    to_act = fields.List(fields.Integer())
    status = fields.String()
    state = fields.Raw(metadata={"description": "the state as this seat may see it (as GET /view)"})
    moves = fields.List(fields.Dict(), metadata={"description": "this seat's legal moves (as GET /legal-moves)"})
    undoing = fields.List(fields.Integer(), metadata={"description": UNDOING})


class MoveOut(Schema):
    version = fields.Integer()
    events = fields.List(fields.Dict())


class EventsOut(Schema):
    events = fields.List(fields.Dict())
    next_cursor = fields.String(allow_none=True, metadata={
        "description": "pass as cursor for the next page; null when no more events are stored now"})
    next_after = fields.Integer(metadata={"description": "the last seq returned; kept for one release"})


class AuditOut(Schema):
    match_id = fields.String()
    chain_valid = fields.Boolean()
    replay_valid = fields.Boolean()
    head_hash = fields.String()
    seed_commitment = fields.String()
    seed = fields.String()
    chance_valid = fields.Boolean()
    version = fields.Integer()
    problems = fields.List(fields.String())
    damaged = fields.Dict(metadata={"description": "a log that cannot be read back: {seq, reason, message} of "
                                                   "the first damage (seq null when it is in no one record)"})
