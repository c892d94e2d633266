"""The rating-aware queue.

One pool per (game, player count, options). A wave (every ``wave_s`` seconds, and at once when a
pool holds enough tickets to fill a match) sorts the pool's tickets by rating and repeatedly forms
the group of consecutive tickets with the smallest rating spread that every member tolerates. A
ticket's tolerance starts at ``base_tolerance`` and widens by ``widen_per_s`` for every second it
has waited. A ticket that has waited ``bot_fill_after_s`` is matched with whoever it tolerates and
bots (greedy) in the empty seats. A player holds at most one live ticket per pool; once matched,
the player's tickets in other pools are withdrawn, so nobody is seated in two matches from the queue.
A player holds at most ``MAX_LIVE_TICKETS`` waiting tickets in all. A ticket is its player's consent:
the queue seats only the players whose tickets it matched, and bots.

Ratings for pairing come from the scoring service's ratings-updated stream and are kept here.
"""
from __future__ import annotations

import hashlib
import random
import time
import uuid
from dataclasses import dataclass

import redis

from shared.canonical import dumps, encode, loads
from shared.web import ApiError

from .forming import Former, check_game
from .players import Players
from .slot import key

POOLS = key("pools")
DEFAULT_RATING = 0.0


def pool_id(game: str, players: int, options: dict) -> str:
    return hashlib.sha1(encode({"game": game, "players": players, "options": options})).hexdigest()[:16]


def ticket_key(ticket_id: str) -> str:
    return key(f"ticket:{ticket_id}")


def pool_key(pool: str) -> str:
    return key(f"pool:{pool}")


def live_key(player_id: str, pool: str) -> str:
    return key(f"live:{player_id}:{pool}")


def player_tickets_key(player_id: str) -> str:
    return key(f"player-tickets:{player_id}")


def rating_key(game: str) -> str:
    return f"mm:ratings:{game}"


# Seat a group, all or nothing: KEYS are (ticket, pool, live, player-tickets) per ticket, the
# group's first; ARGV: how many tickets the group has, then (ticket id, its new JSON) per ticket.
# Unless every ticket of the group is still waiting in its pool (another wave, of this pool or of
# another pool where the same player waits, may have taken one), nothing changes and it returns 0.
# Otherwise the group's tickets become "forming" and the other tickets (their players' tickets in
# other pools) are withdrawn if still waiting — in one step, so nobody is seated twice.
_SEAT = """
local group = tonumber(ARGV[1])
for i = 0, group - 1 do
  if not redis.call('ZSCORE', KEYS[i * 4 + 2], ARGV[2 + i * 2]) then return 0 end
end
for i = 0, #KEYS / 4 - 1 do
  local id = ARGV[2 + i * 2]
  if redis.call('ZREM', KEYS[i * 4 + 2], id) == 1 then
    redis.call('SET', KEYS[i * 4 + 1], ARGV[3 + i * 2])
    if redis.call('GET', KEYS[i * 4 + 3]) == id then redis.call('DEL', KEYS[i * 4 + 3]) end
    redis.call('SREM', KEYS[i * 4 + 4], id)
  end
end
return 1
"""


@dataclass(frozen=True)
class Tolerance:
    base: float = 3.0
    widen_per_s: float = 0.5

    def of(self, waited_s: float) -> float:
        return self.base + self.widen_per_s * max(0.0, waited_s)


def best_group(tickets: list[dict], size: int, now: float, tolerance: Tolerance) -> list[dict] | None:
    """The consecutive (by rating) group of ``size`` with the smallest spread that all members accept."""
    ordered = sorted(tickets, key=lambda t: (t["rating"], t["created_at"]))
    best, best_spread = None, None
    for i in range(len(ordered) - size + 1):
        group = ordered[i:i + size]
        spread = group[-1]["rating"] - group[0]["rating"]
        if all(spread <= tolerance.of(now - t["created_at"]) for t in group):
            if best_spread is None or spread < best_spread:
                best, best_spread = group, spread
    return best


def bot_fill_group(tickets: list[dict], size: int, now: float, tolerance: Tolerance) -> list[dict] | None:
    """The longest-waiting ticket due for bot fill, with the nearest-rated tickets it tolerates."""
    due = [t for t in tickets if t.get("bot_fill_after_s") is not None and now - t["created_at"] >= t["bot_fill_after_s"]]
    if not due:
        return None
    anchor = min(due, key=lambda t: t["created_at"])
    reach = tolerance.of(now - anchor["created_at"])
    others = sorted((t for t in tickets if t is not anchor and abs(t["rating"] - anchor["rating"]) <= reach),
                    key=lambda t: abs(t["rating"] - anchor["rating"]))
    return [anchor] + others[: size - 1]


