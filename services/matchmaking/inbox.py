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
matchmaking consumers may take two notices of one match at once: on a single Redis the notices of
one read are fanned out by one script call (for each notice, the check of the last version, every
player's event and the new last version, atomically: one durable write per read); on a Redis Cluster, where the inboxes live in
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

# The notices of one read in one script call. KEYS: per notice, its match's seen key, then one
# inbox per event. ARGV: the seen keys' ttl, the inboxes' cap, then per notice: its version, its
# number of events, then per event: '1' when it is only for the match's first notice, its type, its
# data. Nothing is written for a notice at or below the last version fanned out. The seen key is
# read and written in one SET ... GET (Redis 6.2); a notice delivered again (or late) puts the last
# version back. Returns one flag per notice: 1 done, 0 failed — an inbox refused its event (a key
# of another type): the seen key is put back, so that the notice's redelivery writes it again, and
# the notices after it are still fanned out.
_FAN_OUT = """
local ttl, cap = ARGV[1], ARGV[2]
local k, a = 1, 3
local done = {}
while a <= #ARGV do
  local seen, version, n = KEYS[k], ARGV[a], tonumber(ARGV[a + 1])
  local last = redis.call('SET', seen, version, 'EX', ttl, 'GET')
  local ok = 1
  if last and tonumber(last) >= tonumber(version) then
    redis.call('SET', seen, last, 'EX', ttl)
  else
    for e = 0, n - 1 do
      local i = a + 2 + 3 * e
      if ARGV[i] == '0' or not last then
        local added = redis.pcall('XADD', KEYS[k + 1 + e], 'MAXLEN', '~', cap, '*', 'type', ARGV[i + 1], 'm', ARGV[i + 2])
        if type(added) == 'table' and added.err then ok = 0 break end
      end
    end
    if ok == 0 then
      if last then redis.call('SET', seen, last, 'EX', ttl) else redis.call('DEL', seen) end
    end
  end
  done[#done + 1] = ok
  k = k + 1 + n
  a = a + 2 + 3 * n
end
return done
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
            if not self.fan_out_many([notice])[0]:
                raise RuntimeError(f"fan-out of notice {notice.get('match_id')} v{notice.get('version')} failed")
            return
        with self.r.lock(f"mm:notice-lock:{notice['match_id']}", timeout=30, blocking_timeout=30):
            self._fan_out(notice)

    def fan_out_many(self, notices: list[dict]) -> list[bool]:
        """``fan_out`` of several notices, in order: on a single Redis in one script call (one round
        trip, one durable write); whether each was fanned out (a failed one is delivered again:
        ``fan_out`` is idempotent)."""
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
        keys: list = []
        args: list = [SEEN_TTL_S, INBOX_MAXLEN]
        sent = []  # whether each notice went into the call (a malformed one does not)
        for notice in notices:
            try:
                events, match_id, version = self._events(notice), notice["match_id"], int(notice["version"])
            except (KeyError, TypeError, ValueError):
                log.exception("notice %r cannot be fanned out", notice)
                sent.append(False)
                continue
            keys += [seen_key(match_id), *(inbox_key(player) for _first, player, _kind, _data in events)]
            args += [version, len(events)]
            for first_only, _player, kind, data in events:
                args += ["1" if first_only else "0", kind, dumps(data)]
            sent.append(True)
        flags = iter(self._fan_out_script(keys=keys, args=args) if keys else [])
        return [bool(next(flags)) if went else False for went in sent]

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
