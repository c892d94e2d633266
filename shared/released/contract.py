"""Fitting a frozen rules class to today's engine contract, without touching its rules.

The contract grew after some versions were frozen: ``seat_count`` and ``sides`` (which search
bots call) came after commit 2c4e00b. A frozen class that lacks them gets them here, each read
from the state layout that version has (the same reading the next version's own method makes).
Nothing here may change a move, an event, a view or an outcome that its release served; the
golden corpus (``tests/golden``) proves that every version still serves what its release served.

One thing is served where the release crashed: a version's ``to_act`` may fail on a state that
only exists *inside* one move's events (Arkon 1 between ``bids_revealed`` and ``bid_won``: the
bid's commitment is gone). No head is ever such a state, and nobody is asked to act in the middle
of a move, so the answer is "nobody" — where the release answered ``view?at=N`` with a 500.
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


# versions whose legal moves include a step that only takes back an earlier one (a card or a
# member picked for a bid or a formation, put back): the API marks them (Game.undoing_moves). In
# Fellowships of Fate 1-2 and Arkon 2 pick and unpick can go on for ever; Arkon 3 bounds them (a
# card put back cannot be picked again for that bid) but its unpick still only reverses a pick.
UNDOING_MOVES = {
    ("arkon", "2"): {"unpick"},
    ("arkon", "3"): {"unpick"},
    ("fellowships-of-fate", "1"): {"unpick"},
    ("fellowships-of-fate", "2"): {"unpick"},
}

# versions whose to_act cannot read the states inside one move's events (see above)
CANNOT_SAY_INSIDE_A_MOVE = {("arkon", "1")}


def _nobody_inside_a_move(to_act: Callable[[Game, dict], list[int]]):
    def fitted_to_act(self, state: dict) -> list[int]:
        try:
            return to_act(self, state)
        except (TypeError, KeyError, IndexError):  # a state inside a move's events (see above)
            return []
    fitted_to_act.__doc__ = to_act.__doc__
    return fitted_to_act


def _defines(cls: type, name: str) -> bool:
    """Whether ``cls`` (not the engine's base class) implements ``name``."""
    return any(name in vars(k) for k in cls.__mro__ if k is not Game and issubclass(k, Game))


def fitted(cls: type[Game], release: str) -> type[Game]:
    """``cls`` with what today's contract needs and it lacks, and where it came from."""
    extra: dict = {"release": release, "frozen": True, "__doc__": cls.__doc__,
                   "__module__": cls.__module__, "__qualname__": cls.__qualname__}
    if (cls.id, cls.version) in CANNOT_SAY_INSIDE_A_MOVE:
        extra["to_act"] = _nobody_inside_a_move(cls.to_act)
    if (cls.id, cls.version) in UNDOING_MOVES:
        extra["undoing_moves"] = frozenset(UNDOING_MOVES[cls.id, cls.version])
    if not _defines(cls, "seat_count"):
        count = SEAT_COUNTS[cls.id]
        extra["seat_count"] = lambda self, state: count(state)
    if not _defines(cls, "sides") and cls.id in SIDES:
        side = SIDES[cls.id]
        extra["sides"] = lambda self, state: side(state)
    return type(cls.__name__, (cls,), extra)
