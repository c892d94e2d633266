"""Who sits where: clockwise order, teams, opponents, attacking and defending sides.

Seats are numbered clockwise; the player "to the left" of a seat is the next seat still in the
game. In the 4-player game seats 0+2 and 1+3 are teams (teammates sit across).
"""
from __future__ import annotations

TEAMS_4P = [[0, 2], [1, 3]]


def alive_seats(state: dict) -> list[int]:
    return [s for s in range(state["players"]) if state["alive"][s]]


def clockwise_from(state: dict, start: int) -> list[int]:
    """Seats still in the game, clockwise, beginning with ``start`` (or the next one in)."""
    n = state["players"]
    return [(start + i) % n for i in range(n) if state["alive"][(start + i) % n]]


def left_of(state: dict, seat: int) -> int:
    """The next seat clockwise that is still in the game."""
    n = state["players"]
    for i in range(1, n + 1):
        s = (seat + i) % n
        if state["alive"][s]:
            return s
    return seat


def team_of(state: dict, seat: int) -> int | None:
    teams = state.get("teams")
    if not teams:
        return None
    return 0 if seat in teams[0] else 1


def teammates(state: dict, seat: int) -> list[int]:
    """``seat`` and its teammate (just ``seat`` without teams)."""
    t = team_of(state, seat)
    return [seat] if t is None else list(state["teams"][t])


def opposed(state: dict, a: int, b: int) -> bool:
    if a == b:
        return False
    t = state.get("teams")
    return not t or team_of(state, a) != team_of(state, b)


def opponents(state: dict, seat: int) -> list[int]:
    return [s for s in alive_seats(state) if opposed(state, seat, s)]


def attacking(state: dict, seat: int) -> bool:
    """Whether ``seat`` is on the attacking side this battle (the lead attacker's team)."""
    lead = state.get("attacker")
    return lead is not None and (seat == lead or not opposed(state, seat, lead))
