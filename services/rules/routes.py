"""The rules service's public endpoints (API.md, "Rules service")."""
from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint

from shared import limits, metrics, paging, stream_format
from shared.auth import Principal
from shared.engine.errors import IllegalMove
from shared.eventstore.damage import DamagedLog
from shared.eventstore.store import MAX_SEQ, Conflict
from shared.held_streams import Held, Pacing
from shared.matches import Forbidden, KeyReused, Matches, MatchOver, NotFound, RequestInProgress
from shared.web import REDIS_OUTAGE, REDIS_RETRY_AFTER_S, ApiError, authenticated, error_responses, principal

from . import schemas as s
from .live import LiveLogs

log = logging.getLogger("rules.routes")
blp = Blueprint("matches", __name__, url_prefix="/v1/matches", description="Matches: state, moves, logs, audits")


def _matches() -> Matches:
    return current_app.extensions["matches"]


def _state(match_id: str, at: int | None = None) -> dict:
    return _state_and_clocks(match_id, at)[0]


def _state_and_clocks(match_id: str, at: int | None = None) -> tuple[dict, dict[int, float]]:
    """The state and the turn clocks from one read of the head (all a cached match costs)."""
    try:
        return _matches().state_and_clocks(match_id, at)
    except NotFound:
        if at is not None and _matches().store.exists(match_id):
            raise ApiError(404, "Not Found", f"match {match_id} has no version {at}", "no-such-version")
        raise ApiError(404, "Not Found", f"no match {match_id!r}", "no-such-match") from None


def seat_held(mstate: dict, who: Principal) -> int | None:
    """The seat ``who`` holds in the match as ``mstate`` shows it: a player's own seat, or the seat
    a bot token plays while a bot controls it (None: no seat)."""
    if who.is_bot:
        seat = who.bot_seat
        ok = isinstance(seat, int) and who.bot_match == mstate["match_id"] and 0 <= seat < len(mstate["seats"]) \
            and mstate["controllers"][seat] != "human"
        return seat if ok else None
    return next((i for i, seat in enumerate(mstate["seats"]) if seat.get("player_id") == who.player_id), None)


def _seat(mstate: dict, *, required: bool, check_control: bool = True) -> int | None:
    """The seat the caller holds in this match (None for a spectator). ``check_control``: refuse a
    human whose seat was handed to a bot (``submit`` checks that itself, on the state it writes on)."""
    who = principal(required)
    if who is None:
        return None
    seat = seat_held(mstate, who)
    if seat is None:
        if required:
            raise ApiError(403, "Forbidden", "this bot token does not play a seat of this match" if who.is_bot
                           else "you do not hold a seat in this match", "not-seated")
        return None
    if required and check_control and not who.is_bot and mstate["controllers"][seat] != "human":
        raise ApiError(403, "Forbidden", f"seat {seat} is played by a bot since it was handed over",
                       "seat-handed-over")
    return seat


@contextmanager
def _match_errors():
    """The runtime's refusals as problem documents."""
    try:
        yield
    except Conflict as err:
        raise ApiError(409, "Conflict", f"the match is at version {err.current}: read it again and retry",
                       "stale-version", current_version=err.current) from None
    except MatchOver as err:
        raise ApiError(409, "Conflict", str(err), "match-over") from None
    except Forbidden as err:
        raise ApiError(403, "Forbidden", str(err), "not-your-decision") from None
    except IllegalMove as err:
        raise ApiError(422, "Illegal Move", err.reason, "illegal-move") from None
    except RequestInProgress as err:
        raise ApiError(409, "Conflict", str(err), "request-in-progress") from None
    except KeyReused as err:
        raise ApiError(422, "Unprocessable Content", str(err), "idempotency-key-reused") from None


@blp.route("/<match_id>")
class MatchResource(MethodView):
    @blp.response(200, s.MatchSummary)
    @error_responses(blp, 404, 501)
    def get(self, match_id):
        """The match: game, seats, status, version, who is to act, head hash, result."""
        mstate, clocks = _state_and_clocks(match_id)
        out = _matches().summary(mstate)
        deadlines = current_app.extensions["deadlines"].of(mstate, clocks)
        if deadlines:
            out["deadlines"] = deadlines
        return out


