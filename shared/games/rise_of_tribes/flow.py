"""What happens automatically between decisions: the turn's steps, driven until someone must
decide or the game is won.

Steps of the setup: ``powers`` (variant) -> ``placement`` (see ``setup``). Steps of a turn:
``start`` (re-entry after elimination) -> ``score`` (step 1) -> ``roll`` -> ``react`` -> ``draw``
(step 2) -> ``actions`` (step 3) -> ``intimidate`` -> ``conflict`` (step 4) -> ``goals`` (step 5).
"""
from __future__ import annotations

from . import actions, conflict, step5  # noqa: F401  (registers the decisions of steps 3-5)
from .board import hex_count, on_board, tribe_total
from .content import FACES, RULES
from .event_cards import draw_event, react_to_doubles
from .moves import ask, register, resolve, set_step
from .powers import offer_intimidate, wants_light
from .setup import step_placement, step_powers
from .villages import villages_of

WAIT = "wait"


def proceed(tx) -> None:
    """Run automatic steps until someone must decide or the game is won.

    Each step function returns the step that follows, None to run again, or ``WAIT`` when its
    standing decision (see ``moves``) is awaited; the step reached is recorded by one "step"
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


def _seat(state):
    return state["turn"]["seat"]


# ----- elimination -------------------------------------------------------------------------------
def _step_start(tx):
    """An eliminated player re-enters with two members before anything else."""
    state = tx.state
    if on_board(state, _seat(state)) == 0:
        ask(tx, _seat(state), "reenter")
    return "score"


def reentry_hexes(state: dict) -> list[int]:
    """Hexes with no tribe members (Invaders alone do not occupy a hex); any hex if none."""
    empty = [h for h in range(hex_count(state)) if tribe_total(state, h) == 0]
    return empty or list(range(hex_count(state)))


def _legal_reenter(state, d):
    return [{"type": "reenter", "hex": h} for h in reentry_hexes(state)]


def _play_reenter(tx, d, move):
    resolve(tx)
    tx.emit("members_added", {"seat": d["seat"], "hex": move["hex"], "count": RULES["reentry_members"],
                              "why": "reentry"})


register("reenter", _legal_reenter, _play_reenter)


# ----- steps 1 and 2 -----------------------------------------------------------------------------
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
    """On doubles the active events react first; a roll made while both slots held active
    events triggers no event, even if a card leaves on it."""
    state = tx.state
    if not _doubles(state):
        return "actions"
    slots_full = None not in state["events"]["slots"]
    react_to_doubles(tx)
    return "actions" if slots_full else "draw"


def _step_draw(tx):
    draw_event(tx)
    return "actions"


# ----- steps 3 to 5 ------------------------------------------------------------------------------
def _step_actions(tx):
    state = tx.state
    if len(state["turn"]["actions"]) < RULES["actions_per_turn"] and state["turn"]["rolled"]:
        return WAIT
    return "intimidate"


def _step_intimidate(tx):
    offer_intimidate(tx)
    return "conflict"


def _step_goals(tx):
    return WAIT


STEPS = {
    "powers": step_powers, "placement": step_placement, "start": _step_start, "score": _step_score,
    "roll": _step_roll, "react": _step_react, "draw": _step_draw, "actions": _step_actions,
    "intimidate": _step_intimidate, "conflict": conflict.proceed, "goals": _step_goals,
}
