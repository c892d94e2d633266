"""Readable, interactive documentation of each service's OpenAPI document at ``/docs``
(Swagger UI), served with no network access: flask-smorest's page points at a CDN by default, so
the Swagger UI assets come from the pinned ``swagger-ui-bundle`` package, at ``/docs/assets/``."""
from __future__ import annotations

from flask import Blueprint, Flask, abort, send_from_directory
from swagger_ui_bundle import swagger_ui_path

DOCS_PATH = "docs"
ASSETS_URL = "/docs/assets/"
ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
                    "favicon-16x16.png", "favicon-32x32.png"})


def configure(app: Flask) -> None:
    """Point flask-smorest's Swagger UI at the local assets (call before ``Api(app)``)."""
    app.config.update(OPENAPI_SWAGGER_UI_PATH=DOCS_PATH, OPENAPI_SWAGGER_UI_URL=ASSETS_URL)
    assets = Blueprint("api-docs-assets", __name__, url_prefix=ASSETS_URL.rstrip("/"))

    @assets.get("/<name>")
    def asset(name: str):
        if name not in ASSETS:
            abort(404)
        return send_from_directory(swagger_ui_path, name, max_age=24 * 3600)

    app.register_blueprint(assets)
