"""What every service's Flask app shares: problem+json errors, health checks, OpenAPI, auth.

Every response Flask produces for an error is an RFC 9457 problem document
(``application/problem+json``), and every error response is documented as one in the service's
OpenAPI document. Hostile input answers 4xx, never 5xx: JSON bodies are parsed with bounded
nesting and number sizes before any schema sees them, URLs longer than ``MAX_URL_BYTES`` are a
414, bodies larger than ``MAX_CONTENT_LENGTH`` a 413, and a Redis outage during a request is a
503 with ``Retry-After``.
"""
from __future__ import annotations

import functools
import http
import json
import logging
import math

import redis
from apispec import BasePlugin
from flask import Flask, Response, current_app, g, request
from flask_smorest import Api, Blueprint
from flask_smorest.arguments import ArgumentsMixin
from marshmallow import Schema, fields
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import HTTPException

from . import apidocs, metrics
from .auth import Tokens
from .caller import principal
from .engine import registry
from .eventstore.damage import DamagedLog
from .json_answers import SortedJSONProvider
from .config import CLUSTER_OUTAGE, Config, limits_storage_uri
from .cors import install as install_cors
from .limits import install as install_limits
from .problems import PROBLEM, ApiError, problem  # the services import these (and ``principal``) from here
from .streams import stream_groups_of

MAX_JSON_DEPTH = 32          # no request body of the API nests deeper than a few levels
INT64 = 2 ** 63               # integers are signed 64-bit at most; larger ones are refused
MAX_URL_BYTES = 4096         # longer request targets answer 414 (gunicorn refuses above 8190)
REDIS_RETRY_AFTER_S = 2      # what a 503 during a Redis outage tells the client to wait
REDIS_OUTAGE = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, *CLUSTER_OUTAGE)


class ProblemSchema(Schema):
    """An RFC 9457 problem document (extra members such as ``errors`` or ``current_version`` may follow)."""
    type = fields.String(required=True, metadata={"description": "urn:problem:<slug>, stable per kind of error"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True, metadata={"description": "what went wrong, for a human"})
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), metadata={
        "description": "a request that fails validation (422): the messages for each invalid field, by the field's name (a nested "
                       "field as a dotted path such as `seats.1.bot`; `body` or `query` for the whole body or query)"})
    current_version = fields.Integer(metadata={"description": "409 stale-version: the match's version now"})
    seq = fields.Integer(allow_none=True, metadata={
        "description": "503 damaged-log: the first record that cannot be read back (null: the seed, the meta, "
                       "or a compacted log whose damage cannot be placed in one record)"})


# ----- the OpenAPI document: every error is a problem ------------------------------------------
def _error_status_names() -> dict[int, str]:
    return {int(s): s.name for s in http.HTTPStatus if s >= 400}


COMMON_ERRORS = (400, 413, 414, 429, 503)  # any operation may answer these (bad input, limits, outages)
RETRY_AFTER = {"description": "seconds to wait before retrying", "schema": {"type": "integer"}}
WWW_AUTHENTICATE = {"description": '`Bearer realm="tabletop"`, with `error="invalid_token"` for a token that is '
                                   "invalid, expired or revoked (RFC 6750)", "schema": {"type": "string"}}


