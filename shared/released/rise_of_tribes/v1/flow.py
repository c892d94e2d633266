"""Turn order: setup placements, then each turn's steps, driven until a decision is needed.

Steps of the setup: ``powers`` (variant) -> ``placement``. Steps of a turn: ``start``
(re-entry) -> ``score`` (step 1) -> ``roll`` -> ``react`` -> ``draw`` (step 2) -> ``actions``
(step 3) -> ``intimidate`` -> ``conflict`` (step 4) -> ``goals`` (step 5).
"""
from __future__ import annotations

from . import conflict
from .actions import start_action
from .board import hex_count, neighbours, occupied, on_board, opponents_in, population
from .content import ACTIONS, FACES, RESOURCES, RULES, strength_of
from .decisions import ask, register, resolve, set_step, update
from .economy import affordable, gain, pay
from .event_cards import blocked, draw_event, play_step5, react_to_doubles, step5_moves
from .goals import complete, complete_moves, villages_of
from .powers import free_moves, intimidate_moves, play_free, power, village_costs, wants_light


WAIT = "wait"


def proceed(tx) -> None:
    """Run automatic steps until someone must decide or the game is won.

    Each step function returns the step that follows, None to run again, or ``WAIT`` when its
    standing decision (see ``decisions``) is awaited; the step reached is recorded by one "step"
    event when the flow stops, not at every transition."""
    state = tx.state
    step = state["turn"]["step"]
    while state["winner"] is None and not state["pending"]:
        before = state["turn"]["step"]
        nxt = STEPS[step](tx)
        if state["turn"]["step"] != before:  # a new turn began
            step = state["turn"]["step"]
        elif nxt is WAIT:  # the step's standing decision is awaited
            break
        elif nxt is not None:
            step = nxt
    if state["winner"] is None and step != state["turn"]["step"]:
        set_step(tx, step)


# ----- setup ------------------------------------------------------------------------------------
def _order(state: dict) -> list[int]:
    n, start = state["n"], state["start"]
    return [(start + k) % n for k in range(n)]


def _step_powers(tx):
    state = tx.state
    waiting = [s for s in _order(state) if power(state, s) is None]
    if waiting:
        ask(tx, waiting[0], "power")
        return None
    return "placement"


def _step_placement(tx):
    state = tx.state
    k = state["turn"]["placed"]
    if k == state["n"]:
        tx.emit("turn_started", {"seat": state["start"], "number": 1})
        return
    spec = RULES["start_placements"][k]
    ask(tx, _order(state)[k], "start", left=spec["members"], hexes=spec["hexes"], placed=[],
        resources=spec["resources"])


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


# ----- a turn -----------------------------------------------------------------------------------
def _seat(state):
    return state["turn"]["seat"]


def _step_start(tx):
    """An eliminated player re-enters with two members before anything else."""
    state = tx.state
    if on_board(state, _seat(state)) == 0:
        ask(tx, _seat(state), "reenter")
    return "score"


def _reentry_hexes(state: dict) -> list[int]:
    empty = [h for h in range(hex_count(state)) if population(state, h) == 0]
    return empty or list(range(hex_count(state)))


def _legal_reenter(state, d):
    return [{"type": "reenter", "hex": h} for h in _reentry_hexes(state)]


def _play_reenter(tx, d, move):
    resolve(tx)
    tx.emit("members_added", {"seat": d["seat"], "hex": move["hex"], "count": RULES["reentry_members"],
                              "why": "reentry"})


register("reenter", _legal_reenter, _play_reenter)


def _step_score(tx):
    state = tx.state
    villages = villages_of(state, _seat(state))
    if villages:
        tx.emit("score", {"seat": _seat(state), "points": villages, "why": "villages"})
    return "roll"


def _step_roll(tx):
    """Step 2: the two loose dice are rolled now, and the faces recorded in the event."""
    state = tx.state
    dice = [FACES[tx.rng.randbelow(len(FACES))] for _ in range(2)]
    tx.emit("rolled", {"seat": _seat(state), "dice": dice})
    if wants_light(state, _seat(state)):
        ask(tx, _seat(state), "light")
    return "react"


def _doubles(state) -> bool:
    rolled = state["turn"]["rolled"]
    return len(rolled) == 2 and rolled[0] == rolled[1]


def _step_react(tx):
    if _doubles(tx.state):
        react_to_doubles(tx)
    return "draw"


def _step_draw(tx):
    if _doubles(tx.state):
        draw_event(tx)
    return "actions"


def _step_actions(tx):
    state = tx.state
    if len(state["turn"]["actions"]) < RULES["actions_per_turn"] and state["turn"]["rolled"]:
        return WAIT
    return "intimidate"


def _legal_action(state, d):
    taken, faces = state["turn"]["actions"], sorted(set(state["turn"]["rolled"]))
    moves = [{"type": "act", "action": a, "face": f} for a in ACTIONS if a not in taken for f in faces]
    return moves + free_moves(state, d["seat"], "action")


def _play_action(tx, d, move):
    if move["type"] != "act":
        play_free(tx, d["seat"], move)
        return
    action = move["action"]
    column = [move["face"]] + tx.state["dice"][action][:-1]
    strength = strength_of(column)
    tx.emit("die_placed", {"seat": d["seat"], "action": action, "face": move["face"], "strength": strength})
    start_action(tx, d["seat"], action, strength)


register("action", _legal_action, _play_action)


def _step_intimidate(tx):
    state = tx.state
    if intimidate_moves(state, _seat(state)):
        ask(tx, _seat(state), "intimidate")
    return "conflict"


def _step_goals(tx):
    return WAIT


def build_moves(state: dict, seat: int) -> list[dict]:
    if state["supply"]["villages"] <= 0:
        return []
    out = []
    costs = [(c, save) for c, save in village_costs(state, seat) if affordable(state, seat, c)]
    if not costs:
        return []
    for h in occupied(state, seat):
        if state["village"][h] is None and not blocked(state, h, "build"):
            for _cost, save in costs:
                out.append({"type": "build", "hex": h} if save is None else {"type": "build", "hex": h, "save": save})
    seat_state = state["seats"][seat]
    if power(state, seat) == "hidden_village" and seat_state["built"] == 0:
        out.append({"type": "build_hidden"})
    return out


def _legal_goals(state, d):
    seat = d["seat"]
    return (complete_moves(state, seat) + build_moves(state, seat) + step5_moves(state, seat)
            + free_moves(state, seat, "goals") + [{"type": "end_turn"}])


def _play_goals(tx, d, move):
    seat, kind = d["seat"], move["type"]
    if kind == "complete":
        complete(tx, seat, move["card"])
    elif kind in ("build", "build_hidden"):
        costs = {save: c for c, save in village_costs(tx.state, seat)}
        pay(tx, seat, costs[move.get("save")])
        tx.emit("village_built", {"seat": seat, "hex": move.get("hex", -1)})
    elif kind in ("hunt", "altar", "knowledge"):
        play_step5(tx, seat, move)
    elif kind == "end_turn":
        n = tx.state["n"]
        tx.emit("turn_started", {"seat": (seat + 1) % n, "number": tx.state["turn"]["number"] + 1})
    else:
        play_free(tx, seat, move)


register("goals", _legal_goals, _play_goals)

STEPS = {
    "powers": _step_powers, "placement": _step_placement, "start": _step_start, "score": _step_score,
    "roll": _step_roll, "react": _step_react, "draw": _step_draw, "actions": _step_actions,
    "intimidate": _step_intimidate, "conflict": conflict.proceed, "goals": _step_goals,
}
