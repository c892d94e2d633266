"""Each player's inbox: a capped Redis stream ``mm:inbox:{player_id}`` of the events that concern
them, read by ``GET /v1/players/me/stream``.

Event types (each with a JSON ``data``):

- ``invitation``: a host reserved a seat for you (``table_id``, ``game``, ``host``, ``host_name``,
  ``seat``, ``expires_at``); ``invitation_expired`` and ``invitation_withdrawn`` when it lapses;
  ``invitation_declined`` goes to the host when the invitee declines.
- ``match_started``, ``your_turn``, ``match_ended`` (``match_id``, ``game``, ``seat``, ``version``;
  ``status`` when ended): fanned out from the rules service's notices (``shared.notices``).

A match's first notice seen is its start; notices at or below the last version fanned out for a
match (a redelivery, a retried bot turn) are dropped, so a player gets each event once. Two
matchmaking consumers may take two notices of one match at once: each match's fan-out runs under a
short lock (``mm:notice-lock:<match>``), so they do not both take a notice for its first.
"""
from __future__ import annotations

import re

import redis

from shared.canonical import dumps, loads
from shared.web import ApiError

INBOX_MAXLEN = 1000
SEEN_TTL_S = 30 * 24 * 3600
ENTRY_ID = re.compile(r"^(\d{1,19})(?:-(\d{1,19}))?$")
MAX_ID_PART = 2 ** 64 - 1


def inbox_key(player_id: str) -> str:
    return f"mm:inbox:{player_id}"


def seen_key(match_id: str) -> str:
    return f"mm:notice-seen:{match_id}"


def parse_last_event_id(raw: str) -> str:
    """A stream entry id (``ms-seq`` or ``ms``) from ``Last-Event-ID``; 400 for anything else."""
    m = ENTRY_ID.match(raw.strip())
    if not m or int(m.group(1)) > MAX_ID_PART or int(m.group(2) or 0) > MAX_ID_PART:
        raise ApiError(400, "Bad Request", "Last-Event-ID must be the id of an event of this stream "
                       "(digits, or digits-digits)", "bad-last-event-id")
    return f"{int(m.group(1))}-{int(m.group(2) or 0)}"


class Inbox:
    def __init__(self, client: redis.Redis):
        self.r = client

    def post(self, player_id: str, kind: str, data: dict) -> str:
        """Add one event to the player's inbox; returns its id."""
        return self.r.xadd(inbox_key(player_id), {"type": kind, "m": dumps(data)},
                           maxlen=INBOX_MAXLEN, approximate=True).decode()

    def head(self, player_id: str) -> str:
        """The id of the newest event (``0-0`` for an empty inbox): reading after it gives only new events."""
        newest = self.r.xrevrange(inbox_key(player_id), count=1)
        return newest[0][0].decode() if newest else "0-0"

    def read(self, player_id: str, after: str, block_ms: int | None = None, count: int = 100,
             client: redis.Redis | None = None) -> list[tuple[str, str, dict]]:
        """Events after ``after`` as (id, type, data), waiting up to ``block_ms`` when there are none."""
        got = (client or self.r).xread({inbox_key(player_id): after}, count=count, block=block_ms)
        out = []
        for _stream, entries in got or []:
            for entry_id, fields in entries:
                out.append((entry_id.decode(), fields[b"type"].decode(), loads(fields[b"m"])))
        return out

    # ----- notices from the rules service ------------------------------------------------------------
    def fan_out(self, notice: dict) -> None:
        """Turn one rules notice into the events of each player it concerns (idempotent)."""
        with self.r.lock(f"mm:notice-lock:{notice['match_id']}", timeout=30, blocking_timeout=30):
            self._fan_out(notice)

    def _fan_out(self, notice: dict) -> None:
        match_id, version = notice["match_id"], int(notice["version"])
        key = seen_key(match_id)
        last = self.r.get(key)
        if last is not None and int(last) >= version:
            return
        base = {"match_id": match_id, "game": notice["game"], "version": version}
        to_act = set(notice["to_act"])
        for seat, player_id, human in notice["players"]:
            if last is None:
                self.post(player_id, "match_started", {**base, "seat": seat})
            if notice["status"] != "active":
                self.post(player_id, "match_ended", {**base, "seat": seat, "status": notice["status"]})
            elif human and seat in to_act:
                self.post(player_id, "your_turn", {**base, "seat": seat})
        self.r.set(key, version, ex=SEEN_TTL_S)
