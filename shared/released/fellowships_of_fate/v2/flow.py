"""What happens between decisions: impossible icons, the end of a turn with its check for
interruption, seats that must pass, the end of the Explore phase, Cleanup and the end of the game.

``awaiting`` is the one definition of "a decision is pending"; ``advance`` runs automatic steps
until it holds (or the game is over), so every state a move leaves waits on somebody.
"""
from __future__ import annotations

from shared.engine import commitments

from . import abilities, explore
from .content import content
from .scoring import final_result


def awaiting(state: dict) -> list[int]:
    """Seats whose decision the game waits for now (empty while an automatic step is due)."""
    phase = state.get("phase")
    if phase == "formation":
        return commitments.waiting(state["formation"])
    turn = state.get("turn")
    if phase != "explore" or turn is None:
        return []
    queue = turn["queue"]
    if queue is None:  # the start of a turn: play a member or activate the upright one
        return [turn["seat"]]
    if queue and abilities.step_options(state, turn["seat"], queue[0]):
        return [turn["seat"]]
    return []


def advance(tx) -> None:
    """Run everything that needs no decision; stops at the next decision or the end of the game."""
    state = tx.state
    if state["phase"] == "formation":
        if commitments.complete(state["formation"]):
            tx.emit("explore_begin", {"round": state["round"], "start_seat": state["start_seat"]})
        else:
            return
    while state["phase"] == "explore" and not awaiting(state):
        turn = state["turn"]
        if turn is None:
            _next_turn(tx)
            continue
        seat, queue = turn["seat"], turn["queue"]
        if queue:
            abilities.pass_impossible(tx, seat, queue[0])
            continue
        played = turn["played"]
        targets = (explore.interrupt_targets(state, name=explore.member_name(played), exclude=seat)
                   if played else [])
        tx.emit("turn_end", {"seat": seat, "played": played, "interrupted": targets})


def _next_turn(tx) -> None:
    """Seats that cannot act pass; the next that can takes its turn; when none can, the round ends."""
    state = tx.state
    seat = explore.next_actor(state, state["cursor"])
    for passing in explore.passing_seats(state, state["cursor"], seat):
        tx.emit("pass", {"seat": passing})
    if seat is not None:
        tx.emit("turn_begin", {"seat": seat})
    elif state["round"] >= content().rounds:
        tx.emit("game_end", final_result(state))
    else:
        tx.emit("round_end", {"round": state["round"] + 1, "start_seat": state["last_actor"]})
