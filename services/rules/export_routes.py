"""``GET /v1/matches/{id}/export``: a finished or aborted match's whole log, for offline verification."""
from __future__ import annotations

from flask import Response, current_app
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from shared.export import MEDIA_TYPE, StillActive, export_match
from shared.web import ApiError, error_responses

from .analysis_routes import done_analysis

blp = Blueprint("export", __name__, url_prefix="/v1/matches", description="Exports of finished matches")


class ExportArgs(Schema):
    analysis = fields.Boolean(load_default=False, metadata={
        "description": "carry the match's done analysis (at the highest budget) as an `analysis` line, outside the hash chain"})


@blp.route("/<match_id>/export")
class ExportResource(MethodView):
    @blp.arguments(ExportArgs, location="query")
    @blp.doc(responses={
        200: {"description": "NDJSON: a header line, one line per record (every field the hash chain covers, "
                             "hidden parts included), a trailer with the revealed seed. Verify it offline with "
                             "`python -m shared.verify FILE`.",
              "content": {MEDIA_TYPE: {"schema": {"type": "string"}}}},
    })
    @error_responses(blp, 404, 409, 501)
    def get(self, args, match_id):
        """The whole log of a finished (or aborted) match with its seed, as NDJSON, for anyone;
        with ``analysis=true``, and its analysis done, the analysis too (outside the hash chain)."""
        try:
            body = export_match(current_app.extensions["matches"].store, match_id,
                                analysis=done_analysis(match_id) if args["analysis"] else None)
        except KeyError:
            raise ApiError(404, "Not Found", f"no match {match_id!r}", "no-such-match") from None
        except StillActive:
            raise ApiError(409, "Conflict", "the match is still active: its log holds hidden information until "
                                            "it ends", "match-active") from None
        return Response(body, mimetype=MEDIA_TYPE, headers={
            "Content-Disposition": f'attachment; filename="match-{match_id}.ndjson"', "Cache-Control": "no-cache"})
