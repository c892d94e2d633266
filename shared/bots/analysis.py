"""The judge of a finished match: every decision valued from what its mover could see.

Pure: no I/O. ``decisions(records)`` lists, from an export's records, each decision that had a
choice (a seat with more than one legal move) with the seat's view at that version, its legal
moves and the move it played. ``judge`` values every legal move of one decision by the search
bot's machinery (``ismcts.search_tree``: determinized samples of the seat's view, never the true
state) at an iteration budget, and returns the move played, the best move and the loss between
them. ``summarize`` gives each seat's figures.

Values are the searching seat's mean ISMCTS reward for the move, its expected share of the win
in [0, 1] in every game, so values and losses compare across the seats of a match and across
games. The search's generator is seeded from the decision's public coordinates and a digest of
the seat's view only: the same analysis run twice agrees, and re-dealing what the seat could not
see changes nothing. Thresholds per game are data (``analysis_thresholds.json``).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, replace
from functools import cache
from pathlib import Path

from ..canonical import encode
from ..engine import registry
from ..engine.game import Game
from ..envelope import CREATED, apply_record
from ..rng import FastRng
from .ismcts import SearchParams, search_tree

DEFAULT_BUDGET = 200  # search iterations per decision
MIN_BUDGET, MAX_BUDGET = 20, 5_000
THRESHOLDS = Path(__file__).with_name("analysis_thresholds.json")


@dataclass(frozen=True)
class Decision:
    """One choice a seat made: at ``version`` (the version the move was posted at)."""

    version: int
    seat: int
    view: dict
    legal: list
    played: dict


@dataclass(frozen=True)
class Verdict:
    version: int
    seat: int
    played: dict
    best: dict
    value_played: float
    value_best: float
    loss: float

    def to_json(self) -> dict:
        return asdict(self)


def game_of(records: list[dict]) -> Game:
    created = records[0]
    if created.get("type") != CREATED:
        raise ValueError("the log does not start with match.created")
    return registry.get(created["data"]["game"], created["data"]["engine"])


def decisions(records: Iterable[dict], game: Game | None = None) -> Iterator[Decision]:
    """Every decision of the log that had a choice, in log order: the record a seat's move caused
    (``cause.move``) is folded onto the state before it, whose view and legal moves are the seat's."""
    mstate: dict = {}
    for rec in records:
        cause = rec.get("cause") or {}
        if "move" in cause and "seat" in cause and mstate.get("game"):
            g = game or registry.get(mstate["game_id"], mstate["engine"])
            seat, state = cause["seat"], mstate["game"]
            legal = g.legal_moves(state, seat)
            if len(legal) > 1:
                yield Decision(mstate["version"], seat, g.view(state, seat), legal, cause["move"])
        if game is None and rec["type"] == CREATED:
            game = registry.get(rec["data"]["game"], rec["data"]["engine"])
        apply_record(mstate, rec, game)


def seed_of(match_id: str, decision: Decision, budget: int) -> int:
    """The search's seed: public coordinates and the digest of what the seat saw, nothing else."""
    digest = hashlib.sha256(encode({"match": match_id, "version": decision.version, "seat": decision.seat,
                                    "budget": budget, "view": decision.view, "legal": decision.legal}))
    return int.from_bytes(digest.digest()[:8], "big")


def judge(game: Game, decision: Decision, *, budget: int = DEFAULT_BUDGET, match_id: str = "") -> Verdict:
    """Value every legal move of ``decision`` from the seat's view by ``budget`` search iterations."""
    legal, seat = decision.legal, decision.seat
    # no wall-clock budget, even where the game's tuning has one: verdicts must not depend on load
    params = replace(SearchParams.for_game(game, iterations=max(budget, 2 * len(legal))), seconds=None)
    rng = FastRng(seed_of(match_id, decision, budget))
    root = search_tree(game, decision.view, seat, legal, rng, params)
    stats = {k: node for k, (_m, node) in root.children.items()}

    def value(key: bytes) -> float:
        node = stats.get(key)
        return node.total / node.visits if node is not None and node.visits else 0.0

    keys = [encode(m) for m in legal]
    best_i = max(range(len(legal)), key=lambda i: (stats[keys[i]].visits if keys[i] in stats else 0, value(keys[i])))
    played_key = encode(decision.played)
    v_best, v_played = value(keys[best_i]), value(played_key)
    if played_key == keys[best_i]:
        v_played = v_best
    v_played, v_best = round(v_played, 4), round(v_best, 4)  # the loss is that of the values shown
    return Verdict(decision.version, seat, decision.played, legal[best_i], v_played, v_best,
                   round(max(0.0, v_best - v_played), 4))


@cache
def _threshold_data() -> dict:
    return json.loads(THRESHOLDS.read_text())


def thresholds(game_id: str) -> dict:
    """The loss at or above which a decision is an inaccuracy, a mistake, a blunder, for a game."""
    data = _threshold_data()
    return {**data["default"], **data["games"].get(game_id, {})}


def summarize(game_id: str, seats: int, verdicts: Iterable[dict]) -> list[dict]:
    """Per seat: decisions judged, mean loss, accuracy (100 × (1 − mean loss)) and the counts of
    inaccuracies, mistakes and blunders (each decision counted in its worst band only)."""
    t = thresholds(game_id)
    out = [{"seat": s, "decisions": 0, "mean_loss": 0.0, "accuracy": 100.0, "inaccuracies": 0, "mistakes": 0,
            "blunders": 0} for s in range(seats)]
    totals = [0.0] * seats
    for v in verdicts:
        row, loss = out[v["seat"]], v["loss"]
        row["decisions"] += 1
        totals[v["seat"]] += loss
        if loss >= t["blunder"]:
            row["blunders"] += 1
        elif loss >= t["mistake"]:
            row["mistakes"] += 1
        elif loss >= t["inaccuracy"]:
            row["inaccuracies"] += 1
    for s, row in enumerate(out):
        if row["decisions"]:
            row["mean_loss"] = round(totals[s] / row["decisions"], 4)
            row["accuracy"] = round(100 * (1 - row["mean_loss"]), 1)
    return out
