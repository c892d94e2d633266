"""Players: a name and an id; the bearer token is signed, so only its id is stored.

Names are unique after Unicode normalisation (NFKC, then case folding): ``Ａlice`` and ``ALICE``
are both ``alice``. A name is 1 to 32 printable characters, none of them a control or format
character (Unicode categories Cc and Cf, which include the bidirectional overrides U+202A-202E and
isolates U+2066-2069), with no leading or trailing white space; the prefix ``bot:`` is reserved
for bots. ``mm:names`` maps each normalised name to its player (claimed atomically with HSETNX).
"""
from __future__ import annotations

import time
import unicodedata
import uuid

import redis

from shared.web import ApiError

NAMES = "mm:names"  # hash: normalised name -> player id
MAX_NAME = 32
RESERVED_PREFIX = "bot:"


def player_key(player_id: str) -> str:
    return f"mm:player:{player_id}"


def normalise(name: str) -> str:
    """The form two names are compared in."""
    return unicodedata.normalize("NFKC", name).casefold()


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player name, or None when it can."""
    if not 1 <= len(name) <= MAX_NAME:
        return f"a name is 1 to {MAX_NAME} characters; this one has {len(name)}"
    for ch in name:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cf"):
            return f"a name may not contain control or format characters such as U+{ord(ch):04X}"
        if not ch.isprintable():
            return f"a name is printable characters only; U+{ord(ch):04X} is not"
    if name != name.strip():
        return "a name may not begin or end with white space"
    key = normalise(name)
    if not 1 <= len(key) <= MAX_NAME:
        return f"a name is 1 to {MAX_NAME} characters once normalised (NFKC); this one has {len(key)}"
    if key.startswith(RESERVED_PREFIX):
        return f"names beginning with {RESERVED_PREFIX!r} are reserved for bots"
    return None


class Players:
    def __init__(self, client: redis.Redis):
        self.r = client

    def create(self, name: str) -> dict:
        """Register a player; 422 for an invalid name, 409 for a taken one."""
        reason = name_problem(name)
        if reason:
            raise ApiError(422, "Unprocessable Entity", reason, "invalid-name")
        player_id = uuid.uuid4().hex
        if not self.r.hsetnx(NAMES, normalise(name), player_id):
            raise ApiError(409, "Conflict", f"the name {name!r} is taken (names are compared case-insensitively "
                           "after Unicode normalisation)", "name-taken")
        self.r.hset(player_key(player_id), mapping={"name": name, "created_at": time.time()})
        return {"player_id": player_id, "name": name}

    def get(self, player_id: str) -> dict | None:
        raw = self.r.hgetall(player_key(player_id))
        if not raw:
            return None
        return {"player_id": player_id, "name": raw[b"name"].decode()}
