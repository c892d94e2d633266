"""How good a position looks for a seat (the greedy bot's evaluation)."""
from __future__ import annotations

from .combat_values import battlefield_values, condition_holds
from .content import card, value
from .table import opponents, team_of

WIN = 100.0


def _side_cemetery(st: dict, seat: int) -> float:
    seats = st["teams"][team_of(st, seat)] if st["teams"] else [seat]
    return sum(value(c) for s in seats for c in st["zones"][s]["cemetery"])


def expected_value(st: dict, seat: int, cid: str) -> int:
    """What ``cid`` would add if ``seat`` played it now: printed value and its own modifiers."""
    total = value(cid)
    for fx in card(cid).effects:
        if fx["do"] == "modify" and fx["target"] == "self" and not fx.get("per") and condition_holds(st, seat, fx):
            total += fx["amount"]
    return max(0, total)


def _battle_outlook(st: dict, seat: int, opps: list[int]) -> float:
    """Expected cemetery swing of the unresolved battle, each opponent still to play answering
    sensibly: beat my total with its cheapest card that does, else throw its cheapest card."""
    b = st["battle"]
    totals = battlefield_values(st)
    mine = totals[seat]
    at_stake = sum(value(e["card"]) for e in st["field"] if e["seat"] == seat)
    still = set(b["order"][b["turn"]:])  # seats whose card for this battle is still to come
    if st["pending"] and st["pending"][-1]["kind"] == "play":
        still.add(st["pending"][-1]["seat"])
    swing = 0.0
    for s in opps:
        if s not in still:
            if totals[s] > mine:
                swing -= at_stake
            elif totals[s] < mine:
                swing += sum(value(e["card"]) for e in st["field"] if e["seat"] == s)
            continue
        options = sorted((expected_value(st, s, c), value(c)) for c in st["zones"][s]["hand"])
        beat = [v for v in options if v[0] + totals[s] > mine]
        if beat:
            swing -= at_stake + 0.2 * min(v[1] for v in beat)
        elif options:
            swing += 0.5 * min(v[1] for v in options)
    return swing / len(opps)


def heuristic(st: dict, seat: int) -> float:
    """Opponents' cemetery value minus mine (teams: combined), plus the likely cost of the
    battle in progress, plus a little for the cards in hand."""
    if st["step"] == "over":
        r = st["result"]
        return WIN if r["ranks"][seat] == min(r["ranks"]) else -WIN
    opps = opponents(st, seat) or [s for s in range(st["players"]) if s != seat]
    score = sum(_side_cemetery(st, s) for s in opps) / len(opps) - _side_cemetery(st, seat)
    b = st.get("battle")
    if b and st["step"] in ("play", "after_all") and b["result"] is None:
        score += _battle_outlook(st, seat, opps)
    hand = st["zones"][seat]["hand"]
    return score + 0.05 * sum(value(c) for c in hand) + 0.3 * len(hand)
