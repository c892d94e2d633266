"""Rulebook "End of the Game and VP Scoring": VP of the journal's cards plus its pages; ties go
to more tokens, then are shared."""
from __future__ import annotations

from shared.engine import Outcome

from .content import content


def token_total(state: dict, seat: int) -> int:
    """Token points of all types (a 3-point token counts as three 1-point tokens)."""
    return sum(state["seats"][seat]["tokens"].values())


def journal_vp(state: dict, seat: int) -> int:
    """VP printed on the cards under the seat's journal plus the journal's own pages."""
    c = content()
    s = state["seats"][seat]
    return sum(c.vp(card) for card in s["journal"]) + c.journal_pages[s["colour"]]


def final_result(state: dict) -> dict:
    """Scores, tie-break token counts and ranks (equal VP and tokens share a rank)."""
    seats = range(state["players"])
    vp = [journal_vp(state, s) for s in seats]
    tokens = [token_total(state, s) for s in seats]
    keys = list(zip(vp, tokens))
    ordered = sorted(keys, reverse=True)
    ranks = [ordered.index(k) + 1 for k in keys]
    return {"vp": vp, "tokens": tokens, "ranks": ranks,
            "journals": [list(state["seats"][s]["journal"]) for s in seats]}


def outcome(state: dict) -> Outcome | None:
    result = state.get("result")
    if not result:
        return None
    return Outcome(ranks=list(result["ranks"]), scores=[float(v) for v in result["vp"]],
                   details={"tokens": list(result["tokens"])})