class ProblemApi(Api):
    """flask-smorest's Api with error responses documented as ``application/problem+json``."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self):
        for status in http.HTTPStatus:
            if status < 400:
                continue
            response = {"description": status.phrase,
                        "content": {PROBLEM: {"schema": self.ERROR_SCHEMA}}}
            if status in (429, 503):
                response["headers"] = {"Retry-After": RETRY_AFTER}
            if status == 401:
                response["headers"] = {"WWW-Authenticate": WWW_AUTHENTICATE}
            self.spec.components.response(status.name, response, lazy=True)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, {
            "description": "any other error", "content": {PROBLEM: {"schema": self.ERROR_SCHEMA}}}, lazy=True)


RATELIMIT_HEADERS = {
    "RateLimit-Policy": {"description": 'the quota policy that applies, e.g. `"writes-token";q=3000;w=60` '
                                        "(draft-ietf-httpapi-ratelimit-headers)", "schema": {"type": "string"}},
    "RateLimit": {"description": 'what is left of it, e.g. `"writes-token";r=2999;t=42` (r: requests left, '
                                 "t: seconds until the window resets)", "schema": {"type": "string"}},
}


def is_rate_limited(path: str, method: str) -> bool:
    """Whether requests to this operation count against a rate limit (shared/limits.py)."""
    return method.upper() in ("POST", "PUT", "PATCH", "DELETE") or (method.upper() == "GET" and path.endswith("/stream"))


class ProblemResponsesPlugin(BasePlugin):
    """Documents the errors every operation can give (and a default error) on every operation, and
    the rate limit fields on every answer of a rate-limited operation."""

    def operation_helper(self, path=None, operations=None, **kwargs):
        names = _error_status_names()
        for method, operation in (operations or {}).items():
            responses = operation.setdefault("responses", {})
            responses.setdefault("default", ProblemApi.DEFAULT_ERROR_RESPONSE_NAME)
            for status, response in responses.items():  # an error described in words only: a problem too
                if str(status).isdigit() and int(status) >= 400 and isinstance(response, dict) \
                        and not response.get("content", {}).get(PROBLEM, {}).get("schema"):
                    response["content"] = {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}}
                if str(status) in ("429", "503") and isinstance(response, dict):
                    response.setdefault("headers", {}).setdefault("Retry-After", RETRY_AFTER)
                if str(status) == "401" and isinstance(response, dict):
                    response.setdefault("headers", {}).setdefault("WWW-Authenticate", WWW_AUTHENTICATE)
            for status in COMMON_ERRORS:
                if status not in responses and str(status) not in responses:
                    responses[status] = names[status]
            if path and is_rate_limited(path, method):
                for status in list(responses):
                    if not str(status).isdigit():
                        continue
                    response = responses[status]
                    if isinstance(response, str):  # a shared component: described here, to carry the fields
                        code = int(status)
                        response = {"description": http.HTTPStatus(code).phrase,
                                    "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}}}
                        if code in (429, 503):
                            response["headers"] = {"Retry-After": RETRY_AFTER}
                        if code == 401:
                            response["headers"] = {"WWW-Authenticate": WWW_AUTHENTICATE}
                        responses[status] = response
                    if isinstance(response, dict) and "$ref" not in response:
                        for name, header in RATELIMIT_HEADERS.items():
                            response.setdefault("headers", {}).setdefault(name, header)


def error_responses(blp, *statuses: int):
    """Decorator: document that an operation answers these statuses (as problem documents)."""
    names = _error_status_names()

    def decorator(func):
        for status in statuses:
            func = blp.alt_response(status, response=names[status])(func)
        return func

    return decorator


# ----- authentication in the OpenAPI document ------------------------------------------------------
BEARER = "bearer"
SECURITY_SCHEME = {
    "type": "http", "scheme": "bearer",
    "description": "A player's token from `POST /v1/players` (or `POST /v1/players/me/token`), sent as "
                   "`Authorization: Bearer <token>`. A missing token where one is required, and an invalid, "
                   "expired or revoked one anywhere, is a 401 problem with `WWW-Authenticate: Bearer`."}
REQUIRED_AUTH = [{BEARER: []}]        # the operation needs a token
OPTIONAL_AUTH = [{}, {BEARER: []}]    # anonymous or with a token (then it must be valid)


def authenticated(blp, *, optional: bool = False):
    """Decorator (put it above flask-smorest's own): the operation needs a bearer token (or, with
    ``optional``, takes one). The token is checked before anything else, the body included, so a
    missing (when required) or bad token is always a 401; the operation's ``security`` and its 401
    response are documented."""

    def decorator(func):
        @functools.wraps(func)
        def checked(*args, **kwargs):
            principal(required=not optional)
            return func(*args, **kwargs)

        checked._auth = "optional" if optional else "required"  # read by check_token_first
        documented = blp.doc(security=OPTIONAL_AUTH if optional else REQUIRED_AUTH)(checked)
        return blp.alt_response(401, response="UNAUTHORIZED")(documented)

    return decorator


def check_token_first() -> None:
    """Before the body is read: the token of an operation marked ``authenticated`` (401 when it is
    missing where required, or bad). Runs after the rate limits, which count refused requests too."""
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    cls = getattr(view, "view_class", None)
    handler = getattr(cls, request.method.lower(), None) if cls is not None else view
    if handler is None and cls is not None and request.method == "HEAD":
        handler = getattr(cls, "get", None)
    mode = getattr(handler, "_auth", None)
    if mode:
        principal(required=mode == "required")


# ----- hostile input ---------------------------------------------------------------------------
def _bounded_int(text: str) -> int:
    value = int(text) if len(text) <= 20 else INT64  # never convert a huge digit string
    if not -INT64 <= value < INT64:
        raise ValueError("integers must fit in 64 bits")
    return value


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError("numbers must be finite")
    return value


def _depth_within(value, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return True


def check_json_body() -> None:
    """Refuse (400) a JSON body that no endpoint could take: nested too deep, or with numbers too
    large for the parsers downstream (Python's 4,300-digit limit, 64-bit storage)."""
    if not request.is_json:
        return
    raw = request.get_data(cache=True)
    if not raw:
        return
    try:
        value = parse_checked_json(raw)
    except RecursionError:
        raise ApiError(400, "Bad Request", f"the JSON body nests more than {MAX_JSON_DEPTH} levels deep",
                       "json-too-deep") from None
    except ValueError as err:  # JSONDecodeError, bad UTF-8, a too-large number
        raise ApiError(400, "Bad Request", f"the body is not acceptable JSON: {err}", "invalid-json") from None
    if not _depth_within(value, MAX_JSON_DEPTH):
        raise ApiError(400, "Bad Request", f"the JSON body nests more than {MAX_JSON_DEPTH} levels deep",
                       "json-too-deep")
    if _plain_utf8(raw):  # what webargs would parse from it is this value: it need not parse it again
        g.json_body = value


def parse_checked_json(raw: bytes):
    """A JSON body's value, its numbers bounded (ValueError, RecursionError when too deep); its
    bytes decoded as ``json.loads`` decodes them."""
    return parse_checked_text(raw.decode(json.detect_encoding(raw), "surrogatepass"))


def parse_checked_text(text: str):
    """``parse_checked_json`` of a body's text."""
    return _CHECKED_DECODER.decode(text)


def _plain_utf8(raw: bytes) -> bool:
    """Whether ``raw`` is UTF-8 without a byte-order mark: then ``json.loads`` of the bytes (above)
    and webargs' ``json.loads`` of their strict UTF-8 text read the same value (for other
    encodings, which json.loads detects and webargs refuses, webargs keeps answering itself)."""
    try:
        return not raw.decode("utf-8").startswith("\ufeff")
    except UnicodeDecodeError:
        return False


class CheckedJsonParser(FlaskParser):
    """webargs' Flask parser taking a JSON body that ``check_json_body`` parsed already (the same
    bytes, the same value) rather than parsing it a second time, and making each schema class of an
    operation's arguments once (webargs makes one per request; a marshmallow 4 schema keeps no
    state between loads)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._schemas: dict[type, Schema] = {}

    def _raw_load_json(self, req):
        if is_json_request(req) and "json_body" in g:
            return g.json_body
        return super()._raw_load_json(req)

    def _get_schema(self, argmap, req):
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            schema = self._schemas.get(argmap)
            if schema is None:
                schema = self._schemas[argmap] = argmap()
            return schema
        return super()._get_schema(argmap, req)


# every flask-smorest Blueprint's ``arguments`` (set before any service module defines its routes)
ArgumentsMixin.ARGUMENTS_PARSER = CheckedJsonParser()


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")


# json.loads with these arguments makes a decoder for every call; one does for all
_CHECKED_DECODER = json.JSONDecoder(parse_int=_bounded_int, parse_float=_finite_float,
                                    parse_constant=_refuse_constant)


def check_url_length() -> None:
    target = request.environ.get("RAW_URI") or request.full_path
    if len(target.encode("utf-8", "replace")) > MAX_URL_BYTES:
        raise ApiError(414, "URI Too Long", f"the request target is longer than {MAX_URL_BYTES} bytes",
                       "uri-too-long")


# ----- error handlers --------------------------------------------------------------------------
def _field_messages(messages, path: str, out: dict[str, list[str]]) -> None:
    """Flatten marshmallow's nested messages into {dotted field path: [message, ...]}."""
    if isinstance(messages, dict):
        for key, value in messages.items():
            key = str(key)
            _field_messages(value, path if key == "_schema" else f"{path}.{key}" if path else key, out)
    elif isinstance(messages, (list, tuple)) and all(isinstance(m, str) for m in messages):
        out.setdefault(path, []).extend(messages)
    elif isinstance(messages, (list, tuple)):
        for i, value in enumerate(messages):
            _field_messages(value, f"{path}.{i}" if path else str(i), out)
    else:
        out.setdefault(path, []).append(str(messages))


LOCATIONS = {"json": "body", "form": "body", "querystring": "query", "query": "query", "headers": "headers",
             "view_args": "path"}


def validation_errors(messages: dict) -> dict[str, list[str]]:
    """webargs' messages (by location, then field) as {field: [messages]}: body and query fields by
    their names, a message about a whole body or query under ``body`` or ``query``."""
    out: dict[str, list[str]] = {}
    for location, value in messages.items():
        where = LOCATIONS.get(str(location), str(location))
        if isinstance(value, dict):
            for key, inner in value.items():
                _field_messages(inner, where if str(key) == "_schema" else str(key), out)
        else:
            _field_messages(value, where, out)
    return out


def validation_detail(errors: dict[str, list[str]]) -> str:
    """A sentence for a human: which fields are invalid and why (the first message of each)."""
    shown = [f"{field} ({msgs[0].rstrip('.')})" if msgs else field for field, msgs in list(errors.items())[:3]]
    more = len(errors) - len(shown)
    tail = f" and {more} more" if more > 0 else ""
    noun = "field of the request is" if len(errors) == 1 else "fields of the request are"
    return f"{len(errors)} {noun} invalid: {', '.join(shown)}{tail}."


def _http_error(err: HTTPException) -> Response:
    detail = err.description or err.name
    data = getattr(err, "data", None) or {}
    messages = data.get("messages") if isinstance(data, dict) else None
    extra = {}
    if messages and isinstance(messages, dict):
        extra["errors"] = validation_errors(messages)
        detail = validation_detail(extra["errors"])
    headers = {k: v for k, v in err.get_headers() if k.lower() != "content-type"}  # Allow on a 405
    return problem(err.code or 500, err.name, detail, headers=headers, **extra)


def _redis_outage(err: Exception) -> Response:
    logging.getLogger("web").warning("redis unavailable during %s %s: %s", request.method, request.path, err)
    return problem(503, "Service Unavailable", "the data store is unavailable; retry shortly", "store-unavailable",
                   headers={"Retry-After": str(REDIS_RETRY_AFTER_S)})


class HealthOut(Schema):
    status = fields.String()


def _health_blueprint(client: redis.Redis) -> Blueprint:
    blp = Blueprint("health", __name__, description="Liveness and readiness")

    @blp.route("/healthz")
    @blp.response(200, HealthOut)
    def healthz():
        """Liveness: the process answers."""
        return {"status": "ok"}

    @blp.route("/readyz")
    @blp.response(200, HealthOut)
    @error_responses(blp, 503)
    def readyz():
        """Readiness: the process reaches its Redis."""
        try:
            client.ping()
        except redis.RedisError as err:
            raise ApiError(503, "Service Unavailable", f"redis is not reachable: {err}", "store-unavailable")
        return {"status": "ready"}

    return blp


def create_base_app(name: str, config: Config, client: redis.Redis, version: str = "1.0") -> tuple[Flask, Api]:
    app = Flask(name)
    app.json = SortedJSONProvider(app)  # Flask's JSON, written by orjson
    app.config.update(
        API_TITLE=f"{name} service", API_VERSION=version, OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json", JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=256 * 1024,  # no move or table needs more; larger bodies get 413
    )
    app.extensions["config"] = config
    app.extensions["redis"] = client
    app.extensions["tokens"] = Tokens(config.auth_secret, client)
    metrics.install(app, name, [metrics.StreamLag(client, stream_groups_of(name))])  # GET /metrics
    apidocs.configure(app, name)  # /docs: Swagger UI with local assets; the document's Markdown description
    api = ProblemApi(app, spec_kwargs={"extra_plugins": [ProblemResponsesPlugin()]})
    api.spec.components.security_scheme(BEARER, SECURITY_SCHEME)
    install_cors(app)  # CORS_ORIGINS
    # in this order: the request target's length, the rate limits (so that every refusal below
    # counts, and says so), the token, the body
    app.before_request(check_url_length)
    install_limits(app, limits_storage_uri(config))
    app.before_request(check_token_first)
    app.before_request(check_json_body)

    @app.errorhandler(ApiError)
    def _api_error(err: ApiError):
        headers = {"Retry-After": str(REDIS_RETRY_AFTER_S)} if err.status == 503 else None
        if err.status == 401:  # RFC 6750: say which scheme, and whether the token itself was at fault
            headers = {"WWW-Authenticate": 'Bearer realm="tabletop"' + (
                ', error="invalid_token"' if err.slug == "invalid-token" else "")}
        answer = problem(err.status, err.title, err.detail, err.slug, headers=headers, **err.extra)
        if "retry_after" in err.extra:
            answer.headers["Retry-After"] = str(err.extra["retry_after"])
        return answer

    @app.errorhandler(registry.NotInstalled)
    def _not_installed(err: registry.NotInstalled):
        # a log written by rules this server does not have (a newer release's, or a retired
        # version): not a crash, and the log is not at fault
        return problem(501, "Not Implemented", f"{err}; a release that has it can serve this match",
                       "engine-not-installed", game=err.game_id, engine=err.version,
                       installed=registry.versions(err.game_id))

    @app.errorhandler(DamagedLog)
    def _damaged_log(err: DamagedLog):
        # the stored log cannot be read back: the server's data is at fault, not the request, and
        # retrying will not help until an operator restores it (so no Retry-After); docs/api.md
        logging.getLogger(name).error("damaged log of match %s: %s", err.match_id, err.message)
        return problem(503, "Service Unavailable", f"the stored log of match {err.match_id} is damaged: "
                       f"{err.message}; its audit names the damage", "damaged-log",
                       match_id=err.match_id, seq=err.seq, reason=err.reason)

    app.register_error_handler(HTTPException, _http_error)
    for outage in REDIS_OUTAGE:
        app.register_error_handler(outage, _redis_outage)

    @app.errorhandler(Exception)
    def _unexpected(err: Exception):
        if isinstance(err, HTTPException):
            return _http_error(err)
        if isinstance(err, REDIS_OUTAGE):
            return _redis_outage(err)
        logging.getLogger(name).exception("unhandled error")
        return problem(500, "Internal Server Error", "an unexpected error occurred; it has been logged")

    api.register_blueprint(_health_blueprint(client))
    return app, api