@blp.route("/<match_id>/view")
class ViewResource(MethodView):
    @authenticated(blp, optional=True)
    @blp.arguments(s.ViewArgs, location="query")
    @blp.response(200, s.ViewOut)
    @error_responses(blp, 404, 501)
    def get(self, args, match_id):
        """The state as the caller's seat (or a spectator) may see it, optionally at version ``at``."""
        mstate, clocks = _state_and_clocks(match_id)
        seat = _seat(mstate, required=False)
        if "at" in args:
            _state(match_id, args["at"])  # 404 for a version the log does not have
        out = _matches().view(match_id, seat, args.get("at"), head=mstate)
        deadlines = current_app.extensions["deadlines"].of(mstate, clocks)
        if deadlines and "at" not in args:
            out["deadlines"] = deadlines
        out["seats"] = Matches.seats_out(mstate)
        return out


@blp.route("/<match_id>/legal-moves")
class LegalMovesResource(MethodView):
    @authenticated(blp)
    @blp.response(200, s.LegalMovesOut)
    @error_responses(blp, 403, 404, 501)
    def get(self, match_id):
        """Every move the caller's seat may make now (empty when it need not act)."""
        mstate = _state(match_id)
        return _matches().legal_moves(match_id, _seat(mstate, required=True), head=mstate)


@blp.route("/<match_id>/turn")
class TurnResource(MethodView):
    @authenticated(blp)
    @blp.response(200, s.TurnOut)
    @error_responses(blp, 403, 404, 501)
    def get(self, match_id):
        """Everything the caller's seat needs to decide, at one version: its view of the state and
        its legal moves (empty when it need not act), both from the same head state. Post one of
        ``moves`` verbatim with ``expected_version`` = ``version``."""
        mstate, clocks = _state_and_clocks(match_id)
        return _turn_of(mstate, _seat(mstate, required=True), clocks)


def _turn_of(mstate: dict, seat: int, clocks: dict[int, float] | None = None) -> dict:
    """A seat's view and legal moves at the state's version, with the pending deadlines
    (``clocks`` as the read of the head gave them, else they are read)."""
    out = _matches().turn(mstate["match_id"], seat, head=mstate)
    deadlines = current_app.extensions["deadlines"].of(mstate, clocks)
    if deadlines:
        out["deadlines"] = deadlines
    return out


@blp.route("/<match_id>/moves")
class MovesResource(MethodView):
    @authenticated(blp)
    @blp.arguments(s.MoveBody)
    @blp.response(201, s.MoveOut)
    @error_responses(blp, 403, 404, 409, 501)
    @blp.doc(parameters=[{"in": "header", "name": "Idempotency-Key", "required": False, "schema": {
        "type": "string", "minLength": 1, "maxLength": 200}, "description":
        "retries with the same key and body get the first answer (kept 24 h), also when they race with it; "
        "409 request-in-progress only while a claim of an older release holds the key; 422 when the key was "
        "used with a different body"}])
    def post(self, body, match_id):
        """Make a move; 409 on a stale version (with ``current_version``), 422 with the reason for an
        illegal move, 403 when the seat has no decision to make."""
        try:  # the seats never change; the state decided on is checked by the append
            mstate = _matches().peek(match_id)
        except NotFound:
            raise ApiError(404, "Not Found", f"no match {match_id!r}", "no-such-match") from None
        try:
            seat = _seat(mstate, required=True, check_control=False)
        except ApiError:
            if not principal(True).is_bot:
                raise
            # a hand-over may be newer than this process's cache: a bot's seat is read at the head
            seat = _seat(_state(match_id), required=True, check_control=False)
        key = request.headers.get("Idempotency-Key")
        if key is not None and not (0 < len(key) <= 200):
            raise ApiError(400, "Bad Request", "Idempotency-Key must be 1 to 200 characters", "bad-idempotency-key")
        followups = current_app.extensions["followups"]
        as_bot = principal(True).is_bot
        with _match_errors():  # one durable write on a single Redis: the append carries the rest
            done = followups.change(match_id, lambda effects: _matches().submit(
                match_id, seat, body["move"], body["expected_version"], key, as_bot=as_bot, effects=effects),
                moved=seat)
        if not done.replayed:
            metrics.MOVES.labels(done.state["game_id"]).inc()
        return done.body()


