"""Bearer tokens, signed so that every service can check them without sharing storage.

A player token names a player, the token generation it belongs to and when it expires
(``{"p": player_id, "g": generation, "x": expires_at}``); a bot token names one seat of one match
and when it expires (``{"b": level, "m": match_id, "s": seat, "x": expires_at}``).

Expiry is checked from the token itself (``TOKEN_TTL_S``, 30 days by default). Revocation costs at
most one Redis read: rotating a player's token (``Tokens.rotate``) increments the player's generation
(``auth:token-gen:{player_id}``, absent = 0), and a token is valid only while its generation is the
current one, so every older token of that player is revoked at once. A process keeps a generation it
read for at most ``TOKEN_GENERATION_CACHE_S`` (1 s by default, 0 = read it for every request), so a
player's requests in one second cost one read, and a rotated token is refused everywhere within that
bound (at once by the process that rotated it). Every service that verifies
tokens (matchmaking, rules, scoring) shares ``AUTH_SECRET`` and the Redis that holds the generations.
Bot tokens name one seat of one match and expire after ``BOT_TOKEN_TTL_S`` (10 minutes by default):
the rules service mints one for each bot job, so bot workers hold no signing key and a token taken
from a job acts for that seat of that match only, and not for long.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Callable

import redis
from itsdangerous import BadSignature, URLSafeSerializer

from shared.lru import Lru

DEFAULT_TOKEN_TTL_S = 30 * 24 * 3600
DEFAULT_BOT_TOKEN_TTL_S = 600
DEFAULT_GENERATION_CACHE_S = 1.0  # the longest a rotated token is still accepted by another process
GENERATION_CACHE_MAX = 10_000     # players whose generation one process keeps at most
VERIFIED_CACHE_MAX = 10_000       # tokens whose checked signature one process remembers at most


def bot_token_ttl_s() -> float:
    """How long a bot's token (one seat of one match) stays valid: ``BOT_TOKEN_TTL_S``."""
    return float(os.environ.get("BOT_TOKEN_TTL_S", DEFAULT_BOT_TOKEN_TTL_S))


LEGACY_EXPIRY = "auth:legacy-expiry"  # hash: "player" / "bot" -> when tokens without an expiry expire


def generation_key(player_id: str) -> str:
    return f"auth:token-gen:{player_id}"


def generation_cache_s_default() -> float:
    """How long a process trusts a token generation it read: ``TOKEN_GENERATION_CACHE_S`` (at most
    the default's order: a rotated token is accepted elsewhere for up to this long)."""
    return float(os.environ.get("TOKEN_GENERATION_CACHE_S", DEFAULT_GENERATION_CACHE_S))


def token_ttl_s() -> float:
    """The lifetime of a player token, from ``TOKEN_TTL_S``."""
    return float(os.environ.get("TOKEN_TTL_S", DEFAULT_TOKEN_TTL_S))


@dataclass(frozen=True)
class Principal:
    player_id: str | None = None
    bot_match: str | None = None
    bot_seat: int | None = None
    bot_level: str | None = None
    expires_at: float | None = None
    generation: int | None = None  # a player token's generation (rotating the token moves it on)

    @property
    def is_bot(self) -> bool:
        return self.bot_match is not None


