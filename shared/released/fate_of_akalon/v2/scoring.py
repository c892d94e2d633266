"""Who won: final ranks and scores.

The winner is the player with the least cemetery value (4 players: the team with the least
combined value); equal values tie. In the 3-player game a player who left (cemetery value over
30) ranks below everyone still in the game, later leavers above earlier ones.
"""
from __future__ import annotations

from .table import team_of


def _competition_ranks(keys: list) -> list[int]:
    ordered = sorted(keys)
    return [ordered.index(k) + 1 for k in keys]


def final_result(st: dict, cem: list[int]) -> dict:
    """The ``Outcome`` fields (plain JSON) of a finished game."""
    n = st["players"]
    if st["teams"]:
        team_total = [sum(cem[s] for s in team) for team in st["teams"]]
        keys = [team_total[team_of(st, s)] for s in range(n)]
        ranks = [sorted(set(team_total)).index(k) + 1 for k in keys]  # rank of the team
        return {"ranks": ranks, "scores": keys, "teams": st["teams"],
                "details": {"cemetery": cem, "team_cemetery": team_total}}
    group = {s: 0 for s in range(n) if st["alive"][s]}
    for i, seats in enumerate(reversed(st["left"]), start=1):
        for s in seats:
            group[s] = i
    keys = [(group[s], cem[s]) for s in range(n)]
    return {"ranks": _competition_ranks(keys), "scores": list(cem), "teams": None,
            "details": {"cemetery": cem, "left": st["left"]}}
