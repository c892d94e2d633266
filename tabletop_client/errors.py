"""Errors of the client: every refusal of the server is an ``ApiProblem`` carrying its problem document."""
from __future__ import annotations


class ApiProblem(Exception):
    """A 4xx/5xx answer. ``type``, ``title``, ``status`` and ``detail`` come from the server's
    ``application/problem+json`` body (RFC 9457); ``body`` is the whole document (it may hold more,
    such as ``current_version`` on a stale move or ``errors`` on invalid input)."""

    def __init__(self, status: int, type: str, title: str, detail: str, body: dict | None = None):
        super().__init__(f"{status} {title}: {detail}")
        self.status, self.type, self.title, self.detail = status, type, title, detail
        self.body = body or {}

    @classmethod
    def from_response(cls, resp) -> ApiProblem:
        try:
            body = resp.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return cls(resp.status_code, "about:blank", resp.reason or "Error", (resp.text or "")[:500], None)
        return cls(resp.status_code, body.get("type", "about:blank"), body.get("title", resp.reason or "Error"),
                   body.get("detail", ""), body)

    @property
    def stale(self) -> bool:
        """A move on a version that is no longer the match's (read again, decide again)."""
        return self.status == 409 and self.type.endswith("stale-version")


class Unavailable(Exception):
    """The server could not be reached (or kept failing) after every retry."""
