"""Step 3, Take Action: choosing an action with a rolled die, and the four actions — GROW,
MOVE (with Wayfarers), GATHER, LEAD — each split into small decisions."""
from __future__ import annotations

from .board import is_outer, members, move_destinations, occupied, opponents_in
from .content import ACTIONS, RESOURCE_OF, action_numbers, strength_of
from .economy import gain, pay
from .event_cards import after_move_into, gather_bonus, grow_bonus
from .goals import abilities, boosted, draw
from .moves import ask, register, replace, resolve, update
from .powers import after_gather, free_moves, has_power, play_free
from .slots import blocked
from .villages import villages_of


def numbers(state: dict, seat: int, action: str, strength: str) -> dict:
    """The action's numbers at this strength, with Development boosts."""
    return boosted(state, seat, action, action_numbers(action, strength))


# ----- choosing an action (the standing decision of step 3) --------------------------------------
def _legal_action(state, d):
    taken, faces = state["turn"]["actions"], sorted(set(state["turn"]["rolled"]))
    moves = [{"type": "act", "action": a, "face": f} for a in ACTIONS if a not in taken for f in faces]
    return moves + free_moves(state, d["seat"])


def _play_action(tx, d, move):
    if move["type"] != "act":
        play_free(tx, d["seat"], move)
        return
    action = move["action"]
    column = [move["face"]] + tx.state["dice"][action][:-1]
    strength = strength_of(column)
    tx.emit("die_placed", {"seat": d["seat"], "action": action, "face": move["face"], "strength": strength})
    STARTS[action](tx, d["seat"], numbers(tx.state, d["seat"], action, strength))


register("action", _legal_action, _play_action)


# ----- GROW -----------------------------------------------------------------------------------
def _start_grow(tx, seat, nums):
    left = nums["members"] + grow_bonus(tx)
    if has_power(tx.state, seat, "farming"):
        for h, owner in enumerate(tx.state["village"]):
            if owner == seat and tx.state["seats"][seat]["supply"] > 0:
                tx.emit("members_added", {"seat": seat, "hex": h, "count": 1, "why": "farming"})
    if left > 0 and tx.state["seats"][seat]["supply"] > 0 and occupied(tx.state, seat):
        ask(tx, seat, "grow", left=left, grown=0)


def _legal_grow(state, d):
    """One member at a time; ``done`` only once a member has been added (GROW adds members)."""
    grow = [{"type": "grow", "hex": h} for h in occupied(state, d["seat"])]
    return grow + [{"type": "done"}] if d["grown"] > 0 else grow


def _play_grow(tx, d, move):
    if move["type"] == "done":
        resolve(tx)
        return
    tx.emit("members_added", {"seat": d["seat"], "hex": move["hex"], "count": 1, "why": "grow"})
    if d["left"] > 1 and tx.state["seats"][d["seat"]]["supply"] > 0:
        update(tx, left=d["left"] - 1, grown=d["grown"] + 1)
    else:
        resolve(tx)


register("grow", _legal_grow, _play_grow)


# ----- MOVE (and Wayfarers relocation) ----------------------------------------------------------
# The MOVE's strength is a number of one-hex member moves, split as the player likes: pick a
# group (``move_from`` a hex), a neighbouring hex (``move_to``), how many (``move_count``),
# repeat while moves are left, or ``done``. A member moves at most once a turn (``turn.moved``
# counts, per hex, the members that arrived by a move this turn). Wayfarers is offered beside
# ``move_from`` while the MOVE lasts.
def unmoved(state: dict, seat: int, hex_: int) -> int:
    """``seat``'s members in ``hex_`` that have not moved this turn."""
    return members(state, hex_, seat) - state["turn"]["moved"][hex_]


def _start_move(tx, seat, nums):
    if _move_options(tx.state, seat, nums["members"]):
        ask(tx, seat, "move_from", left=nums["members"])


def _sources(state: dict, seat: int, left: int) -> list[int]:
    return [h for h in occupied(state, seat) if unmoved(state, seat, h) > 0] if left > 0 else []


def wayfarers_moves(state: dict, seat: int) -> list[dict]:
    """Wayfarers, once a turn while a MOVE lasts: pay 1 wood, relocate from an outer hex."""
    if (not has_power(state, seat, "wayfarers") or "wayfarers" in state["turn"]["used"]
            or state["seats"][seat]["res"]["wood"] < 1):
        return []
    return [{"type": "wayfarers", "from": h} for h in occupied(state, seat)
            if is_outer(state, h) and unmoved(state, seat, h) > 0]


def _move_options(state: dict, seat: int, left: int) -> list[dict]:
    return ([{"type": "move_from", "hex": h} for h in _sources(state, seat, left)]
            + wayfarers_moves(state, seat))


def _legal_move_from(state, d):
    return _move_options(state, d["seat"], d["left"]) + [{"type": "done"}]


def _play_move_from(tx, d, move):
    seat = d["seat"]
    if move["type"] == "move_from":
        replace(tx, seat, "move_to", mode="move", left=d["left"], source=move["hex"])
    elif move["type"] == "wayfarers":
        tx.emit("used", {"flag": "wayfarers"})
        pay(tx, seat, {"wood": 1})
        ask(tx, seat, "move_to", mode="wayfarers", left=None, source=move["from"])
    else:
        resolve(tx)


def _destinations(state, seat, mode, source):
    if mode == "wayfarers":
        return [h for h in range(len(state["terrain"])) if h != source and is_outer(state, h)]
    return move_destinations(state, source, has_power(state, seat, "pathfinder"))


def _legal_move_to(state, d):
    return [{"type": "move_to", "hex": h} for h in _destinations(state, d["seat"], d["mode"], d["source"])]


def _play_move_to(tx, d, move):
    most = unmoved(tx.state, d["seat"], d["source"])
    if d["left"] is not None:
        most = min(most, d["left"])
    replace(tx, d["seat"], "move_count", mode=d["mode"], left=d["left"], source=d["source"], dest=move["hex"],
            most=most)


def _legal_move_count(state, d):
    return [{"type": "move_count", "count": k} for k in range(1, d["most"] + 1)]


def _play_move_count(tx, d, move):
    seat, dest, count = d["seat"], d["dest"], move["count"]
    only_opponents = members(tx.state, dest, seat) == 0 and bool(opponents_in(tx.state, dest, seat))
    tx.emit("members_moved", {"seat": seat, "from": d["source"], "to": dest, "count": count, "marks": True,
                              "why": d["mode"]})
    if d["mode"] == "move":
        left = d["left"] - count
        if _move_options(tx.state, seat, left):
            replace(tx, seat, "move_from", left=left)
        else:
            resolve(tx)
        after_move_into(tx, seat, dest, only_opponents)
        return
    resolve(tx)  # a Wayfarers relocation returns to the MOVE it was made in
    below = tx.state["pending"][-1] if tx.state["pending"] else None
    if below and below["kind"] == "move_from" and not _move_options(tx.state, seat, below["left"]):
        resolve(tx)


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
