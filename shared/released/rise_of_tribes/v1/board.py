"""The map and who stands where: occupation, majority, control, population, movement reach."""
from __future__ import annotations

from .content import POPULATION_LIMIT, adjacency, outer_hexes
from .slots import active_ops, raiders_at


def neighbours(state: dict, hex_: int) -> tuple[int, ...]:
    return adjacency(state["n"])[hex_]


def hex_count(state: dict) -> int:
    return len(state["terrain"])


def members(state: dict, hex_: int, seat: int) -> int:
    return state["pop"][hex_][seat]


def on_board(state: dict, seat: int) -> int:
    """How many of ``seat``'s tribe members are on the map."""
    return sum(row[seat] for row in state["pop"])


def tribe_total(state: dict, hex_: int) -> int:
    """Tribe members of every colour in a hex (villages never count)."""
    return sum(state["pop"][hex_])


def invaders_at(state: dict, hex_: int) -> int:
    return raiders_at(state, hex_)[0]


def population(state: dict, hex_: int) -> int:
    """Everything that counts towards the hex limit: tribe members and Invaders."""
    return tribe_total(state, hex_) + invaders_at(state, hex_)


def population_limit(state: dict) -> int:
    """The hex limit, lowered while an event says so (Drought)."""
    limits = [op["value"] for op, _slot in active_ops(state, "population_limit")]
    return min(limits) if limits else POPULATION_LIMIT


def occupied(state: dict, seat: int) -> list[int]:
    return [h for h, row in enumerate(state["pop"]) if row[seat] > 0]


def seats_in(state: dict, hex_: int) -> list[int]:
    return [s for s, c in enumerate(state["pop"][hex_]) if c > 0]


def opponents_in(state: dict, hex_: int, seat: int) -> list[int]:
    return [s for s in seats_in(state, hex_) if s != seat]


def has_status(state: dict, hex_: int, seat: int, status: str) -> bool:
    """Occupation, majority or control of a hex (rulebook "Hex Control")."""
    row = state["pop"][hex_]
    mine = row[seat]
    if mine == 0:
        return False
    others = sum(row) - mine
    if status == "occupy":
        return True
    if status == "majority":
        return mine > others
    if status == "control":
        return others == 0
    raise ValueError(status)


def hexes_with_status(state: dict, seat: int, status: str) -> list[int]:
    return [h for h in range(hex_count(state)) if has_status(state, h, seat, status)]


def largest_group(state: dict, hexes: list[int]) -> int:
    """Size of the largest connected group among ``hexes``."""
    left, best = set(hexes), 0
    while left:
        stack, size = [left.pop()], 0
        while stack:
            h = stack.pop()
            size += 1
            for n in neighbours(state, h):
                if n in left:
                    left.remove(n)
                    stack.append(n)
        best = max(best, size)
    return best


def is_outer(state: dict, hex_: int) -> bool:
    return hex_ in outer_hexes(state["n"])


def terrain_region(state: dict, hex_: int) -> set[int]:
    """The hexes of the same terrain connected to ``hex_`` (including it)."""
    kind, region, stack = state["terrain"][hex_], {hex_}, [hex_]
    while stack:
        for n in neighbours(state, stack.pop()):
            if n not in region and state["terrain"][n] == kind:
                region.add(n)
                stack.append(n)
    return region


def move_destinations(state: dict, source: int, pathfinder: bool) -> list[int]:
    """Where a MOVE from ``source`` may end: adjacent hexes, or with Pathfinder any hex of the
    source's contiguous terrain region or adjacent to it (the region counts as one hex)."""
    start = terrain_region(state, source) if pathfinder else {source}
    reach = set(start)
    for h in start:
        reach.update(neighbours(state, h))
    reach.discard(source)
    return sorted(reach)


def least_populated(state: dict, hexes: list[int] | None = None) -> list[int]:
    """The hexes (of ``hexes``, default all) with the smallest population, empty ones included."""
    pool = list(range(hex_count(state))) if hexes is None else hexes
    low = min(population(state, h) for h in pool)
    return [h for h in pool if population(state, h) == low]
