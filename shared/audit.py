"""Pure checks of a match log: what the server's audit and the offline verifier both run.

Each check takes the stored records (every field that went into the hash chain, hidden parts
included) and answers ``None`` when the log passes it, or the first :class:`Problem`, which names
the record at fault:

* :func:`check_chain`   — sequence numbers, ``prev_hash`` links, hashes; with the seed, the
  digests of the hidden parts;
* :func:`check_seed`    — the seed matches its commitment in ``match.created`` and the seed the
  log reveals at its end;
* :func:`check_chance`  — every batch of events is re-derived: the opening from the seed
  (``setup``), each move from the state before it, the move and the seed (``decide``), and the
  framework's own events (the end and its outcome, hand-overs, aborts) from the rules the server
  follows; a re-dealt card or a rewritten move shows here even when the chain was re-sealed;
* :func:`check_replay`  — the log folds through the game's rules and reaches the outcome it records.
"""
from __future__ import annotations

from dataclasses import dataclass

from .canonical import encode, sha256_hex
from .engine import registry
from .engine.errors import IllegalMove
from .engine.game import Game
from .envelope import (
    ABORTED,
    CREATED,
    ENDED,
    HANDED_OVER,
    TERMINAL,
    apply_record,
    event_core,
    is_framework,
    resignation_outcome,
)
from .eventstore.chain import first_break
from .rng import SeededRng


# the check of a Problem that says the log cannot be judged here: its rules (game at engine version)
# are not installed. Not evidence against the log: a newer release, or one that kept the version, can.
NOT_INSTALLED = "rules"


@dataclass(frozen=True)
class Problem:
    """The first thing wrong with a log: which check found it, why, and the record (seq) at fault."""

    check: str
    reason: str
    seq: int | None = None

    def __str__(self) -> str:
        return f"record {self.seq}: {self.reason}" if self.seq is not None else self.reason

    def to_json(self) -> dict:
        return {"check": self.check, "seq": self.seq, "reason": self.reason, "message": str(self)}


def check_chain(records: list[dict], seed: bytes | None = None) -> Problem | None:
    broken = first_break(records, seed)
    return Problem("chain", broken[1], broken[0]) if broken else None


def game_of_log(records: list[dict]) -> tuple[Game | None, Problem | None]:
    """The game (at the engine version) that wrote the log, from its ``match.created``."""
    if not records or records[0].get("type") != CREATED:
        return None, Problem("replay", "the log does not start with match.created", 1)
    created = records[0]["data"]
    try:
        return registry.get(created["game"], created["engine"]), None
    except registry.NotInstalled as err:
        return None, Problem(NOT_INSTALLED, f"{err}: these rules cannot check this log", 1)


def check_seed(records: list[dict], seed: bytes) -> Problem | None:
    """The seed is the one committed to at creation, and the one the log's last record reveals."""
    if not records or records[0].get("type") != CREATED:
        return Problem("seed", "the log does not start with match.created", 1)
    if sha256_hex(seed) != records[0]["data"].get("seed_commitment"):
        return Problem("seed", "the seed does not match the commitment in match.created", 1)
    last = records[-1]
    if last.get("type") in TERMINAL and last["data"].get("seed") != seed.hex():
        return Problem("seed", f"{last['type']} reveals a different seed", last.get("seq"))
    return None


def _batches(records: list[dict]) -> list[list[dict]]:
    """The log cut into the batches one decision appended: each starts at a record with a cause."""
    batches: list[list[dict]] = []
    for rec in records:
        if rec.get("cause") is not None or not batches:
            batches.append([])
        batches[-1].append(rec)
    return batches


def _first_difference(expected: list[dict], batch: list[dict]) -> Problem | None:
    logged = [event_core(r) for r in batch]
    for i, rec in enumerate(batch):
        if i >= len(expected):
            return Problem("chance", f"{rec['type']} was not produced by this decision", rec["seq"])
        if encode(expected[i]) != encode(logged[i]):
            return Problem("chance", f"{rec['type']} differs from what the seed and the decision give "
                                     f"(expected {expected[i]['type']})", rec["seq"])
    if len(expected) > len(batch):
        return Problem("chance", f"{expected[len(batch)]['type']} is missing after this record", batch[-1]["seq"])
    return None


