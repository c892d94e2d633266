"""The decisions a seat can face, their legal moves, and carrying a chosen move out.

Decision kinds (top of ``state["pending"]``):

* ``attacker`` — the skirmish loser names the first attacker: ``choose_attacker {seat}``; in
  the 4-player game either member of the losing team may answer (``seats`` lists both);
* ``play`` — the seat's card for this battle: ``play {card}``;
* ``order`` — which of its simultaneously triggered cards resolves next: ``resolve {card}``;
* ``stack`` — which victorious card goes on top of its discard next: ``stack {card}``;
* ``effect`` — a choice asked by card text (see ``card_text``): ``play {card}``, ``target
  {seat}``, ``recover {card}``, ``use`` or ``pass``.

Copies of a card are interchangeable, so each card *kind* is listed once.
"""
from __future__ import annotations

from shared.engine.game import Tx

from . import card_areas, card_text, flow, simultaneous_effects
from .card_text import distinct
from .table import alive_seats


def deciders(decision: dict) -> list[int]:
    """The seats that may answer ``decision`` (any one of them answers it for all)."""
    return list(decision.get("seats") or [decision["seat"]])


def to_act(state: dict) -> list[int]:
    if not state or state.get("step") == "over" or not state.get("pending"):
        return []
    return deciders(state["pending"][-1])


def legal_moves(state: dict, seat: int) -> list[dict]:
    if seat not in to_act(state):
        return []
    d = state["pending"][-1]
    k = d["kind"]
    if k == "attacker":
        return [{"type": "choose_attacker", "seat": s} for s in alive_seats(state)]
    if k == "play":
        return [{"type": "play", "card": c} for c in distinct(state["zones"][seat]["hand"])]
    if k == "order":
        return [{"type": "resolve", "card": c} for c in simultaneous_effects.choices(state)]
    if k == "stack":
        return [{"type": "stack", "card": c} for c in distinct(card_areas.field_cards(state, seat))]
    return card_text.decision_moves(state, d)


def play(tx: Tx, seat: int, move: dict) -> None:
    d = tx.state["pending"][-1]
    tx.emit("pop")
    k = d["kind"]
    if k == "attacker":
        flow.first_attacker_chosen(tx, move["seat"])
    elif k == "play":
        card_text.play_card(tx, seat, move["card"], "hand")
    elif k == "order":
        simultaneous_effects.fire(tx, seat, move["card"])
    elif k == "stack":
        card_areas.move(tx, seat, [move["card"]], "field", "discard")
    else:
        card_text.answer(tx, d, move)
    flow.advance(tx)
