"""How good a position looks for a seat (the greedy bot's one-ply evaluation)."""
from __future__ import annotations

from .board import hexes_with_status, move_destinations, occupied, population, population_limit
from .content import GOALS
from .goals import can_complete, villages_of
from .powers import has_power, village_costs


def _survivors(state: dict, seat: int, limit: int) -> float:
    """Members expected to outlive the coming conflicts: in an overfull hex each opponent member
    costs one of ours, and no more than the limit survive."""
    total = 0
    for h in occupied(state, seat):
        mine = state["pop"][h][seat]
        if population(state, h) > limit:
            mine = max(0, mine - (population(state, h) - mine))
        total += min(mine, limit)
    return total


def _strength(state: dict, seat: int) -> float:
    s = state["seats"][seat]
    limit = population_limit(state)
    value = 4.0 * s["score"] + 8.0 * villages_of(state, seat)
    value += 0.2 * min(_survivors(state, seat, limit), 18)
    held = hexes_with_status(state, seat, "occupy")
    value += 0.5 * len(held) + 0.8 * len({state["terrain"][h] for h in held})
    value += 0.3 * len(hexes_with_status(state, seat, "control"))
    value += _resource_value(state, seat)
    for card in s["progress"]:
        value += _card_value(state, seat, card)
    value += 0.8 * len(s["done"])
    return value


def _resource_value(state: dict, seat: int) -> float:
    """Resources are worth most as progress towards the tribe's next village (growing faster as
    the cost nears completion), a little beyond it."""
    need = village_costs(state, seat)[0][0]
    have = state["seats"][seat]["res"]
    covered = sum(min(have[r], k) for r, k in need.items())
    spare = sum(min(have[r] - min(have[r], need.get(r, 0)), 3) for r in have)
    return 4.0 * (covered / max(1, sum(need.values()))) ** 2 + 0.6 * covered / 2 + 0.1 * spare


def _card_value(state: dict, seat: int, card: str) -> float:
    """A Goal in progress: its points when completable now, else a share by how close it is."""
    goal = GOALS[card]
    if can_complete(state, seat, card):
        return 1.0 * goal["points"]
    if goal["kind"] == "development":
        have = state["seats"][seat]["res"]
        need = sum(goal["cost"].values())
        covered = sum(min(have[r], k) for r, k in goal["cost"].items())
        return 0.3 + 0.5 * covered / need
    return 0.3


def _promised(state: dict, seat: int) -> float:
    """Value of an action already chosen but not yet carried out (members still to grow,
    hexes still to gather), so that choosing it is not judged worthless."""
    d = state["pending"][-1] if state.get("pending") else None
    if not d or d["seat"] != seat:
        return 0.0
    if d["kind"] == "grow":
        return 0.15 * min(d["left"], state["seats"][seat]["supply"])
    if d["kind"] == "gather":
        hexes = len([h for h in occupied(state, seat) if h not in d["chosen"]])
        return 0.2 * d["per_hex"] * min(d["left"], hexes)
    if d["kind"] == "recycle":
        return 0.3 * d["cards"]
    if d["kind"] in ("move_from", "move_to"):
        return _move_promise(state, seat, d)
    return 0.0


def _move_promise(state: dict, seat: int, d: dict) -> float:
    """A pending MOVE is worth more when it can reach a new hex, most when of a new terrain."""
    held = occupied(state, seat)
    terrains = {state["terrain"][h] for h in held}
    sources = [d["source"]] if d["kind"] == "move_to" else held
    best = 0.2
    for src in sources:
        if state["pop"][src][seat] < 2:
            continue
        for dst in move_destinations(state, src, has_power(state, seat, "pathfinder")):
            if state["terrain"][dst] not in terrains:
                return 1.6
            if state["pop"][dst][seat] == 0:
                best = 0.9
    return best


def heuristic(state: dict, seat: int) -> float:
    """Own strength (with what a pending action still promises) minus the best opponent's."""
    mine = _strength(state, seat) + _promised(state, seat)
    others = [_strength(state, s) for s in range(state["n"]) if s != seat]
    return mine - (max(others) if others else 0.0)
