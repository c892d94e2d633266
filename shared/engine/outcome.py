"""The result of a finished game."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Sequence


@dataclass(frozen=True)
class Outcome:
    """Final standings.

    ``ranks[s]`` is seat s's place, 1 for the best; equal ranks are ties (a shared win is several
    seats at rank 1). ``scores[s]`` is the game's own final score for the seat. ``teams`` lists the
    seats of each team when the game is played in teams.
    """

    ranks: list[int]
    scores: list[float]
    teams: list[list[int]] | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)

    @staticmethod
    def from_json(raw: dict) -> "Outcome":
        return Outcome(
            ranks=list(raw["ranks"]),
            scores=list(raw["scores"]),
            teams=raw.get("teams"),
            details=raw.get("details") or {},
        )


def ranks_from_scores(scores: Sequence[float], *, higher_is_better: bool = True) -> list[int]:
    """Competition ranking ("1224"): equal scores share a rank."""
    ordered = sorted(scores, reverse=higher_is_better)
    return [ordered.index(s) + 1 for s in scores]
