"""Villages (rulebook page 7, and Crafty Builders / Hidden Village of the variant): what a
village costs, where one may be built, and how many a player has. The "destroyed at once
without its tribe" rule is applied where members change (``evolve.sweep_villages``)."""
from __future__ import annotations

from .board import occupied
from .content import RESOURCES, TRIBES
from .economy import affordable, pay
from .powers import has_power
from .slots import blocked


def villages_of(state: dict, seat: int) -> int:
    """Villages on the map plus a Hidden Village on the player board."""
    return state["village"].count(seat) + (1 if state["seats"][seat]["board_village"] else 0)


def village_costs(state: dict, seat: int) -> list[tuple[dict, str | None]]:
    """The ways ``seat`` may pay for a village: the tribe board's cost, or with Crafty Builders
    that cost less 1 resource of their choice (paired with the resource saved)."""
    cost = TRIBES[state["seats"][seat]["tribe"]]["village_cost"]
    if not has_power(state, seat, "crafty_builders"):
        return [(cost, None)]
    return [({r: k - (r == save) for r, k in cost.items()}, save) for save in RESOURCES if cost.get(save, 0) > 0]


def build_moves(state: dict, seat: int) -> list[dict]:
    """Villages ``seat`` may build now: a hex with their members and no village (not one the
    Invaders hold), paying a cost they can afford; or a first Hidden Village."""
    if state["supply"]["villages"] <= 0:
        return []
    costs = [(c, save) for c, save in village_costs(state, seat) if affordable(state, seat, c)]
    if not costs:
        return []
    out = []
    for h in occupied(state, seat):
        if state["village"][h] is None and not blocked(state, h, "build"):
            for _cost, save in costs:
                out.append({"type": "build", "hex": h} if save is None else {"type": "build", "hex": h, "save": save})
    if has_power(state, seat, "hidden_village") and state["seats"][seat]["built"] == 0:
        out.append({"type": "build_hidden"})
    return out


def build(tx, seat: int, move: dict) -> None:
    """Carry out a ``build_moves`` move."""
    costs = {save: c for c, save in village_costs(tx.state, seat)}
    pay(tx, seat, costs[move.get("save")])
    tx.emit("village_built", {"seat": seat, "hex": move.get("hex", -1)})
