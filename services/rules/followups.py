"""What the rules service does after a match changes: bot turns and the finished-match message."""
from __future__ import annotations

import time

import redis
from rq import Queue

from shared.config import Config
from shared.matches import Matches
from shared.notices import publish_notice
from shared.streams import MATCHES_FINISHED, publish

AWAITING_BOTS = "rules:awaiting-bots"  # sorted set: match id -> when its bot turn was enqueued
PLAY_TURN = "services.bots.worker.play_turn"


class Followups:
    def __init__(self, client: redis.Redis, matches: Matches, config: Config):
        self.r = client
        self.matches = matches
        self.queue = Queue(config.bot_queue, connection=client)

    def after_change(self, mstate: dict, *, attempt: int = 0) -> None:
        """Enqueue the bot turns the state calls for, and publish the result of a finished match."""
        match_id = mstate["match_id"]
        bots = [s for s in Matches.to_act(mstate) if mstate["controllers"][s] != "human"]
        for seat in bots:
            self.queue.enqueue_call(
                func=PLAY_TURN,
                args=(match_id, seat, mstate["version"], mstate["controllers"][seat]),
                job_id=f"turn-{match_id}-{seat}-{mstate['version']}-{attempt}",
                result_ttl=60, failure_ttl=24 * 3600, timeout=120,
            )
        if bots:
            self.r.zadd(AWAITING_BOTS, {match_id: time.time()})
        elif any(c != "human" for c in mstate["controllers"]):
            self.r.zrem(AWAITING_BOTS, match_id)
        publish_notice(self.r, mstate, Matches.to_act(mstate))
        if mstate["status"] != "active":
            self.publish_finished(mstate)

    def publish_finished(self, mstate: dict) -> None:
        match_id = mstate["match_id"]
        if self.matches.store.meta(match_id).get("published") == "1":
            return
        publish(self.r, MATCHES_FINISHED, {
            "match_id": match_id, "game": mstate["game_id"], "status": mstate["status"],
            "seats": mstate["seats"], "outcome": mstate["outcome"], "abandoned": mstate["abandoned"],
            "options": mstate["options"], "version": mstate["version"], "head_hash": mstate["head_hash"],
        })
        self.matches.store.set_meta(match_id, published="1")

    def retry_stalled_bots(self, older_than_s: float) -> int:
        """Re-enqueue bot turns whose job seems lost (a worker died). Returns how many."""
        cutoff = time.time() - older_than_s
        retried = 0
        for raw in self.r.zrangebyscore(AWAITING_BOTS, "-inf", cutoff):
            match_id = raw.decode()
            self.matches.forget(match_id)
            try:
                mstate = self.matches.state(match_id)
            except Exception:
                self.r.zrem(AWAITING_BOTS, match_id)
                continue
            self.after_change(mstate, attempt=int(time.time()))
            retried += 1
        return retried

    def sweep_unpublished(self) -> int:
        """Publish finished matches whose message was lost (a crash between append and publish)."""
        n = 0
        for match_id in self.matches.store.match_ids():
            meta = self.matches.store.meta(match_id)
            if meta.get("status") in ("finished", "aborted") and meta.get("published") != "1":
                self.publish_finished(self.matches.state(match_id))
                n += 1
        return n
