"""``GET /v1/games/{game}/catalog``: a game's public content (printed card names, values, texts,
provenance; boards and action tables), for clients that draw the game — the viewer among them."""
from __future__ import annotations

from flask import jsonify
from flask.views import MethodView
from flask_smorest import Blueprint

from shared.engine import catalog, registry
from shared.web import ApiError, error_responses

blp = Blueprint("catalog", __name__, url_prefix="/v1/games", description="Games' public content")


@blp.route("/<game_id>/catalog")
class CatalogResource(MethodView):
    @blp.doc(responses={200: {"description": '`{"game", "engine", "cards": {content_id: {"name", "text", '
                                             '"values", "kind", "source"}}, ...}` plus the game\'s other public '
                                             "content (e.g. Rise of Tribes' `board`, `actions`). Public and cacheable.",
                              "content": {"application/json": {"schema": {"type": "object"}}}}})
    @error_responses(blp, 404)
    def get(self, game_id):
        """The public content of a game's live version, for anyone; nothing in it is hidden information."""
        try:
            game = registry.get(game_id)
        except KeyError:
            raise ApiError(404, "Not Found", f"no game {game_id!r} on this server", "no-such-game") from None
        answer = jsonify(catalog.of(game))
        answer.headers["Cache-Control"] = "public, max-age=300"
        return answer
