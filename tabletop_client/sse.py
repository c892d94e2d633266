"""Server-sent events (``text/event-stream``) read from a streaming HTTP response."""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ServerEvent:
    id: str | None
    event: str
    data: Any  # the JSON value of the data lines (their text when it is not JSON)


def iter_sse(lines: Iterator[str]) -> Iterator[ServerEvent]:
    """Messages from the lines of an event stream (comments and keep-alives skipped)."""
    event_id, kind, data = None, "message", []
    for line in lines:
        if line == "":
            if data:
                text = "\n".join(data)
                try:
                    value = json.loads(text)
                except ValueError:
                    value = text
                yield ServerEvent(event_id, kind, value)
            event_id, kind, data = None, "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "data":
            data.append(value)
        elif field == "event":
            kind = value
        elif field == "id":
            event_id = value