@blp.route("/<match_id>/resign")
class ResignResource(MethodView):
    @authenticated(blp)
    @blp.response(201, s.MoveOut)
    @error_responses(blp, 403, 404, 409, 501)
    def post(self, match_id):
        """Leave the match. Two players: it ends at once and the opponent wins. More players: a greedy
        bot plays the seat from now on and the player is ranked last."""
        mstate = _state(match_id)
        seat = _seat(mstate, required=True)
        followups = current_app.extensions["followups"]
        with _match_errors():
            done = followups.change(match_id, lambda effects: _matches().resign(match_id, seat, effects=effects),
                                    moved=seat)
        return done.body()


def _events_cursor(cursor: str) -> int:
    """The seq an events cursor stands for; 400 for anything that is not one."""
    if not (cursor.isascii() and cursor.isdigit()) or int(cursor) > MAX_SEQ:
        raise ApiError(400, "Bad Request", f"{cursor[:40]!r} is not a cursor of this log: pass the next_cursor of "
                                           "the previous page", "bad-cursor")
    return int(cursor)


@blp.route("/<match_id>/events")
class EventsResource(MethodView):
    @authenticated(blp, optional=True)
    @blp.arguments(s.EventsArgs, location="query")
    @blp.response(200, s.EventsOut, headers=paging.HEADERS)
    @error_responses(blp, 400, 404, 501)
    def get(self, args, match_id):
        """The log, redacted for the caller, a page of at most ``limit`` events from ``cursor``."""
        after = _events_cursor(args["cursor"]) if "cursor" in args else args["after"]
        mstate = _state(match_id)
        page = _matches().events(match_id, _seat(mstate, required=False), after, args["limit"], head=mstate)
        page["next_cursor"] = str(page["next_after"]) if len(page["events"]) == args["limit"] else None
        return page, 200, paging.next_page_headers(page["next_cursor"], args["limit"])


@blp.route("/<match_id>/audit")
class AuditResource(MethodView):
    @blp.response(200, s.AuditOut)
    @error_responses(blp, 404, 501)
    def get(self, match_id):
        """Checks the hash chain and the replay; once finished, reveals the seed and re-derives chance.
        The chain is checked again on every call; the replay and chance checks are kept for exactly
        the content they checked. A damaged log (one that cannot be read back) is a verdict too:
        ``chain_valid`` false and the first damaged record in ``problems`` and ``damaged``."""
        try:
            return _matches().audit(match_id)
        except NotFound:
            raise ApiError(404, "Not Found", f"no match {match_id!r}", "no-such-match") from None


_EVENT_ID = re.compile(r"[0-9]{1,16}")


