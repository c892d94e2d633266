"""Rise of Tribes' public content for the viewer, from the data files: Goal and Event cards,
tribes and their powers, the board (terrains, each map's adjacency and a hex layout that fits it),
the action table and the dice."""
from __future__ import annotations

from functools import cache

from shared.engine.catalog import card

from .content import ACTION_TABLE, BOARD, DICE, EVENTS, GOALS, POWERS, RULES, TRIBES

# axial directions of the six neighbours of a hex (pointy-top)
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def layout(adjacency: list[list[int]]) -> list[list[int]]:
    """Axial coordinates [q, r] for each hex such that two hexes touch exactly when the map says
    they are adjacent (a backtracking search from hex 0; the maps are small)."""
    n = len(adjacency)
    adj = [set(a) for a in adjacency]
    pos: dict[int, tuple[int, int]] = {0: (0, 0)}
    taken = {(0, 0): 0}

    def consistent(h: int, p: tuple[int, int]) -> bool:
        for d in DIRECTIONS:
            other = taken.get((p[0] + d[0], p[1] + d[1]))
            if other is not None and other not in adj[h]:
                return False
        for nb in adj[h]:
            if nb in pos and (pos[nb][0] - p[0], pos[nb][1] - p[1]) not in DIRECTIONS:
                return False
        return True

    def place() -> bool:
        if len(pos) == n:
            return True
        # the unplaced hex with the most placed neighbours
        h = max((x for x in range(n) if x not in pos), key=lambda x: (sum(nb in pos for nb in adj[x]), -x))
        anchor = next((nb for nb in adj[h] if nb in pos), None)
        if anchor is None:
            return False
        for d in DIRECTIONS:
            p = (pos[anchor][0] + d[0], pos[anchor][1] + d[1])
            if p in taken or not consistent(h, p):
                continue
            pos[h], taken[p] = p, h
            if place():
                return True
            del pos[h], taken[p]
        return False

    if not place():
        raise ValueError("no hex layout fits this adjacency")
    return [list(pos[h]) for h in range(n)]


def _goal(c: dict) -> dict:
    values = {"points": c.get("points")}
    values.update({f"cost {k}": v for k, v in (c.get("cost") or {}).items()})
    return card(c["name"], c.get("text", ""), values, c.get("kind", "goal"), c.get("source", "house"))


@cache
def catalog() -> dict:
    cards = {cid: _goal(c) for cid, c in GOALS.items()}
    cards.update({cid: card(c["name"], c.get("text", ""), {}, "event", c.get("source", "house")) for cid, c in EVENTS.items()})
    cards.update({pid: card(p["name"], p.get("text", ""), {}, "power", p.get("source", "house")) for pid, p in POWERS.items()})
    maps = {k: {"adjacency": m["adjacency"], "layout": layout(m["adjacency"]), "source": m.get("source")}
            for k, m in BOARD["maps"].items()}
    return {
        "cards": cards,
        "tribes": {tid: {"name": t["name"], "village_cost": t["village_cost"], "powers": t.get("powers", []),
                         "source": t.get("source")} for tid, t in TRIBES.items()},
        "board": {"terrains": BOARD["terrains"], "maps": maps,
                  "population_limit": BOARD["population_limit"]["value"]},
        "actions": {a: {k: v for k, v in row.items()} for a, row in ACTION_TABLE.items()},
        "dice": {"faces": DICE["faces"]["value"], "strength": {k: v for k, v in DICE["strength"].items() if k != "note"}},
        "winning_score": RULES["winning_score"],
    }
