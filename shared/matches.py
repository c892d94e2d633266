"""Matches: the engine contract run against the event store.

This is everything the rules service does to a match, without HTTP: create it, take a move,
hand a seat to a bot, answer views, legal moves and the redacted log, and audit it. A match's
state is the fold of its log; this module only caches it (per process: the head state and the
last state read at an earlier version; and as snapshots every ``snapshot_every`` events), and
every cache can be dropped without changing an answer.

Redis is the truth: a cached state whose version is ahead of Redis's head, or whose hash differs
at the same version (Redis lost data, e.g. restarted from an older file), is dropped the moment a
read of the head shows it. A decision refused on a cached state (not this seat's turn, an illegal
move, the match over) is checked against the head before it is answered, so a stale
``expected_version`` is always a ``Conflict``, whichever process takes it.

The framework's own events (``match.*``) and their fold live in ``shared.envelope``; the checks
of the audit in ``shared.audit`` (the offline verifier runs the same ones).
"""
from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from . import faults
from .audit import check_chance
from .auth import bot_token_ttl_s
from .canonical import clone, dumps, encode, loads, sha256_hex
from .engine import registry
from .engine.errors import IllegalMove
from .engine.game import Game
from .envelope import (ABORTED, CREATED, ENDED, HANDED_OVER, apply_record, event_core, resignation_outcome,
                       state_layout)
from .eventstore.chain import GENESIS, verify_chain
from .eventstore.damage import DamagedLog
from .eventstore.packed import unpack
from .eventstore.store import keys as keys_of
from .eventstore.store import IDEMPOTENCY_TTL_S, Conflict, EventStore, Head, IdempotentRequest, KeyPending, SideWrites
from .lru import Lru
from .rng import SeededRng


class NotFound(Exception):
    pass


class Forbidden(Exception):
    pass


class MatchOver(Exception):
    pass


class Invalid(Exception):
    """A request that cannot create or change a match (unknown game, bad options)."""


class RequestInProgress(Exception):
    """Another request with the same Idempotency-Key is still being processed."""


class KeyReused(Exception):
    """An Idempotency-Key already used for a request with a different body."""


def request_fingerprint(move, expected_version: int) -> str:
    """The fingerprint of a move request's body (sha256 of its canonical JSON)."""
    return sha256_hex(encode({"move": move, "expected_version": expected_version}))


@dataclass
class Submitted:
    version: int
    events: list[dict]
    state: dict | None  # None for a replayed idempotent answer
    replayed: bool = False

    def body(self) -> dict:
        return {"version": self.version, "events": self.events}


# (the new state, the state it follows or None for a new match) -> the side writes of its append
Effects = Callable[[dict, "dict | None"], "SideWrites | None"]

EARLIER_CACHE = 64  # matches whose last state read at an earlier version this process keeps


