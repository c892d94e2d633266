"""What every service's Flask app shares: problem+json errors, health checks, OpenAPI, auth."""
from __future__ import annotations

import logging

import redis
from flask import Flask, Response, g, request
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from .auth import Principal, Tokens
from .canonical import dumps
from .config import Config
from .limits import install as install_limits

PROBLEM = "application/problem+json"


def problem(status: int, title: str, detail: str, slug: str | None = None, **extra) -> Response:
    body = {"type": f"urn:problem:{slug or title.lower().replace(' ', '-')}", "title": title,
            "status": status, "detail": detail, **extra}
    return Response(dumps(body), status=status, mimetype=PROBLEM)


class ApiError(Exception):
    """Raise anywhere in a request to answer with a problem document."""

    def __init__(self, status: int, title: str, detail: str, slug: str | None = None, **extra):
        super().__init__(detail)
        self.status, self.title, self.detail, self.slug, self.extra = status, title, detail, slug, extra


def _jsonable(value):
    """Validation messages with string keys (marshmallow indexes list items by int)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _http_error(err: HTTPException) -> Response:
    detail = err.description or err.name
    data = getattr(err, "data", None) or {}
    messages = data.get("messages") if isinstance(data, dict) else None
    extra = {}
    if messages:
        messages = _jsonable(messages)
        extra["errors"] = messages
        detail = f"invalid request: {dumps(messages)}"
    return problem(err.code or 500, err.name, detail, **extra)


def create_base_app(name: str, config: Config, client: redis.Redis, version: str = "1.0") -> tuple[Flask, Api]:
    app = Flask(name)
    app.config.update(
        API_TITLE=f"{name} service", API_VERSION=version, OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json", JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=256 * 1024,  # no move or table needs more; larger bodies get 413
    )
    app.extensions["config"] = config
    app.extensions["redis"] = client
    app.extensions["tokens"] = Tokens(config.auth_secret, client)
    api = Api(app)
    install_limits(app, config.redis_url)

    @app.errorhandler(ApiError)
    def _api_error(err: ApiError):
        answer = problem(err.status, err.title, err.detail, err.slug, **err.extra)
        if "retry_after" in err.extra:
            answer.headers["Retry-After"] = str(err.extra["retry_after"])
        return answer

    app.register_error_handler(HTTPException, _http_error)

    @app.errorhandler(Exception)
    def _unexpected(err: Exception):
        if isinstance(err, HTTPException):
            return _http_error(err)
        logging.getLogger(name).exception("unhandled error")
        return problem(500, "Internal Server Error", "an unexpected error occurred; it has been logged")

    @app.get("/healthz")
    def healthz():
        return {"status": "ok"}

    @app.get("/readyz")
    def readyz():
        try:
            client.ping()
        except redis.RedisError as err:
            return problem(503, "Service Unavailable", f"redis is not reachable: {err}")
        return {"status": "ready"}

    return app, api


def principal(required: bool) -> Principal | None:
    """The caller, from the bearer token; 401 when required and missing or invalid."""
    if "principal" not in g:
        header = request.headers.get("Authorization")
        from flask import current_app

        who = current_app.extensions["tokens"].from_header(header)
        if header and who is None:
            raise ApiError(401, "Unauthorized", "the bearer token is not valid, expired or revoked", "invalid-token")
        g.principal = who
    if required and g.principal is None:
        raise ApiError(401, "Unauthorized", "this request needs 'Authorization: Bearer <token>'", "missing-token")
    return g.principal
