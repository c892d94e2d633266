"""The rulebook's ACTION CARDS section, Cancel and Defeat: which Actions a seat may play in
reply to its opponent's Actions, and which it may not play at all while a defeater is active.

A reply window (the ``chain``) starts with one Action; players alternately reply to an active
opposing card with a card that cancels it (both leave play) or defeats it (it is voided while
the defeater stays active). A card whose defeater leaves play or is defeated is active again
(and defeats its own target again). While a seat's card is active, its opponent may not play
any Action that card defeats.
"""
from __future__ import annotations

from .content import Content
from .state import distinct


def settle(cards: list[dict]) -> None:
    """Set each card's ``status`` from the replies made so far: ``cancelled`` (left play),
    ``defeated`` (an active card defeats it) or ``active``.

    A defeater always comes after its target, so one pass from the last card settles all.
    """
    for i in range(len(cards) - 1, -1, -1):
        card = cards[i]
        if card["removed"]:
            card["status"] = "cancelled"
        elif any(c["target"] == i and c["effect"] == "defeat" and c["status"] == "active" for c in cards[i + 1:]):
            card["status"] = "defeated"
        else:
            card["status"] = "active"


def active_cards(state: dict) -> list[dict]:
    """Actions in play whose defeats still bind: the reply window and the current Warrior pair."""
    cards = list((state.get("battle") or {}).get("actions") or [])
    if state.get("chain"):
        cards += state["chain"]["cards"]
    return [c for c in cards if c["status"] == "active"]


def locked(content: Content, state: dict, seat: int, card: str) -> bool:
    """Whether an active opposing Action that defeats ``card`` forbids playing it."""
    return any(c["seat"] != seat and content.actions[c["card"]].can_defeat(card) for c in active_cards(state))


def reply_effect(content: Content, card: str, target: str) -> str | None:
    action = content.actions[card]
    if action.can_cancel(target):
        return "cancel"
    if action.can_defeat(target):
        return "defeat"
    return None


def reply_moves(content: Content, state: dict, seat: int) -> list[dict]:
    """Every reply the seat may make in the open window, then declining."""
    cards = state["chain"]["cards"]
    moves = []
    for card in distinct(state["seats"][seat]["actions"]):
        if not content.actions[card].counters or locked(content, state, seat, card):
            continue
        for i, target in enumerate(cards):
            if target["seat"] != seat and target["status"] == "active" and reply_effect(content, card, target["card"]):
                moves.append({"type": "respond", "card": card, "target": i})
    moves.append({"type": "no_response"})
    return moves
