"""Winning (rulebook page 9): the first player to reach 15 points wins at once; the others rank
by score."""
from __future__ import annotations

from shared.engine import Outcome, ranks_from_scores

from .content import WIN


def reaches_win(score: int) -> bool:
    return score >= WIN


def outcome(state: dict) -> Outcome | None:
    """The winner first; the others by score (ties share a rank)."""
    if state.get("winner") is None:
        return None
    scores = [s["score"] for s in state["seats"]]
    ranks = ranks_from_scores(scores)
    ranks = [1 if s == state["winner"] else max(2, r) for s, r in enumerate(ranks)]
    return Outcome(ranks=ranks, scores=scores, details={"winner": state["winner"],
                                                        "turns": state["turn"]["number"]})
