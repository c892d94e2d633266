"""Scoring's own data in Redis (all keys under the ``{scoring}`` hash tag).

* ``{scoring}:results``           hash match id -> result JSON (also the "already scored" mark)
* ``{scoring}:ratings:<game>``    hash entity -> {"mu", "sigma", "matches"}
* ``{scoring}:lb:<game>``         sorted set entity -> displayed rating
* ``{scoring}:names``             hash entity -> display name
* ``{scoring}:player-games:<id>`` set of games the entity is rated in
* ``{scoring}:inputs``            list of every finished-match message scored, in scoring order:
                                  what ``rebuild`` folds again (the stream between the services
                                  is trimmed once read, so scoring keeps its own inputs)

``record`` writes a match's result and every rating change in one transaction, guarded by WATCH
on the ratings it read, so a match counts exactly once however often it is delivered.
"""
from __future__ import annotations

import redis

from shared.canonical import dumps, loads
from shared.streams import RATINGS_UPDATED, publish

from .ratings import PROVISIONAL_BELOW, Rating, entity, rate, standings

RESULTS = "{scoring}:results"
NAMES = "{scoring}:names"
INPUTS = "{scoring}:inputs"


def ratings_key(game: str) -> str:
    return f"{{scoring}}:ratings:{game}"


def board_key(game: str) -> str:
    return f"{{scoring}}:lb:{game}"


def games_key(entity_id: str) -> str:
    return f"{{scoring}}:player-games:{entity_id}"


class ScoringStore:
    def __init__(self, client: redis.Redis):
        self.r = client

    def result(self, match_id: str) -> dict | None:
        raw = self.r.hget(RESULTS, match_id)
        return loads(raw) if raw else None

    def record(self, message: dict) -> dict | None:
        """Score a finished-match message once. Returns the result (the stored one on a repeat)."""
        match_id, game = message["match_id"], message["game"]
        if message.get("status") != "finished" or not message.get("outcome"):
            return None
        while True:
            with self.r.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(RESULTS, ratings_key(game))
                    prior = pipe.hget(RESULTS, match_id)
                    if prior is not None:
                        pipe.unwatch()
                        result = loads(prior)
                        self._announce(game, result)
                        return result
                    table = standings(message)
                    keys = sorted({entity(s) for s in message["seats"]})
                    raw = pipe.hmget(ratings_key(game), keys)
                    current = {k: (Rating(**loads(v)) if v else Rating.fresh()) for k, v in zip(keys, raw)}
                    new = rate(message, table, current)
                    result = {
                        "match_id": match_id, "game": game, "standings": table,
                        "ratings": {k: {"before": current[k].value, "after": new[k].value} for k in keys},
                    }
                    pipe.multi()
                    pipe.hset(RESULTS, match_id, dumps(result))
                    pipe.rpush(INPUTS, dumps(message))
                    for k, rating in new.items():
                        pipe.hset(ratings_key(game), k, dumps(rating.to_json()))
                        pipe.zadd(board_key(game), {k: rating.value})
                        pipe.sadd(games_key(k), game)
                    for seat in message["seats"]:
                        pipe.hset(NAMES, entity(seat), seat.get("name") or entity(seat))
                    pipe.execute()
                except redis.WatchError:
                    continue
            self._announce(game, result)
            return result

    def _announce(self, game: str, result: dict) -> None:
        for key, change in result["ratings"].items():
            publish(self.r, RATINGS_UPDATED, {"game": game, "player_id": key, "rating": change["after"],
                                              "match_id": result["match_id"]})

    def rating(self, game: str, entity_id: str) -> Rating | None:
        raw = self.r.hget(ratings_key(game), entity_id)
        return Rating(**loads(raw)) if raw else None

    def leaderboard(self, game: str, limit: int) -> list[dict]:
        rows = self.r.zrevrange(board_key(game), 0, limit - 1, withscores=True)
        entries = []
        for key, score in rows:
            k = key.decode()
            rating = self.rating(game, k)
            name = self.r.hget(NAMES, k)
            entries.append({"player_id": k, "name": name.decode() if name else k, "rating": score,
                            "mu": rating.mu, "sigma": rating.sigma, "matches": rating.matches,
                            "provisional": rating.matches < PROVISIONAL_BELOW})
        return entries

    def player_ratings(self, entity_id: str) -> dict:
        out = {}
        for game in sorted(g.decode() for g in self.r.smembers(games_key(entity_id))):
            rating = self.rating(game, entity_id)
            out[game] = {"rating": rating.value, "mu": rating.mu, "sigma": rating.sigma,
                         "matches": rating.matches, "provisional": rating.matches < PROVISIONAL_BELOW}
        return out

    def drop_all(self, keep: tuple[str, ...] = ()) -> int:
        n = 0
        for key in self.r.scan_iter(match="{scoring}:*", count=1000):
            if key.decode() not in keep:
                n += self.r.delete(key)
        return n
