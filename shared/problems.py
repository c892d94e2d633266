"""Errors as RFC 9457 problem documents (``application/problem+json``): the answer every service
gives for every error, and the exception that asks for one from anywhere in a request.

The lowest layer of the web platform: ``shared.web`` (the apps' error handlers), ``shared.limits``
(429 answers) and ``shared.caller`` (401 answers) build on it.
"""
from __future__ import annotations

from flask import Response

from .canonical import dumps

PROBLEM = "application/problem+json"


def problem(status: int, title: str, detail: str, slug: str | None = None, *, headers: dict | None = None,
            **extra) -> Response:
    """A problem document of ``type`` ``urn:problem:<slug>`` (the slug defaults to the title's)."""
    body = {"type": f"urn:problem:{slug or title.lower().replace(' ', '-')}", "title": title,
            "status": status, "detail": detail, **extra}
    return Response(dumps(body), status=status, mimetype=PROBLEM, headers=headers)


class ApiError(Exception):
    """Raise anywhere in a request to answer with a problem document."""

    def __init__(self, status: int, title: str, detail: str, slug: str | None = None, **extra):
        super().__init__(detail)
        self.status, self.title, self.detail, self.slug, self.extra = status, title, detail, slug, extra
