"""Pending decisions: the small choices a multi-step rule asks of one seat (``ask``), and the
kinds the card texts ask: Change of Fate, Thievery, the Sabotage payment (the roles register
theirs in ``roles.py``).

Each kind lists its moves from the state and the decision (``moves``) and turns the chosen move
into events (``answer``). A decision is popped (``answered``) before its consequences are
emitted, so a consequence may push a decision of its own.
"""
from __future__ import annotations

from shared.engine import Tx
from shared.engine.pending import DecisionKinds

from .content import CARDS, without
from .general_rules import discard, draw, move_cards

KINDS = DecisionKinds()
kind = KINDS.register
moves = KINDS.moves
answer = KINDS.answer


def ask(tx: Tx, seat: int, kind: str, **params) -> None:
    """Push a pending decision for ``seat``."""
    tx.emit("asked", {"seat": seat, "kind": kind, **params})


def answered(tx: Tx) -> None:
    tx.emit("answered")


def each(type_: str, cards) -> list[dict]:
    """One move of ``type_`` per distinct card."""
    return [{"type": type_, "card": c} for c in sorted(set(cards))]


# ----- Change of Fate: discard up to N, then draw that many plus one ---------------------------
def _cycle_moves(s, d):
    hand = s["hands"][d["seat"]]
    picks = each("discard", hand) if len(d["chosen"]) < d["max"] else []
    return picks + [{"type": "done"}]


def _cycle_answer(tx, d, move):
    seat = d["seat"]
    if move["type"] == "discard":
        discard(tx, seat, [move["card"]], "change_of_fate")
        tx.emit("chose", {"seat": seat, "card": move["card"]})
        if len(tx.state["pending"][-1]["chosen"]) < d["max"] and tx.state["hands"][seat]:
            return
    n = len(tx.state["pending"][-1]["chosen"]) + d["bonus"]
    answered(tx)
    draw(tx, seat, n)


kind("cycle", _cycle_moves, _cycle_answer)


# ----- Thievery: take one card from the hand you looked at -------------------------------------
def _steal_moves(s, d):
    return each("take", s["hands"][d["target"]])


def _steal_answer(tx, d, move):
    answered(tx)
    move_cards(tx, d["target"], d["seat"], [move["card"]], "chosen")


kind("steal", _steal_moves, _steal_answer)


# ----- Sabotage: pay exactly N influence, one card at a time, or refuse ------------------------
def can_make(values: list[int], target: int) -> bool:
    """Whether some of ``values`` sum to exactly ``target``."""
    reach = {0}
    for v in values:
        reach |= {r + v for r in reach if r + v <= target}
    return target in reach


def payable(hand: list[str], chosen: list[str], cost: int) -> list[str]:
    """Cards that can be added to ``chosen`` and still be completed to exactly ``cost``."""
    left = without(hand, chosen)
    need = cost - sum(CARDS[c].influence for c in chosen)
    out = []
    for c in sorted(set(left)):
        v = CARDS[c].influence
        if 0 < v <= need and can_make([CARDS[x].influence for x in without(left, [c])], need - v):
            out.append(c)
    return out


def _pay_moves(s, d):
    cards = payable(s["hands"][d["seat"]], d["chosen"], d["cost"])
    return each("pay", cards) + [{"type": "refuse"}]


def _pay_answer(tx, d, move):
    seat = d["seat"]
    if move["type"] == "refuse":
        answered(tx)
        tx.emit("sabotage_refused", {"seat": seat, "saboteur": d["saboteur"]})
        return
    tx.emit("chose", {"seat": seat, "card": move["card"], "shown_in_hand": True})
    chosen = list(tx.state["pending"][-1]["chosen"])
    if sum(CARDS[c].influence for c in chosen) == d["cost"]:
        answered(tx)
        tx.emit("sabotage_paid", {"seat": seat, "cards": chosen})


kind("sabotage_pay", _pay_moves, _pay_answer)
