"""The decisions a seat can face, their legal moves, and carrying a chosen move out.

Decision kinds (top of ``state["pending"]``):

* ``attacker`` — the skirmish loser names the first attacker: ``choose_attacker {seat}``;
* ``play`` — the seat's card for this battle: ``play {card}``;
* ``order`` — which of its simultaneously triggered cards resolves next: ``resolve {card}``;
* ``stack`` — which victorious card goes on top of its discard next: ``stack {card}``;
* ``effect`` — a choice asked by card text (see ``effects``): ``play {card}``, ``target
  {seat}``, ``recover {card}``, ``use`` or ``pass``.

Copies of a card are interchangeable, so each card *kind* is listed once.
"""
from __future__ import annotations

from shared.engine.game import Tx

from . import effects, flow, piles, triggers
from .effects import distinct
from .table import alive_seats


def legal_moves(state: dict, seat: int) -> list[dict]:
    pending = state.get("pending")
    if not pending or state.get("step") == "over":
        return []
    d = pending[-1]
    if d["seat"] != seat:
        return []
    k = d["kind"]
    if k == "attacker":
        return [{"type": "choose_attacker", "seat": s} for s in alive_seats(state)]
    if k == "play":
        return [{"type": "play", "card": c} for c in distinct(state["zones"][seat]["hand"])]
    if k == "order":
        return [{"type": "resolve", "card": c} for c in triggers.choices(state)]
    if k == "stack":
        return [{"type": "stack", "card": c} for c in distinct(piles.field_cards(state, seat))]
    return effects.decision_moves(state, d)


def play(tx: Tx, seat: int, move: dict) -> None:
    d = tx.state["pending"][-1]
    tx.emit("pop")
    k = d["kind"]
    if k == "attacker":
        flow.first_attacker_chosen(tx, move["seat"])
    elif k == "play":
        effects.play_card(tx, seat, move["card"], "hand")
    elif k == "order":
        triggers.fire(tx, seat, move["card"])
    elif k == "stack":
        piles.move(tx, seat, [move["card"]], "field", "discard")
    else:
        effects.answer(tx, d, move)
    flow.advance(tx)
