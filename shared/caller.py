"""The caller of a request: the principal its bearer token (``Authorization: Bearer``) names,
checked by the app's ``Tokens`` (``app.extensions["tokens"]``) once per request.

Used by ``shared.web`` (operations that need or take a token) and ``shared.limits`` (who a
request counts against).
"""
from __future__ import annotations

from flask import current_app, g, request

from .auth import Principal
from .problems import ApiError


def principal(required: bool) -> Principal | None:
    """The caller, from the bearer token; 401 when required and missing or invalid."""
    if "principal" not in g:
        header = request.headers.get("Authorization")
        who = current_app.extensions["tokens"].from_header(header)
        if header and who is None:
            raise ApiError(401, "Unauthorized", "the bearer token is not valid, expired or revoked", "invalid-token")
        g.principal = who
    if required and g.principal is None:
        raise ApiError(401, "Unauthorized", "this request needs 'Authorization: Bearer <token>'", "missing-token")
    return g.principal