class Queue:
    def __init__(self, client: redis.Redis, players: Players, former: Former, *, tolerance: Tolerance = Tolerance(),
                 clock=time.time, max_live_tickets: int = 3):
        self.max_live_tickets = max_live_tickets
        self.r = client
        self.players = players
        self.former = former
        self.tolerance = tolerance
        self.clock = clock
        self._seat = client.register_script(_SEAT)

    # ----- tickets -----------------------------------------------------------------------------
    def enqueue(self, player_id: str, body: dict) -> dict:
        options = check_game(body["game"], body["players"], body["options"])
        pool = pool_id(body["game"], body["players"], options)
        ticket_id = uuid.uuid4().hex
        self._claim_ticket_slot(player_id, ticket_id)
        if not self.r.set(live_key(player_id, pool), ticket_id, nx=True):
            self.r.srem(player_tickets_key(player_id), ticket_id)
            existing = (self.r.get(live_key(player_id, pool)) or b"").decode()
            raise ApiError(409, "Conflict", f"you already have a live ticket in this pool: {existing}",
                           "ticket-exists", ticket_id=existing)
        player = self.players.get(player_id) or {"name": player_id}
        ticket = {
            "ticket_id": ticket_id, "player_id": player_id, "name": player["name"], "pool": pool,
            "game": body["game"], "players": body["players"], "options": options,
            "bot_fill_after_s": body["bot_fill_after_s"], "turn_seconds": body["turn_seconds"],
            "status": "waiting", "created_at": self.clock(),
        }
        pipe = self.r.pipeline(transaction=True)
        pipe.set(ticket_key(ticket_id), dumps(ticket))
        pipe.zadd(pool_key(pool), {ticket_id: ticket["created_at"]})
        pipe.hset(POOLS, pool, dumps({"game": body["game"], "players": body["players"], "options": options}))
        pipe.sadd(player_tickets_key(player_id), ticket_id)
        pipe.execute()
        if self.r.zcard(pool_key(pool)) >= body["players"]:
            self.wave(pool)
        return {"ticket_id": ticket_id}

    def _claim_ticket_slot(self, player_id: str, ticket_id: str) -> None:
        """Count a new ticket against the player's cap of live tickets (429 past it)."""
        key = player_tickets_key(player_id)
        self.r.sadd(key, ticket_id)
        if self.r.scard(key) > self.max_live_tickets:
            self.r.srem(key, ticket_id)
            raise ApiError(429, "Too Many Requests", f"you already have {self.max_live_tickets} live tickets, the "
                           "most allowed: cancel one or wait for a match", "too-many-tickets", retry_after=5)

    def get(self, ticket_id: str) -> dict:
        raw = self.r.get(ticket_key(ticket_id))
        if raw is None:
            raise ApiError(404, "Not Found", f"no ticket {ticket_id!r}", "no-such-ticket")
        return loads(raw)

    def present(self, ticket: dict) -> dict:
        out = {k: ticket[k] for k in ("ticket_id", "status", "game", "players") if k in ticket}
        if ticket["status"] == "matched":
            out.update(match_id=ticket["match_id"], seat=ticket["seat"])
        else:
            out["waited_s"] = round(self.clock() - ticket["created_at"], 3)
        return out

    def cancel(self, ticket_id: str, player_id: str) -> None:
        ticket = self.get(ticket_id)
        if ticket["player_id"] != player_id:
            raise ApiError(403, "Forbidden", "this ticket is not yours", "not-your-ticket")
        with self._pool_lock(ticket["pool"]):
            ticket = self.get(ticket_id)
            if ticket["status"] == "matched":
                raise ApiError(409, "Conflict", f"the ticket is already matched (match {ticket['match_id']})",
                               "ticket-matched")
            self._withdraw(ticket, "cancelled")

    def _withdraw(self, ticket: dict, status: str) -> None:
        ticket["status"] = status
        pipe = self.r.pipeline(transaction=True)
        pipe.set(ticket_key(ticket["ticket_id"]), dumps(ticket))
        pipe.zrem(pool_key(ticket["pool"]), ticket["ticket_id"])
        pipe.delete(live_key(ticket["player_id"], ticket["pool"]))
        pipe.srem(player_tickets_key(ticket["player_id"]), ticket["ticket_id"])
        pipe.execute()

    # ----- pairing -----------------------------------------------------------------------------
    def _pool_lock(self, pool: str):
        return self.r.lock(f"mm:lock:{pool}", timeout=60, blocking_timeout=30)

    def waiting(self, pool: str) -> list[dict]:
        ids = [i.decode() for i in self.r.zrange(pool_key(pool), 0, -1)]
        if not ids:
            return []
        tickets = [loads(raw) for raw in self.r.mget([ticket_key(i) for i in ids]) if raw]
        tickets = [t for t in tickets if t["status"] == "waiting"]
        if tickets:
            ratings = self.r.hmget(rating_key(tickets[0]["game"]), [t["player_id"] for t in tickets])
            for t, raw in zip(tickets, ratings):
                t["rating"] = float(raw) if raw is not None else DEFAULT_RATING
        return tickets

    def wave(self, pool: str) -> list[str]:
        """Form every match this pool allows now; returns the match ids."""
        meta = self.r.hget(POOLS, pool)
        if meta is None:
            return []
        size = loads(meta)["players"]
        formed = []
        with self._pool_lock(pool):
            tickets = self.waiting(pool)
            now = self.clock()
            while True:
                group = self.pick(tickets, size, now)
                if group is None:
                    break
                match_id = self._form(group, size)
                if match_id is None:  # a ticket was taken meanwhile (another pool's wave): look again
                    tickets = self.waiting(pool)
                    continue
                formed.append(match_id)
                ids = {t["ticket_id"] for t in group}
                tickets = [t for t in tickets if t["ticket_id"] not in ids]
        return formed

    def pick(self, tickets: list[dict], size: int, now: float) -> list[dict] | None:
        """The next group to seat: the tightest full group, else a bot-filled one that is due."""
        group = best_group(tickets, size, now, self.tolerance) if len(tickets) >= size else None
        return group or bot_fill_group(tickets, size, now, self.tolerance)

    def wave_all(self) -> list[str]:
        formed = []
        for pool in [p.decode() for p in self.r.hkeys(POOLS)]:
            if self.r.zcard(pool_key(pool)) == 0:
                continue
            formed += self.wave(pool)
        return formed

    def _claim(self, group: list[dict]) -> bool:
        """Take the group's tickets out of their pool (status "forming") and withdraw their players'
        other waiting tickets, atomically; False (and nothing changed) when a ticket was taken."""
        ids = {t["ticket_id"] for t in group}
        players = {t["player_id"] for t in group}
        other_ids = {raw.decode() for p in players for raw in self.r.smembers(player_tickets_key(p))} - ids
        others = [loads(raw) for raw in self.r.mget([ticket_key(i) for i in sorted(other_ids)]) if raw] if other_ids else []
        others = [t for t in others if t["status"] == "waiting"]
        keys: list[str] = []
        args: list = [len(group)]
        for ticket, status in [(t, "forming") for t in group] + [(t, "cancelled") for t in others]:
            keys += [ticket_key(ticket["ticket_id"]), pool_key(ticket["pool"]),
                     live_key(ticket["player_id"], ticket["pool"]), player_tickets_key(ticket["player_id"])]
            stored = {k: v for k, v in ticket.items() if k != "rating"}
            args += [ticket["ticket_id"], dumps(dict(stored, status=status))]
        return bool(self._seat(keys=keys, args=args))

    def _form(self, group: list[dict], size: int) -> str | None:
        """Seat the group in a new match; its id, or None when a ticket of the group was taken."""
        first = group[0]
        seats: list[dict] = [{"player_id": t["player_id"], "name": t["name"]} for t in group]
        seats += [{"bot": "greedy", "name": "bot:greedy"} for _ in range(size - len(group))]
        order = list(range(size))
        random.shuffle(order)
        seated = [seats[i] for i in order]
        match_id = uuid.uuid4().hex
        limits = [t["turn_seconds"] for t in group if t.get("turn_seconds")]
        if not self._claim(group):  # withdraw first: a crash now loses tickets, never seats someone twice
            return None
        self.former.form(first["game"], seated, first["options"], min(limits) if limits else None, match_id=match_id)
        for t in group:
            t.update(status="matched", match_id=match_id, seat=order.index(group.index(t)))
            self.r.set(ticket_key(t["ticket_id"]), dumps(t))
            self._withdraw_other_tickets(t["player_id"])
        return match_id

    def _withdraw_other_tickets(self, player_id: str) -> None:
        for raw in self.r.smembers(player_tickets_key(player_id)):
            stored = self.r.get(ticket_key(raw.decode()))  # None: a ticket still being enqueued
            other = loads(stored) if stored is not None else None
            if other is not None and other["status"] == "waiting":
                self._withdraw(other, "cancelled")

    # ----- ratings from scoring ------------------------------------------------------------------
    def rating_updated(self, message: dict) -> None:
        self.r.hset(rating_key(message["game"]), message["player_id"], message["rating"])
