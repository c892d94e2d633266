"""A position evaluation (greedy's one ply, search's cut-off): points, the battle in progress,
cards in hand.

``evaluate`` (version 2) differs from the first version (in git history) in three ways:

* the battle in progress is worth what its victor would really gain: the Land's points *with*
  the set bonus it would complete, and for a Raid the owner's loss as well;
* the leader's chance depends on whether the opponent, to play, can answer (a Warrior that beats
  or ties the leader's, or a battle Action): without an answer the battle is as good as won;
* a Warrior in hand is worth more the more types it beats (Archers and Heavy Infantry beat three).
"""
from __future__ import annotations

from .battle import playable_warriors
from .content import Content
from .scoring import points
from .state import opp

LEAD_ANSWERABLE = 0.6  # the share of the prize a leader counts on while the opponent can answer
LEAD_UNANSWERED = 0.9  # ... when the opponent, to play, has no Warrior or Action to answer with
WARRIOR_BASE = 0.17  # a Warrior in hand: base value ...
WARRIOR_PER_BEATEN = 0.04  # ... plus this for each type it beats


def _gain(content: Content, lands: list[str], land: str) -> int:
    """The points ``land`` would add to ``lands`` (its value and any set bonus it completes)."""
    return points(content, lands + [land]) - points(content, lands)


def _prize(content: Content, state: dict, seat: int) -> float:
    """What ``seat`` gains over its opponent by winning the battle in progress."""
    b = state["battle"]
    mine, theirs = state["seats"][seat]["lands"], state["seats"][opp(seat)]["lands"]
    if b["owner"] is None:
        return _gain(content, mine, b["land"])
    if b["owner"] == seat:
        return 0.0  # the defender of a Raid keeps what he has
    rest = list(theirs)
    rest.remove(b["land"])
    return _gain(content, mine, b["land"]) + points(content, theirs) - points(content, rest)


def _can_answer(content: Content, state: dict, seat: int) -> bool:
    if playable_warriors(content, state, seat):
        return True
    return any(content.actions[c].timing == "battle" for c in state["seats"][seat]["actions"])


def _battle_swing(content: Content, state: dict, seat: int) -> float:
    b = state.get("battle")
    if not b or b["winner"] is not None or b["leader"] is None:
        return 0.0
    leader = b["leader"]
    challenger = opp(leader)
    if b["to_play"] == challenger and not _can_answer(content, state, challenger):
        share = LEAD_UNANSWERED
    else:
        share = LEAD_ANSWERABLE
    value = share * _prize(content, state, leader)
    return value if leader == seat else -value


_WARRIOR_VALUE: dict[int, dict[str, float]] = {}


def _warrior_values(content: Content) -> dict[str, float]:
    key = id(content)
    if key not in _WARRIOR_VALUE:
        _WARRIOR_VALUE[key] = {w: WARRIOR_BASE + WARRIOR_PER_BEATEN * len(content.beats_table[w])
                               for w in content.beats_table}
    return _WARRIOR_VALUE[key]


def _material(content: Content, state: dict, seat: int) -> float:
    me = state["seats"][seat]
    values = _warrior_values(content)
    return (sum(values[w] for w in me["hand"]) + 0.1 * len(me["reserve"]) + 0.15 * len(me["actions"])
            + 0.3 * bool(me["bonus"]))


def evaluate(content: Content, state: dict, seat: int) -> float:
    mine = points(content, state["seats"][seat]["lands"])
    theirs = points(content, state["seats"][opp(seat)]["lands"])
    return (mine - theirs) + _battle_swing(content, state, seat) + _material(content, state, seat) \
        - _material(content, state, opp(seat))
