"""The rules service's parts, built once per process from the configuration."""
from __future__ import annotations

from dataclasses import dataclass

import redis

from shared import faults
from shared.config import Config, queue_client, store_client
from shared.eventstore.store import EventStore
from shared.matches import Matches

from .deadlines import Deadlines
from .followups import Followups
from .index import MatchIndex

REDIS_CONNECTIONS = 64   # per process
REDIS_WAIT_S = 10        # a request waits this long for a free connection, then answers 503


@dataclass
class Runtime:
    config: Config
    redis: redis.Redis
    matches: Matches
    followups: Followups
    deadlines: Deadlines

    @classmethod
    def build(cls, config: Config) -> Runtime:
        # Greenlets (gevent workers) can start a thousand requests at once: they wait for one of a
        # bounded set of connections rather than fail with "Too many connections".
        client = store_client(config, max_connections=REDIS_CONNECTIONS, wait_s=REDIS_WAIT_S)
        matches = Matches(EventStore(client), snapshot_every=config.snapshot_every,
                          max_events=config.max_match_events)
        deadlines = Deadlines(client, matches)
        followups = Followups(client, queue_client(config), matches, deadlines, config)
        return cls(config, client, matches, followups, deadlines)

    def create_match(self, message: dict) -> dict:
        """Create a match from a "match formed" message and start its bots and clocks (once: a
        redelivered message finds the match and changes nothing)."""
        if self.matches.store.exists(message["match_id"]):
            return self.matches.state(message["match_id"])
        def create(effects):
            return self.matches.create(message["match_id"], message["game"], message.get("options") or {},
                                       message["seats"], turn_seconds=message.get("turn_seconds"), effects=effects)

        if self.followups.one_write:  # the first append carries the clocks, the notice and the watch
            mstate = create(self.followups.effects(None))
            MatchIndex(self.redis).refresh(mstate["match_id"])
            faults.point("after-create")
            self.followups.after_commit(mstate)
            return mstate
        intent = self.followups.expect(message["match_id"])
        mstate = create(None)
        MatchIndex(self.redis).refresh(mstate["match_id"])
        faults.point("after-create")
        self.followups.after_change(mstate, [intent])
        return mstate