def _resume_after(head: int) -> int:
    """The seq a stream resumes after: ``Last-Event-ID`` (or ``?after=``), 0 to the log's head."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    if not _EVENT_ID.fullmatch(raw.strip()):
        raise ApiError(400, "Bad Request", "Last-Event-ID must be the seq of an event (a non-negative integer)",
                       "bad-last-event-id")
    last = int(raw)
    if last > head:
        raise ApiError(400, "Bad Request", f"Last-Event-ID {last} is beyond the log, which has {head} events",
                       "bad-last-event-id")
    return last


STREAM_PARAMETERS = [
    {"in": "header", "name": "Last-Event-ID", "required": False, "schema": {"type": "integer"},
     "description": "resume after this seq (400 unless 0 to the log's version)"},
    {"in": "query", "name": "after", "required": False, "schema": {"type": "integer"},
     "description": "the same as Last-Event-ID, for clients that cannot set headers (EventSource's first connection)"}]
HELD = ("Keep-alives (SSE comments, NDJSON empty lines) every SSE_KEEPALIVE_S while quiet; the stream stays "
        "open as long as the client keeps it, and ends within STREAM_RECHECK_S seconds of its token being "
        "rotated, revoked or expiring. `Accept: application/x-ndjson` for NDJSON (one `{\"id\", \"event\", "
        "\"data\"}` object a line); server-sent events otherwise.")
TOO_MANY = {"description": "too many streams opened (the rate limit) or held at once by this client "
                           "(MAX_STREAMS_PER_PLAYER with a token, 32 by default; MAX_STREAMS_PER_ADDRESS "
                           "without, 256); Retry-After"}


def _held_streams():
    return current_app.extensions["held_streams"]


def _held_answer(chunks_of, fmt: str) -> Response:
    """The streaming answer of a stream held against the caller's cap (429 beyond it)."""
    if current_app.extensions["stream_handoff"].offer(request.environ, limits.answer_fields(current_app)):
        return Response(status=200)  # never written: the stream process answers (see stream_handoff.install)
    streams = _held_streams()
    held = streams.claim(principal(required=False), request.remote_addr)
    answer = stream_format.response(chunks_of(held), fmt)
    answer.call_on_close(lambda: streams.release(held))  # also when the stream never started
    return answer


@blp.route("/<match_id>/stream")
class StreamResource(MethodView):
    @authenticated(blp, optional=True)
    @blp.doc(responses={200: {"description": "one message per event (id = seq, event = type, data = the "
                                             "redacted event). " + HELD,
                              "content": stream_format.OPENAPI_CONTENT}, 429: TOO_MANY},
             parameters=STREAM_PARAMETERS)
    @error_responses(blp, 400, 404, 501)
    def get(self, match_id):
        """One message per log event (id = seq), as server-sent events or NDJSON; honours
        Last-Event-ID. Ends after the final event of a finished match."""
        head = _state(match_id)
        seat = _seat(head, required=False)
        last = _resume_after(head["version"])
        fmt = stream_format.wanted()
        return _held_answer(lambda held: _match_events(held, head, seat, last, fmt), fmt)


def _match_events(held: Held, head: dict, seat: int | None, last: int, fmt: str) -> Iterator[str]:
    match_id, matches = head["match_id"], _matches()
    live: LiveLogs = current_app.extensions["live"]
    config = current_app.extensions["config"]
    pacing = Pacing(config.sse_keepalive_s, config.stream_recheck_s)
    game = matches.game_of(head)
    finished = head["status"] != "active"

    def message(feed, rec: dict, over: bool) -> str:
        return feed.memo(("event", rec["seq"], seat, over), lambda: stream_format.encode(
            rec["seq"], rec["type"], matches.present(rec, seat, game, over))).as_(fmt)

    try:
        with live.watch(match_id, head["version"], over=finished) as feed:
            yield stream_format.opening(fmt, REDIS_RETRY_AFTER_S * 1000)
            while not held.ended:
                try:
                    records = feed.records_after(last)
                    if records is None:
                        records = matches.store.read(match_id, after=last, limit=200)
                except REDIS_OUTAGE:  # headers are sent: end the stream, the client resumes from its last id
                    log.warning("stream of %s ends: redis is unavailable", match_id)
                    return
                except DamagedLog as err:  # met after the headers: end the stream (a reconnect gets the problem)
                    matches.damaged(err)
                    log.error("stream of %s ends: damaged log: %s", match_id, err.message)
                    return
                if records:
                    over = finished or feed.over
                    live.gate.wait()  # after the move that wrote them has been answered
                    # one write per wake, built once for every watcher of this audience at this point
                    yield feed.memo(("batch", last, records[-1]["seq"], seat, over, fmt),
                                    lambda: "".join(message(feed, rec, over) for rec in records))
                    last = records[-1]["seq"]
                    pacing.sent()
                    continue
                if (finished or feed.over) and last >= feed.latest:
                    return
                if feed.latest > last:  # known but not in the log (Redis lost it): wait, then retry
                    time.sleep(pacing.wait_s())
                elif feed.wait_beyond(last, pacing.wait_s()):
                    continue
                if pacing.keepalive_due():
                    yield stream_format.keepalive(fmt)
                    pacing.sent()
            log.info("stream of %s ends: %s", match_id, held.reason)
    finally:
        _held_streams().release(held)


