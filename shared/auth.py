"""Bearer tokens, signed so that every service can check them without sharing storage.

A player token names a player (``{"p": player_id}``); a bot token names one seat of one match
(``{"b": level, "m": match_id, "s": seat}``) and is minted by the bot workers for the seat they play.
"""
from __future__ import annotations

from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeSerializer


@dataclass(frozen=True)
class Principal:
    player_id: str | None = None
    bot_match: str | None = None
    bot_seat: int | None = None
    bot_level: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot_match is not None


class Tokens:
    def __init__(self, secret: str):
        self._s = URLSafeSerializer(secret, salt="bearer-v1")

    def for_player(self, player_id: str) -> str:
        return self._s.dumps({"p": player_id})

    def for_bot(self, match_id: str, seat: int, level: str) -> str:
        return self._s.dumps({"b": level, "m": match_id, "s": seat})

    def verify(self, token: str) -> Principal | None:
        try:
            raw = self._s.loads(token)
        except BadSignature:
            return None
        if not isinstance(raw, dict):
            return None
        if "p" in raw:
            return Principal(player_id=str(raw["p"]))
        if "m" in raw:
            return Principal(bot_match=str(raw["m"]), bot_seat=int(raw["s"]), bot_level=str(raw["b"]))
        return None

    def from_header(self, header: str | None) -> Principal | None:
        if not header or not header.startswith("Bearer "):
            return None
        return self.verify(header[len("Bearer "):].strip())