def _expected_batch(game: Game, mstate: dict, batch: list[dict], seed: bytes) -> list[dict] | Problem:
    """What the server would have appended for the batch's cause (the framework's rules included)."""
    first, seed_hex = batch[0], seed.hex()
    cause = first.get("cause") or {}
    if not mstate:
        if cause.get("system") != "create" or first["type"] != CREATED:
            return Problem("chance", "the log does not open with match.created caused by the creation", first["seq"])
        created = first["data"]
        return [event_core(first)] + [event_core(e) for e in game.setup(
            len(created["seats"]), created["options"], SeededRng(seed, "setup"))]
    if mstate["status"] != "active":
        return Problem("chance", f"{first['type']} was appended after the match was over", first["seq"])
    if "seat" in cause:
        seat = cause["seat"]
        if not isinstance(seat, int) or seat not in game.to_act(mstate["game"]):
            return Problem("chance", f"seat {seat!r} had no decision to make at version {mstate['version']}",
                           first["seq"])
        try:
            events = [event_core(e) for e in game.decide(mstate["game"], seat, cause.get("move"),
                                                         SeededRng(seed, mstate["version"]))]
        except IllegalMove as err:
            return Problem("chance", f"the logged move was illegal at version {mstate['version']} ({err.reason})",
                           first["seq"])
        result = game.outcome(game.fold(events, mstate["game"]))
        if result is not None:
            events.append({"type": ENDED, "data": {"outcome": result.to_json(), "seed": seed_hex}})
        elif batch[-1]["type"] == ABORTED and len(batch) == len(events) + 1:
            events.append(event_core(batch[-1]))  # the event limit reached; checked below for its seed
        return events
    if cause.get("system") == "create":
        return Problem("chance", "a second match.created", first["seq"])
    # a framework decision (hand-over after a timeout, resignation, abort): framework events only
    expected: list[dict] = []
    for rec in batch:
        if not is_framework(rec) or rec["type"] == CREATED:
            return Problem("chance", f"{rec['type']} cannot follow a {cause.get('system', 'system')!r} decision",
                           rec["seq"])
        if rec["type"] == ENDED:
            seats = [r["data"]["seat"] for r in batch if r["type"] == HANDED_OVER and r["data"].get("reason") == "resigned"]
            if len(mstate["seats"]) != 2 or not seats:
                return Problem("chance", "match.ended without a result of the game or a resignation", rec["seq"])
            expected.append({"type": ENDED, "data": {"outcome": resignation_outcome(2, seats[0]).to_json(),
                                                     "seed": seed_hex}})
            continue
        expected.append(event_core(rec))
    return expected


def check_chance(records: list[dict], seed: bytes) -> Problem | None:
    """Re-derive every batch of the log from the seed and the decisions, and compare."""
    problem = check_seed(records, seed)
    if problem:
        return problem
    game, problem = game_of_log(records)
    if problem:
        return problem
    mstate: dict = {}
    for batch in _batches(records):
        expected = _expected_batch(game, mstate, batch, seed)
        if isinstance(expected, Problem):
            return expected
        problem = _first_difference(expected, batch)
        if problem:
            return problem
        for rec in batch:
            if rec["type"] == ABORTED and rec["data"].get("seed") != seed.hex():
                return Problem("chance", "match.aborted reveals a different seed", rec["seq"])
            apply_record(mstate, rec, game)
    return None


def replay(records: list[dict]) -> tuple[dict, Problem | None]:
    """Fold the whole log through the game's rules: the final match state, or the record that fails."""
    game, problem = game_of_log(records)
    if problem:
        return {}, problem
    mstate: dict = {}
    for rec in records:
        try:
            apply_record(mstate, rec, game)
        except Exception as err:  # a log the rules cannot fold is not valid
            return mstate, Problem("replay", f"the rules cannot apply {rec.get('type')}: {type(err).__name__}: {err}",
                                   rec.get("seq"))
    return mstate, None


def check_replay(records: list[dict]) -> Problem | None:
    """The log folds through the rules to an end, and the outcome it records is the rules' outcome."""
    mstate, problem = replay(records)
    if problem:
        return problem
    last = records[-1]
    if mstate["status"] == "active":
        return Problem("replay", "the log has no end (match.ended or match.aborted)", last["seq"])
    if mstate["status"] == "finished":
        game = registry.get(mstate["game_id"], mstate["engine"])
        reached = game.outcome(mstate["game"])
        resigned = (mstate["outcome"].get("details") or {}).get("resigned")
        expected = reached.to_json() if reached is not None else (
            resignation_outcome(len(mstate["seats"]), resigned).to_json() if resigned is not None else None)
        if expected is None or encode(expected) != encode(mstate["outcome"]):
            ended = next(r["seq"] for r in records if r["type"] == ENDED)
            return Problem("replay", "the recorded outcome is not the one the rules reach", ended)
    return None
