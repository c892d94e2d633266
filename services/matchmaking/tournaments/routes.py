"""The tournament routes (API.md, "Tournaments"), a blueprint of the matchmaking service."""
from __future__ import annotations

import requests
from flask import Response, current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from shared import paging
from shared.web import PROBLEM, ApiError, authenticated, error_responses, principal

from . import schemas as s

blp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments",
                description="Swiss, round-robin and arena tournaments")
MEDIA_TYPE = "application/x-ndjson"


def _svc():
    return current_app.extensions["tournaments"]


def _player_id() -> str:
    who = principal(required=True)
    if who.is_bot:
        raise ApiError(403, "Forbidden", "bot tokens cannot use matchmaking", "bot-token")
    return who.player_id


def player_auth(func):
    return authenticated(blp)(error_responses(blp, 403)(func))


@blp.route("")
class TournamentsResource(MethodView):
    @player_auth
    @blp.arguments(s.TournamentIn)
    @blp.response(201, s.TournamentOut)
    @blp.alt_response(422, description="an impossible tournament: unknown game, players_per_match outside the "
                      "game's range, bad options, no rounds for a Swiss, no duration for an arena",
                      content_type=PROBLEM)
    @blp.alt_response(429, description="you organise the most open tournaments allowed (MAX_OPEN_TOURNAMENTS)",
                      content_type=PROBLEM)
    def post(self, body):
        """Create a tournament (you are its organiser); it is open for entries until you start it."""
        return _svc().create(_player_id(), body)

    @blp.arguments(s.TournamentsArgs, location="query")
    @blp.response(200, s.TournamentsOut, headers=paging.HEADERS)
    @error_responses(blp, 400)
    def get(self, args):
        """Tournaments, oldest first, one page; filters game, status, format; paged by limit and cursor
        (next_cursor in the body, Link rel=next and X-Next-Cursor headers)."""
        page, cursor = _svc().list(game=args.get("game"), status=args.get("status"), fmt=args.get("format"),
                                   cursor=args.get("cursor"), limit=args["limit"])
        return {"tournaments": page, "next_cursor": cursor}, 200, paging.next_page_headers(cursor, args["limit"])


@blp.route("/<tournament_id>")
class TournamentResource(MethodView):
    @blp.response(200, s.TournamentOut)
    @error_responses(blp, 404)
    def get(self, tournament_id):
        """One tournament: its rounds with their matches and byes, and its standings (best first)."""
        return _svc().get(tournament_id)


@blp.route("/<tournament_id>/entrants")
class EntrantsResource(MethodView):
    @player_auth
    @blp.arguments(s.EntrantIn)
    @blp.response(201, s.EntrantOut)
    @blp.alt_response(404, description="no such tournament", content_type=PROBLEM)
    @blp.alt_response(409, description="entries are closed, the tournament is full, or you entered already",
                      content_type=PROBLEM)
    @blp.alt_response(422, description="a bot level the game does not offer, or an unknown player invited",
                      content_type=PROBLEM)
    def post(self, body, tournament_id):
        """Enter the tournament yourself ({}); as its organiser, enter a bot ({"bot": level}) or invite
        a player ({"invite": player_id}: the answer names the invitation, 201). Entering is your
        consent to be seated in its matches; an invitation alone never seats anyone."""
        if "invite" in body:
            return _svc().invite(tournament_id, _player_id(), body["invite"])
        return _svc().enter(tournament_id, _player_id(), body.get("bot"))


@blp.route("/<tournament_id>/entrants/me")
class MyEntryResource(MethodView):
    @player_auth
    @blp.response(204)
    @blp.alt_response(404, description="no such tournament, or you are not an entrant", content_type=PROBLEM)
    @blp.alt_response(409, description="the tournament has finished", content_type=PROBLEM)
    def delete(self, tournament_id):
        """Withdraw: before the start you simply leave; later, your remaining rounds are forfeits and
        your past results stay."""
        _svc().withdraw(tournament_id, _player_id())


@blp.route("/<tournament_id>/start")
class StartResource(MethodView):
    @player_auth
    @blp.response(200, s.TournamentOut)
    @blp.alt_response(404, description="no such tournament", content_type=PROBLEM)
    @blp.alt_response(409, description="started already, or too few entrants", content_type=PROBLEM)
    def post(self, tournament_id):
        """The organiser starts the tournament: the first round is paired and its matches created."""
        return _svc().start(tournament_id, _player_id())


@blp.route("/<tournament_id>/export")
class ExportResource(MethodView):
    @blp.doc(responses={200: {
        "description": "NDJSON: a header (kind tournament), the tournament's records (kind record), then each "
                       "recorded match (kind match: match_id, head_hash) followed by its exported log (kind "
                       "match-line). Verify offline: `scripts/verify FILE`.",
        "content": {MEDIA_TYPE: {"schema": {"type": "string"}}}}})
    @error_responses(blp, 404, 503)
    def get(self, tournament_id):
        """The tournament's log and every recorded match's log with its head hash, for anyone."""
        svc = _svc()
        svc.state(tournament_id)  # 404 before streaming
        rules_url = svc.former.rules_url

        def fetch(match_id: str) -> list[bytes]:
            try:
                got = requests.get(f"{rules_url}/v1/matches/{match_id}/export", timeout=30)
            except requests.RequestException:
                got = None
            if got is None or got.status_code != 200:
                raise ApiError(503, "Service Unavailable", f"the rules service did not export match {match_id}",
                               "export-unavailable")
            return [line for line in got.content.splitlines() if line.strip()]

        body = list(svc.export(tournament_id, fetch))  # fetched before answering: an error is a problem document
        return Response(body, mimetype=MEDIA_TYPE, headers={
            "Content-Disposition": f'attachment; filename="tournament-{tournament_id}.ndjson"'})
