"""The four actions — GROW, MOVE, GATHER, LEAD — each split into small decisions."""
from __future__ import annotations

from .board import members, move_destinations, occupied, opponents_in, is_outer
from .content import RESOURCE_OF, action_numbers
from .decisions import ask, register, replace, resolve, update
from .economy import gain
from .event_cards import after_move_into, blocked, gather_bonus, grow_bonus
from .goals import abilities, boosted, draw, villages_of
from .powers import after_gather, has_power


def numbers(state: dict, seat: int, action: str, strength: str) -> dict:
    """The action's numbers at this strength, with Development boosts."""
    return boosted(state, seat, action, action_numbers(action, strength))


def start_action(tx, seat: int, action: str, strength: str) -> None:
    nums = numbers(tx.state, seat, action, strength)
    STARTS[action](tx, seat, nums)


# ----- GROW -----------------------------------------------------------------------------------
def _start_grow(tx, seat, nums):
    left = nums["members"] + grow_bonus(tx)
    if has_power(tx.state, seat, "farming"):
        for h, owner in enumerate(tx.state["village"]):
            if owner == seat and tx.state["seats"][seat]["supply"] > 0:
                tx.emit("members_added", {"seat": seat, "hex": h, "count": 1, "why": "farming"})
    if left > 0 and tx.state["seats"][seat]["supply"] > 0 and occupied(tx.state, seat):
        ask(tx, seat, "grow", left=left)


def _legal_grow(state, d):
    return [{"type": "grow", "hex": h} for h in occupied(state, d["seat"])] + [{"type": "done"}]


def _play_grow(tx, d, move):
    if move["type"] == "done":
        resolve(tx)
        return
    tx.emit("members_added", {"seat": d["seat"], "hex": move["hex"], "count": 1, "why": "grow"})
    if d["left"] > 1 and tx.state["seats"][d["seat"]]["supply"] > 0:
        update(tx, left=d["left"] - 1)
    else:
        resolve(tx)


register("grow", _legal_grow, _play_grow)


# ----- MOVE (and Wayfarers relocation) ----------------------------------------------------------
def _unmoved(state: dict, seat: int, hex_: int) -> int:
    return members(state, hex_, seat) - state["turn"]["moved"][hex_]


def _start_move(tx, seat, nums):
    start_move(tx, seat, "move", nums["members"])


def start_move(tx, seat: int, mode: str, limit: int | None, source: int | None = None) -> None:
    """Ask for a source (unless given), a destination, then how many members move.

    ``mode`` "move" is the MOVE action (up to ``limit`` members to an adjacent hex); "wayfarers"
    relocates any number of members from one outer hex to another outer hex."""
    if source is None:
        ask(tx, seat, "move_from", mode=mode, limit=limit)
    else:
        ask(tx, seat, "move_to", mode=mode, limit=limit, source=source)


def _sources(state, seat, mode):
    return [h for h in occupied(state, seat) if _unmoved(state, seat, h) > 0
            and (mode == "move" or is_outer(state, h))]


def _destinations(state, seat, mode, source):
    if mode == "wayfarers":
        return [h for h in range(len(state["terrain"])) if h != source and is_outer(state, h)]
    return move_destinations(state, source, has_power(state, seat, "pathfinder"))


def _legal_move_from(state, d):
    return [{"type": "move_from", "hex": h} for h in _sources(state, d["seat"], d["mode"])] + [{"type": "done"}]


def _play_move_from(tx, d, move):
    if move["type"] == "move_from":
        replace(tx, d["seat"], "move_to", mode=d["mode"], limit=d["limit"], source=move["hex"])
    else:
        resolve(tx)


def _legal_move_to(state, d):
    return [{"type": "move_to", "hex": h} for h in _destinations(state, d["seat"], d["mode"], d["source"])]


