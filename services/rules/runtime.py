"""The rules service's parts, built once per process from the configuration."""
from __future__ import annotations

from dataclasses import dataclass

import redis

from shared.config import Config
from shared.eventstore.store import EventStore
from shared.matches import Matches

from .deadlines import Deadlines
from .followups import Followups
from .index import MatchIndex


@dataclass
class Runtime:
    config: Config
    redis: redis.Redis
    matches: Matches
    followups: Followups
    deadlines: Deadlines

    @classmethod
    def build(cls, config: Config) -> "Runtime":
        client = redis.Redis.from_url(config.redis_url)
        matches = Matches(EventStore(client), snapshot_every=config.snapshot_every,
                          max_events=config.max_match_events)
        return cls(config, client, matches, Followups(client, matches, config), Deadlines(client, matches))

    def create_match(self, message: dict) -> dict:
        """Create a match from a "match formed" message and start its bots and clocks (once: a
        redelivered message finds the match and changes nothing)."""
        if self.matches.store.exists(message["match_id"]):
            return self.matches.state(message["match_id"])
        mstate = self.matches.create(message["match_id"], message["game"], message.get("options") or {},
                                     message["seats"], turn_seconds=message.get("turn_seconds"))
        MatchIndex(self.redis).refresh(mstate["match_id"])
        self.followups.after_change(mstate)
        self.deadlines.after_change(mstate)
        return mstate
