"""How a stream's messages are written on the wire: server-sent events (the default) or NDJSON.

A client asks for NDJSON with ``Accept: application/x-ndjson``: one JSON object a line (each
message's fields with its event ``id`` and ``event`` type beside its ``data``), and an empty
line as the keep-alive, as Lichess's streams do. Anything else gets ``text/event-stream``. A
message is encoded once per audience and the same bytes go to every watcher of that audience
(``Encoded``), so the formats differ only in how a message's parts are framed.
"""
from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from flask import Response, request, stream_with_context

from .canonical import dumps

SSE = "text/event-stream"
NDJSON = "application/x-ndjson"


@dataclass(frozen=True)
class Encoded:
    """One message in both framings (built once, written to every watcher that wants it)."""
    sse: str
    ndjson: str

    def as_(self, fmt: str) -> str:
        return self.ndjson if fmt == NDJSON else self.sse


def encode(event_id: str | int | None, kind: str, data: dict) -> Encoded:
    """A message: ``id`` (resume point), ``event`` (its type) and a JSON ``data``."""
    body = dumps(data)
    head = f"id: {event_id}\n" if event_id is not None else ""
    line = dumps({"id": event_id, "event": kind, "data": data}) if event_id is not None \
        else dumps({"event": kind, "data": data})
    return Encoded(f"{head}event: {kind}\ndata: {body}\n\n", line + "\n")


def wanted() -> str:
    """The format this request asks for: NDJSON when its ``Accept`` prefers it, SSE otherwise."""
    return request.accept_mimetypes.best_match([SSE, NDJSON], default=SSE)


def keepalive(fmt: str) -> str:
    return "\n" if fmt == NDJSON else f": keep-alive {int(time.time())}\n\n"


def opening(fmt: str, retry_ms: int | None = None) -> str:
    """What a stream starts with: SSE's reconnection delay and a ``connected`` comment; NDJSON's
    first keep-alive (so a client sees the stream is open before any message)."""
    if fmt == NDJSON:
        return "\n"
    return (f"retry: {retry_ms}\n" if retry_ms else "") + ": connected\n\n"


def response(chunks: Iterable[str], fmt: str) -> Response:
    """The streaming answer; ``Vary: Accept`` since one URL speaks both formats."""
    return Response(stream_with_context(iter(chunks)),
                    mimetype=fmt, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no",
                                           "Vary": "Accept"})


OPENAPI_CONTENT = {
    SSE: {"schema": {"type": "string"}, "description": "server-sent events (the default)"},
    NDJSON: {"schema": {"type": "string"}, "description": "one JSON object a line: {\"id\", \"event\", \"data\"}; "
                                                          "empty lines are keep-alives"},
}