def _play_move_to(tx, d, move):
    most = _unmoved(tx.state, d["seat"], d["source"])
    if d["limit"] is not None:
        most = min(most, d["limit"])
    replace(tx, d["seat"], "move_count", mode=d["mode"], source=d["source"], dest=move["hex"], most=most)


def _legal_move_count(state, d):
    return [{"type": "move_count", "count": k} for k in range(1, d["most"] + 1)]


def _play_move_count(tx, d, move):
    resolve(tx)
    seat, dest = d["seat"], d["dest"]
    only_opponents = members(tx.state, dest, seat) == 0 and bool(opponents_in(tx.state, dest, seat))
    tx.emit("members_moved", {"seat": seat, "from": d["source"], "to": dest, "count": move["count"], "marks": True,
                              "why": d["mode"]})
    if d["mode"] == "move":
        after_move_into(tx, seat, dest, only_opponents)


register("move_from", _legal_move_from, _play_move_from)
register("move_to", _legal_move_to, _play_move_to)
register("move_count", _legal_move_count, _play_move_count)


# ----- GATHER ---------------------------------------------------------------------------------
def _start_gather(tx, seat, nums):
    if _gather_hexes(tx.state, seat, []):
        ask(tx, seat, "gather", left=nums["hexes"], per_hex=nums["per_hex"], chosen=[])
    else:
        after_gather(tx, seat)


def _gather_hexes(state, seat, chosen):
    return [h for h in occupied(state, seat) if h not in chosen and not blocked(state, h, "gather")]


def hex_yield(state: dict, seat: int, hex_: int, per_hex: int) -> int:
    """What one hex produces for ``seat`` (before the supply limit and event bonuses)."""
    amount = per_hex
    if has_power(state, seat, "focussed_effort") and members(state, hex_, seat) >= 4:
        amount += 1
    if opponents_in(state, hex_, seat):
        amount += sum(ab["amount"] for ab in abilities(state, seat, "shared_gather"))
    return amount


def _legal_gather(state, d):
    return [{"type": "gather", "hex": h} for h in _gather_hexes(state, d["seat"], d["chosen"])] + [{"type": "done"}]


def _play_gather(tx, d, move):
    seat = d["seat"]
    if move["type"] == "gather":
        h = move["hex"]
        gain(tx, seat, RESOURCE_OF[tx.state["terrain"][h]], hex_yield(tx.state, seat, h, d["per_hex"]), gathered=True)
        gather_bonus(tx, seat, h)
        chosen = d["chosen"] + [h]
        if d["left"] > 1 and _gather_hexes(tx.state, seat, chosen):
            update(tx, left=d["left"] - 1, chosen=chosen)
            return
    resolve(tx)
    after_gather(tx, seat)


register("gather", _legal_gather, _play_gather)


# ----- LEAD -----------------------------------------------------------------------------------
def _start_lead(tx, seat, nums):
    recyclable = min(villages_of(tx.state, seat), len(tx.state["seats"][seat]["progress"]))
    if recyclable > 0:
        ask(tx, seat, "recycle", left=recyclable, cards=nums["cards"], recycled=0)
    else:
        draw(tx, seat, nums["cards"])


def _legal_recycle(state, d):
    seen = []
    for card in state["seats"][d["seat"]]["progress"]:
        if card not in seen:
            seen.append(card)
    return [{"type": "recycle", "card": c} for c in seen] + [{"type": "done"}]


def _play_recycle(tx, d, move):
    seat = d["seat"]
    if move["type"] == "recycle":
        tx.emit("goals_recycled", {"seat": seat, "cards": [move["card"]]})
        recycled = d["recycled"] + 1
        if d["left"] > 1 and tx.state["seats"][seat]["progress"]:
            update(tx, left=d["left"] - 1, recycled=recycled)
            return
    else:
        recycled = d["recycled"]
    resolve(tx)
    draw(tx, seat, d["cards"] + recycled)


register("recycle", _legal_recycle, _play_recycle)

STARTS = {"grow": _start_grow, "move": _start_move, "gather": _start_gather, "lead": _start_lead}
