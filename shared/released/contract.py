"""Fitting a frozen rules class to today's engine contract, without touching its rules.

The contract grew after some versions were frozen: ``seat_count`` and ``sides`` (which search
bots call) came after commit 2c4e00b. A frozen class that lacks them gets them here, each read
from the state layout that version has (the same reading the next version's own method makes).
Nothing here may change a move, an event, a view or an outcome; the golden corpus
(``tests/golden``) proves that every version still serves what its release served.
"""
from __future__ import annotations

from collections.abc import Callable

from shared.engine import Game

# game id -> seats in a state, for versions older than Game.seat_count (the state layouts of 2c4e00b)
SEAT_COUNTS: dict[str, Callable[[dict], int]] = {
    "arkon": lambda state: state["players"],
    "battlefields-of-olympus": lambda state: len(state["seats"]),
    "fate-of-akalon": lambda state: state["players"],
    "fellowships-of-fate": lambda state: state["players"],
    "rise-of-tribes": lambda state: state["n"],
}

# game id -> the seats that win or lose together, where a version has teams but no Game.sides
SIDES: dict[str, Callable[[dict], list[list[int]]]] = {
    "fate-of-akalon": lambda state: state["teams"] or [[s] for s in range(state["players"])],
}


def _defines(cls: type, name: str) -> bool:
    """Whether ``cls`` (not the engine's base class) implements ``name``."""
    return any(name in vars(k) for k in cls.__mro__ if k is not Game and issubclass(k, Game))


def fitted(cls: type[Game], release: str) -> type[Game]:
    """``cls`` with what today's contract needs and it lacks, and where it came from."""
    extra: dict = {"release": release, "frozen": True, "__doc__": cls.__doc__,
                   "__module__": cls.__module__, "__qualname__": cls.__qualname__}
    if not _defines(cls, "seat_count"):
        count = SEAT_COUNTS[cls.id]
        extra["seat_count"] = lambda self, state: count(state)
    if not _defines(cls, "sides") and cls.id in SIDES:
        side = SIDES[cls.id]
        extra["sides"] = lambda self, state: side(state)
    return type(cls.__name__, (cls,), extra)
