"""Each player's inbox: a capped Redis stream ``mm:inbox:{player_id}`` of the events that concern
them, read by ``GET /v1/players/me/stream``.

Event types (each with a JSON ``data``):

- ``invitation``: a host reserved a seat for you (``table_id``, ``game``, ``host``, ``host_name``,
  ``seat``, ``expires_at``); ``invitation_expired`` and ``invitation_withdrawn`` when it lapses;
  ``invitation_declined`` goes to the host when the invitee declines.
- ``match_started``, ``your_turn``, ``match_ended`` (``match_id``, ``game``, ``seat``, ``version``;
  ``status`` when ended): fanned out from the rules service's notices (``shared.notices``).
- ``tournament_invitation`` (``tournament_id``, ``game``, ``format``, ``organiser``) and
  ``tournament_pairing`` (``tournament_id``, ``round``, ``match_id``, ``seat``, ``entrant_id``):
  posted by the tournaments (``services.matchmaking.tournaments``).

A match's first notice seen is its start; notices at or below the last version fanned out for a
match (a redelivery, a retried bot turn) are dropped, so a player gets each event once. Two
matchmaking consumers may take two notices of one match at once: on a single Redis a notice's
fan-out is one script call (the check of the last version, every player's event and the new last
version, atomically: one durable write per notice, and the notices of one read go in one pipeline); on a Redis Cluster, where the inboxes live in
other slots, each match's fan-out runs under a short lock (``mm:notice-lock:<match>``), so they do
not both take a notice for its first.
"""
from __future__ import annotations

import logging
import re

import redis
from redis.cluster import RedisCluster

from shared.canonical import dumps, loads
from shared.web import ApiError

log = logging.getLogger("matchmaking.inbox")

INBOX_MAXLEN = 1000
SEEN_TTL_S = 30 * 24 * 3600
ENTRY_ID = re.compile(r"^(\d{1,19})(?:-(\d{1,19}))?$")
MAX_ID_PART = 2 ** 64 - 1

# KEYS: the match's seen key, then one inbox per event. ARGV: the notice's version, the seen key's
# ttl, the inboxes' cap, then per event: '1' when it is only for the match's first notice, its
# type, its data. Nothing is written for a notice at or below the last version fanned out. The
# seen key is read and written in one SET ... GET (Redis 6.2); a notice delivered again (or late)
# puts the last version back.
_FAN_OUT = """
local last = redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2], 'GET')
if last and tonumber(last) >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], last, 'EX', ARGV[2])
  return 0
end
local n = 0
for i = 4, #ARGV, 3 do
  local key = KEYS[2 + (i - 4) / 3]
  if ARGV[i] == '0' or not last then
    redis.call('XADD', key, 'MAXLEN', '~', ARGV[3], '*', 'type', ARGV[i + 1], 'm', ARGV[i + 2])
    n = n + 1
  end
end
return n
"""


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
        self._fan_out_script = None if isinstance(client, RedisCluster) else client.register_script(_FAN_OUT)

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
        if self._fan_out_script is not None:
            self._fan_out_at_once(notice)
            return
        with self.r.lock(f"mm:notice-lock:{notice['match_id']}", timeout=30, blocking_timeout=30):
            self._fan_out(notice)

    def fan_out_many(self, notices: list[dict]) -> list[bool]:
        """``fan_out`` of several notices, in order: on a single Redis their script calls in one
        pipeline (one round trip, and the writes of one event-loop turn share one fsync); whether
        each was fanned out (a failed one is delivered again: ``fan_out`` is idempotent)."""
        if self._fan_out_script is None:
            done = []
            for notice in notices:
                try:
                    self.fan_out(notice)
                    done.append(True)
                except Exception:  # noqa: BLE001 - this one is retried; the others stand
                    log.exception("fan-out of notice %s v%s failed", notice.get("match_id"), notice.get("version"))
                    done.append(False)
            return done
        pipe = self.r.pipeline(transaction=False)
        for notice in notices:
            self._fan_out_at_once(notice, client=pipe)
        return [not isinstance(result, Exception) for result in pipe.execute(raise_on_error=False)]

    @staticmethod
    def _events(notice: dict) -> list[tuple[bool, str, str, dict]]:
        """(only for the match's first notice, player, type, data) of every event of a notice."""
        match_id, version = notice["match_id"], int(notice["version"])
        base = {"match_id": match_id, "game": notice["game"], "version": version}
        to_act = set(notice["to_act"])
        out = []
        for seat, player_id, human in notice["players"]:
            out.append((True, player_id, "match_started", {**base, "seat": seat}))
            if notice["status"] != "active":
                out.append((False, player_id, "match_ended", {**base, "seat": seat, "status": notice["status"]}))
            elif human and seat in to_act:
                out.append((False, player_id, "your_turn", {**base, "seat": seat}))
        return out

    def _fan_out_at_once(self, notice: dict, client=None) -> None:
        events = self._events(notice)
        args: list = [int(notice["version"]), SEEN_TTL_S, INBOX_MAXLEN]
        for first_only, _player, kind, data in events:
            args += ["1" if first_only else "0", kind, dumps(data)]
        self._fan_out_script(keys=[seen_key(notice["match_id"]), *(inbox_key(e[1]) for e in events)], args=args,
                             client=client)

    def _fan_out(self, notice: dict) -> None:
        """The cluster's fan-out (under the match's lock): the same events, one command each."""
        key = seen_key(notice["match_id"])
        last = self.r.get(key)
        if last is not None and int(last) >= int(notice["version"]):
            return
        for first_only, player_id, kind, data in self._events(notice):
            if not first_only or last is None:
                self.post(player_id, kind, data)
        self.r.set(key, int(notice["version"]), ex=SEEN_TTL_S)
