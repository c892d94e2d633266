"""The web viewer at ``/viewer/``: browse the match index, follow any match version by version as
its game (as a spectator, or as a seat with its token), play a seat by clicking, create a table
against bots, see a match's audit.

Plain ES modules (``static/shell/*.js``, one renderer per game in ``static/games/<id>.js``) over
the public API; no build step. Every response carries a Content-Security-Policy without inline
script and ``X-Content-Type-Options: nosniff``. The page reaches the matchmaking service (players,
tables) at the URL ``config.json`` names: ``VIEWER_MATCHMAKING_URL``, else ``MATCHMAKING_URL`` —
that service must allow this page's origin in ``CORS_ORIGINS`` (``make run`` does for its own
rules origin when ``CORS_ORIGINS`` is unset)."""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, redirect, send_from_directory

from shared.engine import registry

from .catalog_routes import blp as catalog_blp  # noqa: F401  (registered by the app, with the API)

STATIC = Path(__file__).parent / "static"
BOT_LEVELS = ("random", "greedy", "search")

bp = Blueprint("viewer", __name__, url_prefix="/viewer")


def matchmaking_url() -> str:
    """Where the browser reaches the matchmaking service."""
    return (os.environ.get("VIEWER_MATCHMAKING_URL") or os.environ.get("MATCHMAKING_URL")
            or "http://127.0.0.1:8001").rstrip("/")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def content_security_policy() -> str:
    """Scripts and styles from this origin only (no inline script); fetches to it and to matchmaking."""
    connect = " ".join(filter(None, ("'self'", _origin(matchmaking_url()))))
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src {connect}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


@bp.after_request
def security_headers(response):
    response.headers["Content-Security-Policy"] = content_security_policy()
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.record_once
def _favicon(state):
    """Browsers ask for /favicon.ico at the root; answer it with the viewer's icon (no 404)."""
    def favicon():
        response = send_from_directory(STATIC, "favicon.svg", mimetype="image/svg+xml", max_age=86400)
        return security_headers(response)
    state.app.add_url_rule("/favicon.ico", "viewer_favicon", favicon)


@bp.get("")
def bare():
    return redirect("/viewer/", code=308)


@bp.get("/")
def index():
    return send_from_directory(STATIC, "index.html", max_age=0)


@bp.get("/config.json")
def config():
    """What the page needs besides the rules API: the games, where matchmaking is, the bot levels."""
    games = []
    for g in registry.all_games():
        games.append({"id": g.id, "title": g.title, "min_players": g.min_players, "max_players": g.max_players,
                      "renderer": (STATIC / "games" / f"{g.id}.js").is_file()})
    return {"games": games, "matchmaking": matchmaking_url(), "bots": list(BOT_LEVELS)}


@bp.get("/<path:name>")
def asset(name: str):
    mimetype = "text/javascript" if name.endswith(".js") else None
    return send_from_directory(STATIC, name, max_age=0, mimetype=mimetype)
