"""Land Trophy points and the final standings."""
from __future__ import annotations

from collections import Counter

from shared.engine import Outcome, ranks_from_scores

from .content import Content


def points(content: Content, lands: list[str]) -> int:
    """Land values plus the set bonus for every three Lands of one name."""
    size = content.number("set_size")
    bonus = content.number("set_bonus_points")
    total = sum(content.lands[l].value for l in lands)
    names = Counter(content.lands[l].name for l in lands)
    return total + bonus * sum(n // size for n in names.values())


def colour_set(content: Content, lands: list[str]) -> bool:
    """Whether the Lands include three of one colour (the bonus Warrior condition)."""
    need = content.bonus["lands_of_one_colour"]
    colours = Counter(content.lands[l].colour for l in lands)
    return any(n >= need for n in colours.values())


def standings(content: Content, state: dict) -> Outcome:
    """Most points wins; tied points: most Land cards; still tied: a shared rank."""
    scores = [points(content, s["lands"]) for s in state["seats"]]
    keys = [p * 100 + len(s["lands"]) for p, s in zip(scores, state["seats"])]
    return Outcome(
        ranks=ranks_from_scores(keys),
        scores=scores,
        details={"lands": [len(s["lands"]) for s in state["seats"]],
                 "reason": (state.get("result") or {}).get("reason")},
    )