class Tokens:
    """Mints and verifies bearer tokens. ``client``: the Redis holding token generations (without
    one, revocation is not checked: only minting bot tokens needs no Redis)."""

    def __init__(self, secret: str, client: redis.Redis | None = None, *, ttl_s: float | None = None,
                 clock: Callable[[], float] = time.time, generation_cache_s: float | None = None,
                 monotonic: Callable[[], float] = time.monotonic):
        self._s = URLSafeSerializer(secret, salt="bearer-v1")
        self.r = client
        self.ttl_s = token_ttl_s() if ttl_s is None else ttl_s
        self.clock = clock
        self._legacy: dict[str, float] = {}  # written once by a migration, never changed: cached
        self.generation_cache_s = generation_cache_s_default() if generation_cache_s is None else generation_cache_s
        self._monotonic = monotonic
        self._generations = Lru(GENERATION_CACHE_MAX)  # player -> (generation, when read: monotonic)
        self._signed = Lru(VERIFIED_CACHE_MAX)  # token -> whom it names, once its signature checked out

    def _legacy_expiry(self, kind: str) -> float | None:
        """When tokens of ``kind`` ("player", "bot") issued without an expiry expire (set once by the
        upgrade's migration; None before it, or without a Redis: they are then refused)."""
        cached = self._legacy.get(kind)
        if cached is not None or self.r is None:
            return cached
        raw = self.r.hget(LEGACY_EXPIRY, kind)
        if raw is None:
            return None
        self._legacy[kind] = float(raw)
        return self._legacy[kind]

    def _generation(self, player_id: str, *, cached: bool = True) -> int:
        """The player's current generation: Redis's, or (``cached``) the one this process read less
        than ``generation_cache_s`` ago."""
        if self.r is None:
            return 0
        now = self._monotonic()
        known = self._generations.get(player_id) if cached else None
        if known is not None and now - known[1] < self.generation_cache_s:
            return known[0]
        raw = self.r.get(generation_key(player_id))
        generation = int(raw) if raw is not None else 0
        self._remember(player_id, generation, now)
        return generation

    def _remember(self, player_id: str, generation: int, now: float) -> None:
        """Keep a generation just read (the least recently used player is dropped past the cap)."""
        if self.generation_cache_s > 0:
            self._generations.put(player_id, (generation, now))

    def for_player(self, player_id: str, generation: int | None = None) -> str:
        gen = self._generation(player_id, cached=False) if generation is None else generation
        return self._s.dumps({"p": player_id, "g": gen, "x": int(self.clock() + self.ttl_s)})

    def rotate(self, player_id: str) -> str:
        """A new token for the player; every older token of the player stops working."""
        generation = int(self.r.incr(generation_key(player_id)))
        self._remember(player_id, generation, self._monotonic())  # refused here at once
        return self.for_player(player_id, generation)

    def for_bot(self, match_id: str, seat: int, level: str, ttl_s: float | None = None) -> str:
        ttl = bot_token_ttl_s() if ttl_s is None else ttl_s
        return self._s.dumps({"b": level, "m": match_id, "s": seat, "x": int(self.clock() + ttl)})

    def _claims(self, token: str) -> Principal | None:
        """Whom a token names (its expiry and generation not yet checked), or None: a bad signature
        or a malformed payload. A good signature stays good and a payload never changes, so a
        process reads each token once (the HMAC, the base64 JSON and the checks of its fields are
        most of a request's cost of authentication); what may change — expiry, generation — is
        checked by ``verify`` on every request."""
        known = self._signed.get(token)
        if known is not None:
            return known
        try:
            raw = self._s.loads(token)
        except BadSignature:
            return None
        claims = self._claims_of(raw)
        if claims is not None:
            self._signed.put(token, claims)
        return claims

    def _claims_of(self, raw) -> Principal | None:
        if not isinstance(raw, dict):
            return None
        try:
            if "p" in raw and "x" not in raw and "g" not in raw:  # issued before tokens expired
                raw = {"p": raw["p"], "g": 0, "x": self._legacy_expiry("player")}
            elif "m" in raw and "x" not in raw:
                raw = dict(raw, x=self._legacy_expiry("bot"))
            if not isinstance(raw["x"], (int, float)):  # (None: an old token before its upgrade)
                return None
            if "p" in raw:
                if not isinstance(raw["g"], int):
                    return None
                return Principal(player_id=str(raw["p"]), expires_at=float(raw["x"]), generation=raw["g"])
            if "m" in raw:
                return Principal(bot_match=str(raw["m"]), bot_seat=int(raw["s"]), bot_level=str(raw["b"]),
                                 expires_at=float(raw["x"]))
        except (KeyError, TypeError, ValueError):
            return None
        return None

    def verify(self, token: str) -> Principal | None:
        claims = self._claims(token)
        if claims is None or claims.expires_at <= self.clock():
            return None
        if claims.player_id is None or self.r is None:  # a bot's token, or no revocation to check
            return claims
        return claims if claims.generation == self._generation(claims.player_id) else None

    def from_header(self, header: str | None) -> Principal | None:
        scheme, _, token = (header or "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():  # the scheme is case-insensitive (RFC 9110)
            return None
        return self.verify(token.strip())


def _legacy_token_expiry(client: redis.Redis) -> dict:
    """Tokens issued without an expiry get the configured lifetimes, from now (the upgrade). Written
    once (HSETNX): running it again keeps the first upgrade's moment."""
    now = time.time()
    wanted = {"player": now + token_ttl_s(), "bot": now + bot_token_ttl_s()}
    for kind, at in wanted.items():
        client.hsetnx(LEGACY_EXPIRY, kind, repr(at))
    return {k: float(v) for k, v in ((k.decode(), v) for k, v in client.hgetall(LEGACY_EXPIRY).items())}


def auth_migrations():
    """The ``auth`` area's migrations (``shared.migrations``); every service that checks tokens runs them."""
    from .migrations import Migration

    return [Migration(1, "tokens without expiry get the configured lifetime from the upgrade", _legacy_token_expiry)]
