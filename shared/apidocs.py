"""Readable, interactive documentation of each service's OpenAPI document at ``/docs``
(Swagger UI), served with no network access: flask-smorest's page points at a CDN by default, so
the Swagger UI assets come from the pinned ``swagger-ui-bundle`` package, at ``/docs/assets/``.

The page has an Authorize button (the document declares the bearer scheme) whose token is kept
across reloads (``persistAuthorization``), and the document's description, in Markdown, gives the
conventions every operation follows (authentication, errors, rate limits, CORS, streams)."""
from __future__ import annotations

from flask import Blueprint, Flask, abort, send_from_directory
from swagger_ui_bundle import swagger_ui_path

DOCS_PATH = "docs"
ASSETS_URL = "/docs/assets/"
ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
                    "favicon-16x16.png", "favicon-32x32.png"})


SWAGGER_UI_CONFIG = {
    "persistAuthorization": True,   # the token given to Authorize survives a reload of /docs
    "deepLinking": True,            # /docs#/tag/operation links to one operation
    "displayRequestDuration": True,
    "docExpansion": "list",
    "filter": True,
    "tryItOutEnabled": False,
    "defaultModelsExpandDepth": 0,
}

DESCRIPTION = """\
The **{name}** service of the tabletop game server (public REST API, version 1). The full
reference, with a whole match worked through, is `docs/api.md` in the repository.

## Authentication
`Authorization: Bearer <token>`, a token from `POST /v1/players` (matchmaking). Click **Authorize**
above and paste it to try operations that need it; each operation lists what it takes under its
lock (*security*):

- **required**: without a valid token the answer is **401**;
- **optional** (`{{}}` or `bearer`): anonymous callers are served as spectators, a token shows what
  its seat may see; an *invalid, expired or revoked* token is a 401 all the same;
- none: the token is ignored.

A 401 carries `WWW-Authenticate: Bearer`; a 403 means the token is valid but its player may not do that.

## Errors
Every error is an [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem document,
`application/problem+json`: `type` (`urn:problem:<slug>`, stable), `title`, `status`, `detail`
(a sentence for a human) and, for a request that fails validation (**422**), `errors`:
`{{"field": ["message", ...]}}` (nested fields as dotted paths, e.g. `seats.1.bot`).

## Rate limits
Writes (POST, DELETE) and the opening of event streams are limited per player (per client address
without a token). Every limited answer carries the IETF fields
([draft-ietf-httpapi-ratelimit-headers](https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/)):
`RateLimit-Policy: "writes-token";q=3000;w=60` (the quota `q` per window of `w` seconds) and
`RateLimit: "writes-token";r=2999;t=42` (`r` left, `t` seconds until the window resets).
Past the quota: **429** with `Retry-After` (seconds).

## Streams
Server-sent events (`text/event-stream`): each message has an `id`; reconnect with the
`Last-Event-ID` header (or `?after=`) to resume after it.

## Browsers (CORS)
Cross-origin requests are answered for the origins the operator lists in `CORS_ORIGINS`
(none by default); `Retry-After`, `RateLimit`, `RateLimit-Policy`, `Link`, `X-Next-Cursor` and
`WWW-Authenticate` are exposed to scripts.
"""


def configure(app: Flask, name: str = "tabletop") -> None:
    """Point flask-smorest's Swagger UI at the local assets, configure it, and describe the API in
    Markdown (call before ``Api(app)``)."""
    app.config.update(OPENAPI_SWAGGER_UI_PATH=DOCS_PATH, OPENAPI_SWAGGER_UI_URL=ASSETS_URL,
                      OPENAPI_SWAGGER_UI_CONFIG=dict(SWAGGER_UI_CONFIG),
                      API_SPEC_OPTIONS={"info": {"description": DESCRIPTION.format(name=name)}})
    assets = Blueprint("api-docs-assets", __name__, url_prefix=ASSETS_URL.rstrip("/"))

    @assets.get("/<name>")
    def asset(name: str):
        if name not in ASSETS:
            abort(404)
        return send_from_directory(swagger_ui_path, name, max_age=24 * 3600)

    app.register_blueprint(assets)
