"""Players: a name and an id; the bearer token is signed, so only its id is stored."""
from __future__ import annotations

import time
import uuid

import redis


def player_key(player_id: str) -> str:
    return f"mm:player:{player_id}"


class Players:
    def __init__(self, client: redis.Redis):
        self.r = client

    def create(self, name: str) -> dict:
        player_id = uuid.uuid4().hex
        self.r.hset(player_key(player_id), mapping={"name": name, "created_at": time.time()})
        return {"player_id": player_id, "name": name}

    def get(self, player_id: str) -> dict | None:
        raw = self.r.hgetall(player_key(player_id))
        if not raw:
            return None
        return {"player_id": player_id, "name": raw[b"name"].decode()}
