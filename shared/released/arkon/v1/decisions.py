"""Pending decisions: the small choices a multi-step rule asks of one seat.

Each kind lists its moves from the state and the decision (``moves``) and turns the chosen move
into events (``answer``). A decision is popped (``answered``) before its consequences are
emitted, so a consequence may push a decision of its own.
"""
from __future__ import annotations

from collections import Counter

from shared.engine.pending import DecisionKinds

from .cards import CARDS
from .primitives import answered, discard, draw, move_cards
from .roles import end_iverion, nara_targets

KINDS = DecisionKinds()
kind = KINDS.register
moves = KINDS.moves
answer = KINDS.answer


def _each(type_: str, cards) -> list[dict]:
    return [{"type": type_, "card": c} for c in sorted(set(cards))]


def _without(cards: list[str], taken: list[str]) -> list[str]:
    rest = Counter(cards)
    rest.subtract(taken)
    return sorted(rest.elements())


# ----- Change of Fate: discard up to N, then draw that many plus one ---------------------------
def _cycle_moves(s, d):
    hand = s["hands"][d["seat"]]
    picks = _each("discard", hand) if len(d["chosen"]) < d["max"] else []
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
    return _each("take", s["hands"][d["target"]])


def _steal_answer(tx, d, move):
    answered(tx)
    move_cards(tx, d["target"], d["seat"], [move["card"]], "chosen")


kind("steal", _steal_moves, _steal_answer)


# ----- Iverion: one of the looked-at cards goes to the bottom ----------------------------------
def _bottom_moves(s, d):
    return _each("bottom", s["look"]["cards"])


def _bottom_answer(tx, d, move):
    answered(tx)
    seat = d["seat"]
    to_hand = len(tx.state["look"]["cards"]) - 1
    tx.emit("bottomed", {"seat": seat, "to_hand": to_hand}, private={seat: {"card": move["card"]}})
    end_iverion(tx)


kind("iverion_bottom", _bottom_moves, _bottom_answer)


# ----- Kala: add one card to the revealed bid -------------------------------------------------
def _kala_moves(s, d):
    return _each("add", s["hands"][d["seat"]]) + [{"type": "decline"}]


def _kala_answer(tx, d, move):
    answered(tx)
    if move["type"] == "add":
        tx.emit("kala_added", {"seat": d["seat"], "card": move["card"]})


kind("kala", _kala_moves, _kala_answer)


# ----- Sabotage: pay exactly N influence, one card at a time, or refuse ------------------------
def can_make(values: list[int], target: int) -> bool:
    """Whether some of ``values`` sum to exactly ``target``."""
    reach = {0}
    for v in values:
        reach |= {r + v for r in reach if r + v <= target}
    return target in reach


def payable(hand: list[str], chosen: list[str], cost: int) -> list[str]:
    """Cards that can be added to ``chosen`` and still be completed to exactly ``cost``."""
    left = _without(hand, chosen)
    need = cost - sum(CARDS[c].influence for c in chosen)
    out = []
    for c in sorted(set(left)):
        v = CARDS[c].influence
        if 0 < v <= need and can_make([CARDS[x].influence for x in _without(left, [c])], need - v):
            out.append(c)
    return out


def _pay_moves(s, d):
    cards = payable(s["hands"][d["seat"]], d["chosen"], d["cost"])
    return _each("pay", cards) + [{"type": "refuse"}]


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


# ----- Nara: discard a matching clan in play ---------------------------------------------------
def _nara_moves(s, d):
    owners = nara_targets(s, d["seat"], d["clan"])
    return [{"type": "destroy", "seat": o} for o in owners] + [{"type": "decline"}]


def _nara_answer(tx, d, move):
    answered(tx)
    if move["type"] == "destroy":
        tx.emit("clan_destroyed", {"owner": move["seat"], "clan": d["clan"], "by": "nara"})


kind("nara", _nara_moves, _nara_answer)


# ----- Vale: discard a card to draw a card -----------------------------------------------------
def _vale_moves(s, d):
    return _each("discard", s["hands"][d["seat"]]) + [{"type": "decline"}]


def _vale_answer(tx, d, move):
    answered(tx)
    if move["type"] == "discard":
        discard(tx, d["seat"], [move["card"]], "vale")
        draw(tx, d["seat"], 1)


kind("vale", _vale_moves, _vale_answer)
