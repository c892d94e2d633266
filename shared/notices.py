"""Player notices: what the rules service tells matchmaking after every change of a match with
human seats, so that matchmaking can tell each player (``GET /v1/players/me/stream``).

One message per change on ``stream:players:notices``: the match, its game, version and status, the
seats to act now and every seat held by a player (with whether a human still controls it). The
stream is capped (``NOTICES_MAXLEN``, approximate); matchmaking's consumer fans it out.
"""
from __future__ import annotations

import redis

from .canonical import dumps

PLAYER_NOTICES = "stream:players:notices"
NOTICES_MAXLEN = 100_000


def notice_of(mstate: dict, to_act: list[int]) -> dict | None:
    """The notice for this state (None for a match without players: bots only)."""
    players = [[i, s["player_id"], mstate["controllers"][i] == "human"]
               for i, s in enumerate(mstate["seats"]) if s.get("player_id")]
    if not players:
        return None
    return {"match_id": mstate["match_id"], "game": mstate["game_id"], "version": mstate["version"],
            "status": mstate["status"], "to_act": list(to_act), "players": players}


def publish_notice(client: redis.Redis, mstate: dict, to_act: list[int]) -> None:
    """Publish the notice of this state, if the match has players."""
    notice = notice_of(mstate, to_act)
    if notice is not None:
        client.xadd(PLAYER_NOTICES, {"m": dumps(notice)}, maxlen=NOTICES_MAXLEN, approximate=True)
