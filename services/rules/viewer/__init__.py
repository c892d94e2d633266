"""The web viewer at ``/viewer/``: browse the match index, step through any match version by
version (as a spectator, or as a seat with its token), follow an active one live, see its audit.

Plain HTML, CSS and JavaScript (``static/``) over the public API of this service; no build step.
"""
from __future__ import annotations

from pathlib import Path

from flask import Blueprint, redirect, send_from_directory

from shared.engine import registry

STATIC = Path(__file__).parent / "static"

bp = Blueprint("viewer", __name__, url_prefix="/viewer")


@bp.get("")
def bare():
    return redirect("/viewer/", code=308)


@bp.get("/")
def index():
    return send_from_directory(STATIC, "index.html", max_age=0)


@bp.get("/config.json")
def config():
    """What the page needs besides the rules API: the games this server hosts."""
    return {"games": [{"id": g.id, "title": g.title} for g in registry.all_games()]}


@bp.get("/<path:name>")
def asset(name: str):
    return send_from_directory(STATIC, name, max_age=0)
