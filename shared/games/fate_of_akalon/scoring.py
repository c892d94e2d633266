"""Who won, and how good a position looks (for the greedy bot).

The winner is the player with the least cemetery value (4 players: the team with the least
combined value); equal values tie. In the 3-player game a player who leaves at 30 ranks below
everyone still in the game, later leavers above earlier ones.
"""
from __future__ import annotations

from .cards import value
from .table import opponents, team_of

WIN = 100.0


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


def _side_cemetery(st: dict, seat: int) -> float:
    cem = sum(value(c) for c in st["zones"][seat]["cemetery"])
    if st["teams"]:
        return sum(sum(value(c) for c in st["zones"][s]["cemetery"]) for s in st["teams"][team_of(st, seat)])
    return cem


def heuristic(st: dict, seat: int) -> float:
    """Opponents' cemetery minus mine, plus what the battle in progress is likely to cost.

    While a battle is unresolved, each opponent still to play is assumed to answer sensibly:
    beat my battlefield value with its cheapest card that does, or else throw its cheapest card.
    """
    from .values import battlefield_values

    if st["step"] == "over":
        r = st["result"]
        best = min(r["ranks"])
        return WIN if r["ranks"][seat] == best else -WIN
    opps = opponents(st, seat) or [s for s in range(st["players"]) if s != seat]
    mine = _side_cemetery(st, seat)
    theirs = sum(_side_cemetery(st, s) for s in opps) / len(opps)
    score = theirs - mine
    b = st.get("battle")
    if b and st["step"] in ("play", "after_all") and b["result"] is None:
        totals = battlefield_values(st)
        my_total = totals[seat]
        my_cards = sum(value(e["card"]) for e in st["field"] if e["seat"] == seat)
        still = b["order"][b["turn"]:]
        for s in opps:
            if s not in still or s == seat:
                if totals[s] > my_total:
                    score -= my_cards
                elif totals[s] < my_total:
                    score += sum(value(e["card"]) for e in st["field"] if e["seat"] == s)
                continue
            hand = sorted(value(c) for c in st["zones"][s]["hand"])
            beat = [v for v in hand if v + totals[s] > my_total]
            if beat:
                score -= my_cards + 0.2 * beat[0]
            elif hand:
                score += 0.5 * hand[0]
        score /= len(opps)
    hand = st["zones"][seat]["hand"]
    score += 0.05 * sum(value(c) for c in hand) + 0.3 * len(hand)
    return score