@blp.route("/<match_id>/turn/stream")
class TurnStreamResource(MethodView):
    @authenticated(blp)
    @blp.doc(responses={200: {"description": (
        "The seat's state stream: one `turn` message per version (id = the version; data = what GET "
        "/turn answers: `version`, `seat`, `to_act`, `status`, `state` (the seat's view), `moves` (its legal "
        "moves, empty when it need not act), `deadlines`?). The first message is the current state; then "
        "one for each version the stream sees (versions written faster than it reads are folded into the "
        "newest, which is complete). Ends after the message of a finished match. " + HELD),
        "content": stream_format.OPENAPI_CONTENT}, 429: TOO_MANY})
    @error_responses(blp, 403, 404, 501)
    def get(self, match_id):
        """A seat's view and legal moves at each version, in one message each, first the current one
        (a bot needs no other read per turn). Post one of ``moves`` with ``expected_version`` = ``version``."""
        head = _state(match_id)
        seat = _seat(head, required=True)
        first = _turn_of(head, seat)
        fmt = stream_format.wanted()
        return _held_answer(lambda held: _turn_events(held, head, seat, first, fmt), fmt)


def _turn_events(held: Held, head: dict, seat: int, first: dict, fmt: str) -> Iterator[str]:
    match_id = head["match_id"]
    live: LiveLogs = current_app.extensions["live"]
    config = current_app.extensions["config"]
    pacing = Pacing(config.sse_keepalive_s, config.stream_recheck_s)
    schema = s.TurnOut()

    human = not principal(required=True).is_bot

    def encoded(turn: dict, controller: str) -> tuple[int, str, object, str]:
        return (turn["version"], turn["status"], stream_format.encode(turn["version"], "turn", schema.dump(turn)),
                controller)

    def newest() -> tuple[int, str, object, str]:
        mstate = _state(match_id)
        return encoded(_turn_of(mstate, seat), mstate["controllers"][seat])

    version, status, message, _controller = encoded(first, "human")
    try:
        with live.watch(match_id, version, over=status != "active") as feed:
            yield stream_format.opening(fmt, REDIS_RETRY_AFTER_S * 1000) + message.as_(fmt)
            pacing.sent()
            while not held.ended and status == "active":
                if feed.latest > version:
                    live.gate.wait()  # after the move that made it has been answered
                    try:
                        seen, status_now, message, controller = feed.memo(("turn", feed.latest, seat), newest)
                    except REDIS_OUTAGE:
                        log.warning("turn stream of %s ends: redis is unavailable", match_id)
                        return
                    except (ApiError, DamagedLog) as err:
                        log.warning("turn stream of %s ends: %s", match_id, getattr(err, "detail", None) or err)
                        return
                    if human and controller != "human":  # the seat was handed to a bot: end (a reconnect says why)
                        log.info("turn stream of %s seat %s ends: handed over", match_id, seat)
                        return
                    if seen > version:
                        version, status = seen, status_now
                        yield message.as_(fmt)
                        pacing.sent()
                        continue
                    time.sleep(pacing.wait_s())  # the log is behind what the feed saw (Redis lost it)
                elif feed.wait_beyond(version, pacing.wait_s()):
                    continue
                if pacing.keepalive_due():
                    yield stream_format.keepalive(fmt)
                    pacing.sent()
            log.info("turn stream of %s seat %s ends: %s", match_id, seat, held.reason or status)
    finally:
        _held_streams().release(held)
