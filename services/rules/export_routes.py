"""``GET /v1/matches/{id}/export``: a finished or aborted match's whole log, for offline verification."""
from __future__ import annotations

from flask import Response, current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from shared.export import MEDIA_TYPE, StillActive, export_match
from shared.web import ApiError, error_responses

blp = Blueprint("export", __name__, url_prefix="/v1/matches", description="Exports of finished matches")


@blp.route("/<match_id>/export")
class ExportResource(MethodView):
    @blp.doc(responses={
        200: {"description": "NDJSON: a header line, one line per record (every field the hash chain covers, "
                             "hidden parts included), a trailer with the revealed seed. Verify it offline with "
                             "`python -m shared.verify FILE`.",
              "content": {MEDIA_TYPE: {"schema": {"type": "string"}}}},
    })
    @error_responses(blp, 404, 409, 501)
    def get(self, match_id):
        """The whole log of a finished (or aborted) match with its seed, as NDJSON, for anyone."""
        try:
            body = export_match(current_app.extensions["matches"].store, match_id)
        except KeyError:
            raise ApiError(404, "Not Found", f"no match {match_id!r}", "no-such-match") from None
        except StillActive:
            raise ApiError(409, "Conflict", "the match is still active: its log holds hidden information until "
                                            "it ends", "match-active") from None
        return Response(body, mimetype=MEDIA_TYPE, headers={
            "Content-Disposition": f'attachment; filename="match-{match_id}.ndjson"', "Cache-Control": "no-cache"})
