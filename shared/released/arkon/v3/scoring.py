"""Winning the Game: four different clans or four of one clan (a wild clan fills either); the
outcome of a finished match (Arkon has no points: winners rank 1, everyone else 2)."""
from __future__ import annotations

from shared.engine import Outcome

from .content import CARDS, WIN_CLANS


def progress(clans: list[str]) -> int:
    """How far a set of clans in play is toward a win (``WIN_CLANS`` means won)."""
    wild = 0
    kinds: dict[str, int] = {}
    for c in clans:
        t = CARDS[c].clan
        if t == "any":
            wild += 1
        else:
            kinds[t] = kinds.get(t, 0) + 1
    same = max(kinds.values(), default=0)
    return min(WIN_CLANS, max(same, len(kinds)) + wild)


def has_won(clans: list[str]) -> bool:
    return len(clans) >= WIN_CLANS and progress(clans) >= WIN_CLANS


def winners(state: dict) -> list[int]:
    """Every seat whose clans in play make a winning set (two at once share the win)."""
    return [seat for seat, clans in enumerate(state["clans"]) if has_won(clans)]


def outcome(state: dict) -> Outcome | None:
    won = state.get("winners")
    if not won:
        return None
    n = state["players"]
    return Outcome(
        ranks=[1 if s in won else 2 for s in range(n)],
        scores=[1.0 if s in won else 0.0 for s in range(n)],
        details={"clans": state["clans"]},
    )
