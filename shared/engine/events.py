"""Events: the plain-JSON facts a match's log is made of.

An event is ``{"type": str, "data": {...}}`` with two optional hidden parts:

* ``private``: ``{"<seat>": {...}}`` — facts only that seat may see while the match is active
  (the cards it drew, the card it took). Redaction merges the viewer's part into ``data``.
* ``secret``: ``{...}`` — facts nobody may see while the match is active (deck orders after a
  shuffle, face-down cards nobody has looked at). They exist so that ``evolve`` can rebuild the
  exact state from the log alone.

After a match ends every part is open to everyone.
"""
from __future__ import annotations

from typing import Any, Mapping

Event = dict  # {"type", "data", "private"?, "secret"?}


def make_event(
    type: str,
    data: Mapping[str, Any] | None = None,
    *,
    private: Mapping[int | str, Mapping[str, Any]] | None = None,
    secret: Mapping[str, Any] | None = None,
) -> Event:
    ev: Event = {"type": type, "data": dict(data or {})}
    if private:
        ev["private"] = {str(seat): dict(part) for seat, part in private.items()}
    if secret:
        ev["secret"] = dict(secret)
    return ev


def redact(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` (None: a spectator) may see it while the match is active."""
    data = dict(event.get("data") or {})
    if seat is not None:
        mine = (event.get("private") or {}).get(str(seat))
        if mine:
            data.update(mine)
    return {"type": event["type"], "data": data}