class Matches:
    def __init__(self, store: EventStore, *, snapshot_every: int = 50, cache_size: int = 1024, clock=time.time,
                 max_events: int = 20_000):
        self.store = store
        self.snapshot_every = snapshot_every
        self.max_events = max_events  # a match that never ends (bots in a stalemate) is aborted here
        self.clock = clock
        self._cache = Lru(cache_size)
        # the last state read at an earlier version, per match: a viewer stepping forward through a
        # log folds one more event instead of everything since the last snapshot (a compacted
        # match has none)
        self._earlier = Lru(EARLIER_CACHE)
        self._seeds: dict[str, bytes] = {}

    # ----- helpers -------------------------------------------------------------------------
    @staticmethod
    def game_of(mstate: dict) -> Game:
        """The rules a match is played and replayed with: the version its log names
        (``registry.NotInstalled`` if this server does not have it)."""
        return registry.get(mstate["game_id"], mstate["engine"])

    @classmethod
    def layout_of(cls, mstate: dict) -> str:
        return state_layout(cls.game_of(mstate))

    def _seed(self, match_id: str) -> bytes:
        seed = self._seeds.get(match_id)
        if seed is None:
            seed = self._seeds[match_id] = self.store.seed(match_id)
        return seed

    def _record(self, event: dict, engine: str, cause: dict | None = None) -> dict:
        rec = event_core(event)
        rec["at"] = round(self.clock(), 3)
        rec["engine"] = engine
        if cause is not None:
            rec["cause"] = cause
        return rec

    # ----- creation ------------------------------------------------------------------------
    def create(self, match_id: str, game_id: str, options: dict | None, seats: list[dict],
               *, turn_seconds: float | None = None, effects: Effects | None = None) -> dict:
        """Create the match (idempotent: an existing match is returned as it is).

        ``turn_seconds``: each decision's time limit; a seat that lets it pass is handed to a bot.
        ``effects``: as for ``submit``, the side writes of the first append (its clocks, notice
        and watch are then there the moment the match can be read).
        """
        try:
            game = registry.get(game_id)
        except KeyError:
            raise Invalid(f"unknown game {game_id!r}") from None
        try:
            opts = game.validate_options(len(seats), options)
        except ValueError as err:
            raise Invalid(str(err)) from None
        if self.store.exists(match_id):
            return self.state(match_id)
        seed = self._seeds[match_id] = self.store.put_seed(match_id, secrets.token_bytes(32))
        created = {
            "type": CREATED,
            "data": {
                "match_id": match_id, "game": game.id, "engine": game.version, "options": opts,
                "seats": seats, "seed_commitment": sha256_hex(seed), "turn_seconds": turn_seconds,
            },
        }
        records = [self._record(created, game.version, cause={"system": "create"})]
        records += [self._record(ev, game.version) for ev in game.setup(len(seats), opts, SeededRng(seed, "setup"))]
        mstate: dict = {}
        for rec in records:
            apply_record(mstate, dict(rec, seq=0, hash=""), game)
        meta = {
            "game": game.id, "engine": game.version, "options": dumps(opts), "seats": dumps(seats),
            "status": "active", "to_act": dumps(game.to_act(mstate["game"])), "created_at": str(self.clock()),
        }
        side = effects(dict(mstate, match_id=match_id, version=len(records)), None) if effects is not None else None
        try:
            result = self.store.append(match_id, 0, GENESIS, records, seed, meta=meta, side=side)
        except Conflict:
            return self.state(match_id)
        for rec in result.records:
            mstate["version"], mstate["head_hash"] = rec["seq"], rec["hash"]
        self._cache.put(match_id, mstate)
        return mstate

    # ----- reading state -------------------------------------------------------------------
    def state(self, match_id: str, at: int | None = None) -> dict:
        """The match state at version ``at`` (the head when None); raises NotFound, or
        ``DamagedLog`` when the stored log cannot be read back (a record that does not parse, a
        damaged or missing compacted log, a missing seed or meta, a record missing from the log).
        A damaged log is never cached: the process caches of the match are dropped and the damage
        is marked in the meta, so every process answers it."""
        return self.state_and_clocks(match_id, at)[0]

    def state_and_clocks(self, match_id: str, at: int | None = None) -> tuple[dict, dict[int, float]]:
        """``state`` and the match's turn clocks (seat -> when its decision is due) from the same
        read of the head: a match this process has cached costs one Redis call and nothing more
        (HMGET of the head, or the head script when the match has turn clocks).

        The seed is checked where a state is built or advanced from the log (``_fold``: in the
        same round trip as the records), not on the head read. A process holding the match's state
        at the head's version and hash needs nothing of the seed for its answer: that state was
        folded from the log when the seed was last checked, and the same version and hash mean the
        same records; the seed is needed only to build or advance a state (checked there) or to
        decide a move (read there when this process does not hold it). A seed lost behind a warm
        process's back is thus met by the next read that folds from the log (a fresh process, an
        earlier version, a process further behind than the last append) or by the audit, which
        marks the match damaged for every process.

        A process one append behind (another process made the last move) that holds the seed
        advances by the records the same head read brought (the meta's ``tail``): no read of the
        log. Like the records a process appended itself, they are the log's own, checked to
        follow the cached state by seq and hash; damage to the stream's copy of them is met by
        the readers that read the stream."""
        read = self.store.head_read(match_id, clocks=self._may_have_clocks(match_id), seed=False)
        head, head_hash, marker, has_log, clocks = read.version, read.head_hash, read.damaged, read.has_log, read.clocks
        if head == 0:
            self.forget(match_id)
            if has_log:
                raise DamagedLog(match_id, None, "the match's meta is missing (its log is there)")
            raise NotFound(match_id)
        if marker is not None:
            self.forget(match_id)
            raise DamagedLog.from_marker(match_id, marker)
        try:
            return self._state_at(match_id, at, head, head_hash, read), clocks
        except DamagedLog as err:
            raise self.damaged(err) from None

    def _may_have_clocks(self, match_id: str) -> bool:
        """Whether the head read must bring the match's turn clocks: unless the cached state shows
        a match created without a turn limit (it never has a clock; the limit never changes)."""
        cached = self._cache.get(match_id)
        return cached is None or bool(cached.get("turn_seconds"))

    def damaged(self, err: DamagedLog) -> DamagedLog:
        """Note damage a read met: drop the match's process caches, mark its meta; ``err`` back."""
        self.forget(err.match_id)
        self.store.mark_damaged(err.match_id, err)
        return err

    def _state_at(self, match_id: str, at: int | None, head: int, head_hash: str | None,
                  read: Head | None = None) -> dict:
        """The state at ``at`` (the head when None) of a log whose head is ``head``/``head_hash``;
        a cached state one append behind the head read ``read`` advances by the records that
        read brought (``Head.tail_records``) when this process holds the match's seed (checked
        when it was read), else from the log."""
        target = head if at is None else at
        if not 1 <= target <= head:
            raise NotFound(f"version {target} (the log has {head} events)")
        cached = self._cached(match_id, head, head_hash)
        if cached is not None and cached["version"] == target:
            return cached
        advancing = cached is not None and cached["version"] < target and at is None
        if advancing:
            base_version, base = cached["version"], clone(cached)
        else:
            snap = self.store.latest_snapshot(match_id, target, self.layout_of)
            base_version, base = snap if snap else (0, {})
            earlier = self._earlier.get(match_id)
            if earlier is not None and base_version < earlier["version"] < target:
                base_version, base = earlier["version"], clone(earlier)
        records = None
        if advancing and read is not None and match_id in self._seeds:
            records = read.tail_records(base_version)
        if records is None:
            records = self._fold_records(match_id, base_version, target)
        if base and records and records[0].get("prev_hash") != base["head_hash"]:  # the log was rewritten
            self.forget(match_id)
            base_version, base = 0, {}
            records = self.store.read(match_id, until=target)
        expected = base_version + 1
        for rec in records:  # every record from the base to the target, none missing
            if rec.get("seq") != expected:
                break
            expected += 1
        if expected != target + 1:
            raise DamagedLog(match_id, expected, f"is missing from the log or out of place (the meta says {head} records)")
        mstate = base
        game = self.game_of(mstate) if mstate else None
        for rec in records:
            if game is None and rec["type"] == CREATED:
                game = registry.get(rec["data"]["game"], rec["data"]["engine"])
            apply_record(mstate, rec, game)
        if at is None:
            self._cache.put(match_id, mstate)
        else:
            self._earlier.put(match_id, mstate)
        return mstate

    def _fold_records(self, match_id: str, after: int, until: int) -> list[dict]:
        """The records a state is folded from, with the check of the seed in the same round trip
        (a missing seed is ``DamagedLog``; one that parses is kept for this process's decisions)."""
        records, seed_hex = self.store.read_with_seed(match_id, after=after, until=until)
        if seed_hex is None:
            raise DamagedLog(match_id, None, "the match's seed is missing")
        if match_id not in self._seeds:
            try:
                self._seeds[match_id] = bytes.fromhex(seed_hex.decode())
            except ValueError:
                pass  # not hex: ``_seed`` answers it when a decision needs the seed
        return records

    def _cached(self, match_id: str, head: int, head_hash: str | None) -> dict | None:
        """The cached state unless Redis's head shows it is wrong (ahead of the head, or another
        history at the same version): then the cache is dropped."""
        cached = self._cache.get(match_id)
        if cached is None:
            return None
        if cached["version"] > head or (cached["version"] == head and cached["head_hash"] != head_hash):
            self.forget(match_id)
            return None
        return cached

    def forget(self, match_id: str) -> None:
        """Drop the process caches of one match (tests, and after an external change)."""
        self._cache.drop(match_id)
        self._earlier.drop(match_id)
        self._seeds.pop(match_id, None)

    def _confirm_head(self, match_id: str, mstate: dict) -> None:
        """Raise ``Conflict`` when Redis's head is not the state a decision was made on (one read)."""
        head, head_hash = self.store.head(match_id)
        if head == 0:
            self.forget(match_id)
            raise NotFound(match_id)
        if (head, head_hash) != (mstate["version"], mstate["head_hash"]):
            self._cached(match_id, head, head_hash)  # drops a cache that is ahead or diverged
            raise Conflict(head)

    # ----- writing -------------------------------------------------------------------------
    def peek(self, match_id: str) -> dict:
        """The cached state, possibly a little behind the head (fine for what never changes, such
        as the seats); loads the head when nothing is cached."""
        return self._cache.get(match_id) or self.state(match_id)

    def _current_for_write(self, match_id: str, expected: int) -> dict:
        """The state to decide on: the cache when it is at ``expected`` (the append's version and
        hash check guards the write), else the head read from Redis; raises Conflict."""
        cached = self._cache.get(match_id)
        if cached is not None and cached["version"] == expected:
            return cached
        mstate = self.state(match_id)
        if mstate["version"] != expected:
            raise Conflict(mstate["version"])
        return mstate

    def submit(self, match_id: str, seat: int, move, expected_version: int, idempotency_key: str | None = None,
               *, as_bot: bool = False, effects: Effects | None = None) -> Submitted:
        """Take ``seat``'s move (``as_bot``: from the bot that plays the seat); raises NotFound,
        Conflict, MatchOver, Forbidden or IllegalMove, and with an ``idempotency_key`` also
        RequestInProgress (an older release's claim on the key is still pending) or KeyReused (the
        key answered a different body). A key's answer, once stored, is the answer to every retry.

        ``effects(new_state, prior_state)``: the side writes the change makes in the store (follow-up intents,
        notices, clocks), written in the append's own script call. With a key, nothing is written
        before that call: the append itself refuses a key already answered and returns its answer;
        a refusal on this side of it (a retry whose first answer moved the match on) looks the key
        up, one read, and answers with what it holds."""
        if not idempotency_key:
            return self._decide(match_id, seat, move, expected_version, as_bot, None, None, effects)
        field = f"{seat}:{idempotency_key}"
        fingerprint = request_fingerprint(move, expected_version)
        try:
            return self._decide(match_id, seat, move, expected_version, as_bot, field, fingerprint, effects)
        except (Conflict, MatchOver, Forbidden, IllegalMove):
            prior = self.store.idempotent_request(match_id, field)
            if prior is not None:
                return self._stored_answer(prior, fingerprint)
            raise

    @staticmethod
    def _stored_answer(prior: IdempotentRequest, fingerprint: str) -> Submitted:
        if prior.fingerprint != fingerprint:
            raise KeyReused("this Idempotency-Key was used for a request with a different body")
        if not prior.done:
            raise RequestInProgress("a request with this Idempotency-Key is still being processed; retry shortly")
        body = loads(prior.response)
        return Submitted(body["version"], body["events"], None, replayed=True)

    def _decide(self, match_id, seat, move, expected_version, as_bot, field, fingerprint, effects) -> Submitted:
        mstate = self._current_for_write(match_id, expected_version)
        game = self.game_of(mstate)
        try:
            if mstate["status"] != "active":
                raise MatchOver(f"the match is {mstate['status']}")
            if mstate["controllers"][seat] != "human" and not as_bot:
                raise Forbidden(f"seat {seat} is played by a bot since it was handed over")
            if seat not in game.to_act(mstate["game"]):
                raise Forbidden(f"seat {seat} has no decision to make now")
            events = game.decide(mstate["game"], seat, move, SeededRng(self._seed(match_id), expected_version))
        except (MatchOver, Forbidden, IllegalMove):
            self._confirm_head(match_id, mstate)  # refused on a cached state: a stale version is a 409
            raise
        # Only the bot's own token, which expires, can ever ask for a bot move's answer again:
        # keep that answer no longer than the token lives (a finished match's memory, issue #14).
        return self._commit(match_id, mstate, game, events, {"seat": seat, "move": move}, field, viewer=seat,
                            fingerprint=fingerprint, answer_ttl_s=bot_token_ttl_s() if as_bot else None,
                            effects=effects)

    def hand_over(self, match_id: str, seat: int, bot: str, reason: str, *, expected_version: int | None = None,
                  effects: Effects | None = None) -> Submitted:
        """A bot plays ``seat`` from now on; the player is flagged as having abandoned."""
        mstate = self.state(match_id) if expected_version is None else self._current_for_write(match_id, expected_version)
        if mstate["status"] != "active":
            raise MatchOver(f"the match is {mstate['status']}")
        event = {"type": HANDED_OVER, "data": {"seat": seat, "bot": bot, "reason": reason}}
        return self._commit(match_id, mstate, self.game_of(mstate), [event], {"system": reason}, None, viewer=seat,
                            effects=effects)

    def resign(self, match_id: str, seat: int, *, attempts: int = 5, effects: Effects | None = None) -> Submitted:
        """The seat leaves. Two players: the match ends at once, the opponent winning. More: a
        greedy bot plays the seat from now on (and scoring ranks the player last).

        A resignation names no version, so another seat's move landing meanwhile is no conflict
        of the client's: it is taken again on the new head (``Conflict`` only after ``attempts``)."""
        for attempt in range(attempts):
            try:
                return self._resign_once(match_id, seat, effects)
            except Conflict:
                if attempt == attempts - 1:
                    raise
                self.forget(match_id)
        raise AssertionError("unreachable")

    def _resign_once(self, match_id: str, seat: int, effects: Effects | None) -> Submitted:
        mstate = self.state(match_id)
        if mstate["status"] != "active":
            raise MatchOver(f"the match is {mstate['status']}")
        players = len(mstate["seats"])
        if players != 2:
            return self.hand_over(match_id, seat, "greedy", "resigned", effects=effects)
        outcome = resignation_outcome(players, seat)
        events = [
            {"type": HANDED_OVER, "data": {"seat": seat, "bot": "greedy", "reason": "resigned"}},
            {"type": ENDED, "data": {"outcome": outcome.to_json(), "seed": self._seed(match_id).hex()}},
        ]
        return self._commit(match_id, mstate, self.game_of(mstate), events, {"system": "resigned"}, None, viewer=seat,
                            effects=effects)

    def abort(self, match_id: str, reason: str) -> Submitted:
        mstate = self.state(match_id)
        if mstate["status"] != "active":
            raise MatchOver(f"the match is {mstate['status']}")
        event = {"type": ABORTED, "data": {"reason": reason, "seed": self._seed(match_id).hex()}}
        return self._commit(match_id, mstate, self.game_of(mstate), [event], {"system": "abort"}, None, viewer=None)

    def _commit(self, match_id, mstate, game, events, cause, field, *, viewer, fingerprint=None,
                answer_ttl_s: float | None = None, effects: Effects | None = None) -> Submitted:
        """Append ``events`` (plus ``match.ended`` or ``match.aborted`` when they end the match),
        with the side writes ``effects`` gives for the new state, in one script call."""
        new = clone(mstate)
        records: list[dict] = []
        seed_hex = self._seed(match_id).hex()

        def add(event: dict, why: dict | None = None) -> None:
            rec = self._record(event, new["engine"], why)
            records.append(rec)
            apply_record(new, dict(rec, seq=new["version"] + 1, hash=""), game)

        for i, ev in enumerate(events):
            add(ev, cause if i == 0 else None)
        result = game.outcome(new["game"]) if new["status"] == "active" else None
        if result is not None:
            add({"type": ENDED, "data": {"outcome": result.to_json(), "seed": seed_hex}})
        if new["status"] == "active" and new["version"] >= self.max_events:
            add({"type": ABORTED, "data": {"reason": f"no result after {self.max_events} events", "seed": seed_hex}})
        meta = {"status": new["status"], "to_act": dumps(self.to_act(new))}
        if new["outcome"] is not None:
            meta["result"] = dumps(new["outcome"])
        finished = new["status"] != "active"
        shown: list[dict] = []

        def response(sealed: list[dict]) -> str:
            shown.extend(self.present(r, viewer, game, finished) for r in sealed)
            return dumps({"version": sealed[-1]["seq"], "events": shown})

        side = effects(new, mstate) if effects is not None else None
        faults.point("before-commit")
        try:
            appended = self.store.append(
                match_id, mstate["version"], mstate["head_hash"], records, self._seed(match_id),
                meta=meta, idempotency_field=field, fingerprint=fingerprint or "-", response=response,
                idempotency_ttl_s=IDEMPOTENCY_TTL_S if answer_ttl_s is None else max(1, int(answer_ttl_s)),
                side=side,
            )
        except Conflict as err:
            if err.current <= mstate["version"]:  # Redis is behind this state or on another history
                self.forget(match_id)
            raise
        except KeyPending as err:
            raise RequestInProgress("a request with this Idempotency-Key is still being processed; "
                                    "retry shortly") from err
        if appended.duplicate is not None:
            return self._stored_answer(IdempotentRequest(True, appended.duplicate_fingerprint, appended.duplicate),
                                       fingerprint or "-")
        faults.point("after-commit")
        new["head_hash"] = appended.records[-1]["hash"]
        self._cache.put(match_id, new)
        if self.snapshot_every and new["version"] // self.snapshot_every > mstate["version"] // self.snapshot_every:
            self.store.save_snapshot(match_id, new["version"], new, self.layout_of(new))
        return Submitted(new["version"], shown, new)

    # ----- what clients see ------------------------------------------------------------------
    @staticmethod
    def to_act(mstate: dict) -> list[int]:
        if mstate["status"] != "active" or not mstate["game"]:
            return []
        return registry.get(mstate["game_id"], mstate["engine"]).to_act(mstate["game"])

    def present(self, record: dict, viewer: int | None, game: Game, open_: bool) -> dict:
        """A stored record as ``viewer`` may see it (everything once the match is over)."""
        out = {k: record.get(k) for k in ("seq", "type", "at", "prev_hash", "hash", "hidden_digest")}
        if open_:
            out["data"] = record["data"]
            for k in ("private", "secret", "cause"):
                if record.get(k) is not None:
                    out[k] = record[k]
        elif record["type"].startswith("match."):
            out["data"] = record["data"]
        else:
            out["data"] = game.redact(record, viewer)["data"]
        return out

    def summary(self, mstate: dict) -> dict:
        out = {
            "match_id": mstate["match_id"], "game": mstate["game_id"], "engine": mstate["engine"],
            "options": mstate["options"], "seats": self.seats_out(mstate), "status": mstate["status"],
            "version": mstate["version"], "to_act": self.to_act(mstate), "head_hash": mstate["head_hash"],
            "turn_seconds": mstate.get("turn_seconds"),
        }
        if mstate["outcome"] is not None:
            out["result"] = mstate["outcome"]
        return out

    @staticmethod
    def seats_out(mstate: dict) -> list[dict]:
        out = []
        for i, s in enumerate(mstate["seats"]):
            entry = {"seat": i, **s, "controller": mstate["controllers"][i]}
            if i in mstate["abandoned"]:
                entry["abandoned"] = True
            out.append(entry)
        return out

    def view(self, match_id: str, seat: int | None, at: int | None = None, *, head: dict | None = None) -> dict:
        """What ``seat`` sees, at version ``at`` (the head when None); everything once the match is
        over. ``head``: the head state when the caller has it already."""
        head = head or self.state(match_id)
        mstate = head if at is None or at == head["version"] else self.state(match_id, at)
        if not mstate["game"]:
            state = None  # before the game's setup events (``at`` pointing at match.created)
        elif head["status"] != "active":
            state = clone(mstate["game"])
        else:
            state = self.game_of(mstate).view(mstate["game"], seat)
        return {"match_id": match_id, "version": mstate["version"], "seat": seat,
                "to_act": self.to_act(mstate), "status": mstate["status"], "state": state}

    def turn(self, match_id: str, seat: int, *, head: dict | None = None) -> dict:
        """Everything ``seat`` needs to decide, from one state: its view and its legal moves."""
        mstate = head or self.state(match_id)
        out = self.view(match_id, seat, head=mstate)
        legal = self.legal_moves(match_id, seat, head=mstate)
        out["moves"], out["undoing"] = legal["moves"], legal["undoing"]
        return out

    def legal_moves(self, match_id: str, seat: int, *, head: dict | None = None) -> dict:
        mstate = head or self.state(match_id)
        moves, undoing = [], []
        if seat in self.to_act(mstate):
            game = self.game_of(mstate)
            moves = game.legal_moves(mstate["game"], seat)
            undoing = game.undoing(moves)
        return {"version": mstate["version"], "seat": seat, "moves": moves, "undoing": undoing}

    def events(self, match_id: str, viewer: int | None, after: int = 0, limit: int = 100,
               *, head: dict | None = None) -> dict:
        mstate = head or self.state(match_id)
        game = self.game_of(mstate)
        over = mstate["status"] != "active"
        try:
            records = self.store.read(match_id, after=after, limit=limit)
        except DamagedLog as err:
            raise self.damaged(err) from None
        out = [self.present(r, viewer, game, over) for r in records]
        return {"events": out, "next_after": out[-1]["seq"] if out else after}

    # ----- audit -----------------------------------------------------------------------------
    def audit(self, match_id: str) -> dict:
        """The audit of the stored log up to the head, checked again on every call.

        The chain (sequence, links, hashes, hidden digests) is checked on every call against the
        log as stored now; only the costly part — the replay and the re-derivation of chance — is
        kept, under a digest of exactly the content it checked (every record as stored, the seed,
        the snapshots and the served state) and the code's layout, so any edit is seen. A log that
        cannot be read back is a verdict too (``chain_valid`` false, the first damaged record in
        ``problems`` and ``damaged``), never an error; raises NotFound for no match."""
        head, head_hash, marker, _seed, has_log = self.store.head_status(match_id)
        if head == 0 and not has_log:
            self.forget(match_id)
            raise NotFound(match_id)
        try:
            if head == 0:
                raise DamagedLog(match_id, None, "the match's meta is missing (its log is there)")
            records = self.store.read(match_id, until=head)
            for expected, rec in enumerate(records, start=1):
                if rec.get("seq") != expected:
                    break
            else:
                expected = len(records) + 1
            if expected != head + 1 or len(records) != head:
                raise DamagedLog(match_id, expected, f"is missing from the log or out of place "
                                                     f"(the meta says {head} records)")
            seed = self.store.seed(match_id)
            self._seeds[match_id] = seed
            mstate = self._state_at(match_id, None, head, head_hash)
        except DamagedLog as err:
            self.damaged(err)
            return self._damaged_audit(match_id, head, head_hash, err)
        if marker is not None:  # read back whole again (an operator repaired it): serve it again
            self.store.clear_damaged(match_id)
        chain_valid, chain_reason = verify_chain(records, seed)
        head_ok = records[-1]["hash"] == mstate["head_hash"] == head_hash
        out = {
            "match_id": match_id, "chain_valid": chain_valid and head_ok,
            "head_hash": mstate["head_hash"], "seed_commitment": mstate["seed_commitment"], "version": mstate["version"],
        }
        layout = self.layout_of(mstate)
        snapshots = self.store.snapshots(match_id, layout)
        digest = self._content_digest(records, seed, snapshots, mstate)
        costly = self.store.cached_audit(match_id, digest, layout)
        if costly is None:
            costly = self._audit(match_id, records, seed, mstate, snapshots)
            self.store.save_audit(match_id, digest, costly, layout)
        out["replay_valid"], replay_reason = costly["replay"]
        problems = [p for p in (chain_reason, None if head_ok else "head hash differs from the log", replay_reason) if p]
        if mstate["status"] != "active":
            out["seed"] = seed.hex()
            out["chance_valid"], chance_reason = costly["chance"]
            if chance_reason:
                problems.append(chance_reason)
        if problems:
            out["problems"] = problems
        return out

    def _audit(self, match_id: str, records: list[dict], seed: bytes, mstate: dict, snapshots: dict) -> dict:
        """The costly part of the audit: one replay of the whole log and, once the match is over,
        every chance outcome re-derived from the seed. ``[valid, reason]`` of each."""
        costly = {"replay": list(self._check_replay(match_id, records, mstate, snapshots))}
        if mstate["status"] != "active":
            costly["chance"] = list(self._check_chance(records, seed))
        return costly

    @staticmethod
    def _content_digest(records: list[dict], seed: bytes, snapshots: dict[int, dict], mstate: dict) -> str:
        """sha256 of everything the replay and chance checks look at."""
        parts = [seed.hex().encode(), encode(mstate), encode({str(v): s for v, s in snapshots.items()})]
        parts += [dumps(rec).encode() for rec in records]
        return sha256_hex(b"\n".join(parts))

    def _damaged_audit(self, match_id: str, head: int, head_hash: str | None, err: DamagedLog) -> dict:
        """The verdict on a log that cannot be read back: not valid, the first damage named."""
        meta = self.store.meta(match_id)
        out = {"match_id": match_id, "version": head, "chain_valid": False, "replay_valid": False,
               "head_hash": head_hash, "problems": [f"damaged log: {err.message}"], "damaged": err.to_json()}
        try:
            first = self.store.read_stream(match_id, limit=1)
        except DamagedLog:
            first = []
        if first and first[0].get("type") == CREATED:
            out["seed_commitment"] = first[0]["data"].get("seed_commitment")
        if meta.get("status", "active") != "active":
            out["chance_valid"] = False
        located = self._locate_changed_record(match_id, err) if err.seq is None else None
        if located:
            out["problems"].append(located)
        return {k: v for k, v in out.items() if v is not None}

    def _locate_changed_record(self, match_id: str, err: DamagedLog) -> str | None:
        """A compacted log whose records parse but do not re-seal: its digests are derived, so the
        changed record cannot be told from the chain; the re-derivation of chance from the seed
        may still name it (a changed move, card or outcome; not a changed timestamp)."""
        k = keys_of(match_id)
        blob, seed_hex = self.store.r.get(k["packed"]), self.store.r.get(k["seed"])
        if blob is None or seed_hex is None:
            return None
        try:
            seed = bytes.fromhex(seed_hex.decode())
            records = unpack(blob, seed, check_head=False)
            problem = check_chance(records, seed)
        except Exception:  # only a hint: whatever fails here, the verdict above stands
            return None
        return f"the re-derivation from the seed first differs at {problem}" if problem else None

    def _check_replay(self, match_id: str, records: list[dict], live: dict,
                      snaps: dict[int, dict]) -> tuple[bool, str | None]:
        """One fold of the whole log: it must pass every stored snapshot and end at the served state."""
        try:
            game = registry.get(records[0]["data"]["game"], records[0]["data"]["engine"])
            folded: dict = {}
            for rec in records:
                apply_record(folded, rec, game)
                snap = snaps.get(rec["seq"])
                if snap is not None and encode(snap) != encode(folded):
                    return False, f"snapshot at version {rec['seq']} differs from the log"
        except Exception as err:  # a log that cannot be folded is not valid
            return False, f"replay failed: {err}"
        if encode(folded) != encode(live):
            return False, "folding the log does not give the served state"
        return True, None

    @staticmethod
    def _check_chance(records: list[dict], seed: bytes) -> tuple[bool, str | None]:
        """Re-derive every decision from the revealed seed and compare with the log."""
        problem = check_chance(records, seed)
        return problem is None, None if problem is None else str(problem)
