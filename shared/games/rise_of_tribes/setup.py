"""Setup (rulebook pages 2-3) once the components are dealt (``game.setup``): the Tribal Powers
choice (variant, page 10), then the starting placements clockwise from the start player."""
from __future__ import annotations

from .board import hex_count, neighbours, opponents_in
from .content import RESOURCES, RULES
from .economy import gain
from .moves import ask, register, resolve, update
from .powers import power


def order(state: dict) -> list[int]:
    """Seats clockwise (increasing seat number) from the start player."""
    n, start = state["n"], state["start"]
    return [(start + k) % n for k in range(n)]


def step_powers(tx):
    """Variant: each leader, in order, chooses one of its two powers (``powers`` registers the
    decision)."""
    state = tx.state
    waiting = [s for s in order(state) if power(state, s) is None]
    if waiting:
        ask(tx, waiting[0], "power")
        return None
    return "placement"


def step_placement(tx):
    """The next player's starting placement; the first turn once everyone has placed."""
    state = tx.state
    k = state["turn"]["placed"]
    if k == state["n"]:
        tx.emit("turn_started", {"seat": state["start"], "number": 1})
        return
    spec = RULES["start_placements"][k]
    ask(tx, order(state)[k], "start", left=spec["members"], hexes=spec["hexes"], placed=[],
        resources=spec["resources"])
    return


def _start_hexes(state: dict, d: dict) -> list[int]:
    """Unoccupied by others; a second hex must be adjacent to the first."""
    seat = d["seat"]
    free = [h for h in range(hex_count(state)) if not opponents_in(state, h, seat) and h not in d["placed"]]
    if d["placed"]:
        near = set(neighbours(state, d["placed"][0]))
        return [h for h in free if h in near]
    if d["hexes"] > 1:
        free = [h for h in free if any(n in free for n in neighbours(state, h))]
    return free


def _legal_start(state, d):
    last = len(d["placed"]) + 1 == d["hexes"]
    counts = [d["left"]] if last else range(1, d["left"])
    return [{"type": "place", "hex": h, "count": c} for h in _start_hexes(state, d) for c in counts]


def _play_start(tx, d, move):
    tx.emit("members_added", {"seat": d["seat"], "hex": move["hex"], "count": move["count"], "why": "setup"})
    left = d["left"] - move["count"]
    if left > 0:
        update(tx, left=left, placed=d["placed"] + [move["hex"]])
        return
    resolve(tx)
    tx.emit("turn_set", {"set": {"placed": tx.state["turn"]["placed"] + 1}})
    if d["resources"]:
        ask(tx, d["seat"], "take", left=d["resources"])


def _legal_take(state, d):
    return [{"type": "take", "resource": r} for r in RESOURCES if state["supply"][r] > 0]


def _play_take(tx, d, move):
    gain(tx, d["seat"], move["resource"], 1)
    if d["left"] > 1:
        update(tx, left=d["left"] - 1)
    else:
        resolve(tx)


register("start", _legal_start, _play_start)
register("take", _legal_take, _play_take)
