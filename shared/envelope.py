"""The match envelope: the framework's own events around a game's events, and their fold.

Framework events (type ``match.*``) wrap the game's own events in the same log:

* ``match.created``          — game, engine version, options, seats, seed commitment
* ``match.seat_handed_over`` — a seat is played by a bot from now on (timeout, resignation)
* ``match.ended``            — the outcome, and the seed revealed
* ``match.aborted``          — the match stopped without a result (an operator, or the event
                               limit reached: bots in a stalemate); the seed revealed

Pure (no I/O): the live server (``shared.matches``) and the offline verifier fold logs with it.
"""
from __future__ import annotations

import inspect
from functools import lru_cache

from .canonical import clone, sha256_hex
from .engine import registry
from .engine.game import Game
from .engine.outcome import Outcome

CREATED, HANDED_OVER, ENDED, ABORTED = "match.created", "match.seat_handed_over", "match.ended", "match.aborted"
TERMINAL = (ENDED, ABORTED)


def is_framework(record: dict) -> bool:
    return record["type"].startswith("match.")


def apply_record(mstate: dict, record: dict, game: Game) -> None:
    """Fold one stored record (framework or game event) into the match state, in place."""
    kind = record["type"]
    if kind == CREATED:
        d = record["data"]
        mstate.update(
            match_id=d["match_id"], game_id=d["game"], engine=d["engine"], options=d["options"],
            seats=d["seats"], seed_commitment=d["seed_commitment"], status="active",
            controllers=[s.get("bot") or "human" for s in d["seats"]], abandoned=[],
            outcome=None, game={}, turn_seconds=d.get("turn_seconds"),
        )
    elif kind == HANDED_OVER:
        seat = record["data"]["seat"]
        mstate["controllers"][seat] = record["data"]["bot"]
        if seat not in mstate["abandoned"]:
            mstate["abandoned"].append(seat)
    elif kind == ENDED:
        mstate["status"] = "finished"
        mstate["outcome"] = record["data"]["outcome"]
    elif kind == ABORTED:
        mstate["status"] = "aborted"
    else:
        game.apply(mstate["game"], clone(record))
    mstate["version"] = record["seq"]
    mstate["head_hash"] = record["hash"]


@lru_cache(maxsize=None)
def _fold_digest() -> str:
    return sha256_hex(inspect.getsource(apply_record).encode())[:16]


def state_layout(game: Game) -> str:
    """What made a match state of ``game``: its engine version, a fingerprint of its rules' code
    and data, and of the envelope's fold. A cache of a state (a snapshot, an audit) carries it and
    is used only where it is the same; any other is ignored and the state rebuilt from the log."""
    return f"{game.id}@{game.version}:{registry.fingerprint(game)}:{_fold_digest()}"


def event_core(ev: dict) -> dict:
    """The part of an event that its decision produced (no seq, time, hashes or cause)."""
    return {k: ev[k] for k in ("type", "data", "private", "secret") if ev.get(k) is not None}


def resignation_outcome(players: int, seat: int) -> Outcome:
    """A two-player match ended by ``seat`` resigning: the opponent wins."""
    ranks = [2 if s == seat else 1 for s in range(players)]
    return Outcome(ranks=ranks, scores=[0.0] * players, details={"resigned": seat})
