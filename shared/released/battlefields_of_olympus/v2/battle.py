"""The rulebook's BATTLE section as pure queries: when a battle is forced, which Warrior may be
played, what it does, who leads, which Ares a battle uses up.

A battle keeps each seat's *current* Warrior (its topmost one), the ``line`` of Warriors on the
table in play order with each card's result (and ``overturned`` once an Action made it lose),
and the ``leader``: the player of the last winning card (None while the last two Warriors hold
the line).
"""
from __future__ import annotations

from .content import Content
from .state import opp

TYING = ("tie", "numbers")  # results of a card of the same type as the opponent's current one


def warrior_result(content: Content, battle: dict, seat: int, card: str) -> str | None:
    """What ``card`` would be if ``seat`` played it now, or None when it may not be played.

    ``first``: the battle's first Warrior; ``win``: it beats the opponent's current Warrior;
    ``tie``: it holds the line; ``numbers``: the same player's second tying card in a row, a
    winning card (superior numbers).
    """
    theirs = battle["current"][opp(seat)]
    if theirs is None:
        return "first"
    if content.beats(card, theirs):
        return "win"
    if card != theirs:
        return None
    line = battle["line"]
    previous = line[-1] if line else None
    if previous and previous["seat"] == seat and previous["result"] in TYING:
        return "numbers"  # an Elite that overturned the previous tying card does not change that
    return "tie"


def leader_after(battle: dict, seat: int, result: str) -> int | None:
    """Who leads once ``seat``'s Warrior with ``result`` is on the table (step 5: the victor is
    the player of the last winning card).

    A tying card against the leader's card holds the line (no one leads); a tying card played by
    the leader himself (in his free chance) is not a winning card and leaves his win standing.
    """
    if result != "tie":
        return seat
    return seat if battle["leader"] == seat else None


def battle_forced(state: dict) -> bool:
    """"When Ares and Land Trophy cards are in play, players must battle" (for the topmost Land)."""
    return bool(state["land_pile"] and state["ares_pile"])


def ares_fought_over(state: dict, owner: int | None) -> int:
    """How many Ares cards a battle starting now is fought over, and uses up at step 6: those in
    play when it is fought for the topmost Land of the Land pile; none for an opponent's Land."""
    return len(state["ares_pile"]) if owner is None else 0


def playable_warriors(content: Content, state: dict, seat: int) -> list[tuple[str, str]]:
    """(card, from) pairs the seat may play: hand types and the face-up bonus Warrior."""
    battle, me = state["battle"], state["seats"][seat]
    out = [(c, "hand") for c in sorted(set(me["hand"])) if warrior_result(content, battle, seat, c)]
    if me["bonus"] and warrior_result(content, battle, seat, me["bonus"]):
        out.append((me["bonus"], "bonus"))
    return out


def swap_candidates(content: Content, state: dict, seat: int) -> list[str]:
    """Hand Warriors that may replace the seat's current one: another type (a swap for an
    identical card would change nothing) that beats or ties the opponent's current Warrior."""
    mine, theirs = state["battle"]["current"][seat], state["battle"]["current"][opp(seat)]
    if theirs is None:
        return []
    hand = sorted(set(state["seats"][seat]["hand"]))
    return [c for c in hand if c != mine and content.beats_or_ties(c, theirs)]


def effect_applies(content: Content, state: dict, seat: int, effect: dict) -> bool:
    """Whether a battle Action's effect may be played by ``seat`` now."""
    b = state["battle"]
    if b["passed"] is not None or b["current"][seat] is None or b["current"][opp(seat)] is None:
        return False
    kind = effect["kind"]
    if kind == "take_lead":
        if effect["when"] == "opponent_leads":
            return b["leader"] == opp(seat)
        return b["leader"] is None  # "tied": the last two Warriors hold the line
    if kind == "swap_warrior":
        return b["leader"] != seat and bool(swap_candidates(content, state, seat))
    return False


def victor(battle: dict) -> int | None:
    """The player of the last winning card; None when the battle is a draw."""
    return battle["leader"]


def next_starter(battle: dict, winner: int | None) -> int:
    """Battle step 10: the loser begins the next turn; after a draw, the player of the last card."""
    if winner is not None:
        return opp(winner)
    return battle["line"][-1]["seat"] if battle["line"] else battle["attacker"]
