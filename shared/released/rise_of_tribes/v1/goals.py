"""Goal cards: the abilities completed Developments grant, the conditions of Achievements, and
drawing, recycling and completing them."""
from __future__ import annotations

from .board import hexes_with_status, largest_group, on_board
from .content import GOALS, TERRAINS
from .economy import affordable, pay


def abilities(state: dict, seat: int, kind: str) -> list[dict]:
    """The abilities of ``kind`` granted by ``seat``'s completed Developments."""
    out = []
    for card in state["seats"][seat]["done"]:
        ability = GOALS[card].get("ability")
        if ability and ability["kind"] == kind:
            out.append(ability)
    return out


def has_ability(state: dict, seat: int, kind: str) -> bool:
    return bool(abilities(state, seat, kind))


def boosted(state: dict, seat: int, action: str, numbers: dict) -> dict:
    """An action's numbers with the seat's Development boosts added."""
    out = dict(numbers)
    for ab in abilities(state, seat, "boost"):
        if ab["action"] == action:
            out[ab["field"]] += ab["amount"]
    return out


def villages_of(state: dict, seat: int) -> int:
    """Villages on the map plus a Hidden Village on the player board."""
    return state["village"].count(seat) + (1 if state["seats"][seat]["board_village"] else 0)


def condition_met(state: dict, seat: int, cond: dict) -> bool:
    kind = cond["kind"]
    if kind == "status_count":
        return len(hexes_with_status(state, seat, cond["status"])) >= cond["count"]
    if kind == "each_terrain":
        held = {state["terrain"][h] for h in hexes_with_status(state, seat, cond["status"])}
        return all(t in held for t in TERRAINS)
    if kind == "connected":
        return largest_group(state, hexes_with_status(state, seat, cond["status"])) >= cond["count"]
    if kind == "gathered":
        return state["turn"]["seat"] == seat and state["turn"]["gathered"] >= cond["count"]
    if kind == "villages":
        return villages_of(state, seat) >= cond["count"]
    if kind == "population":
        return on_board(state, seat) >= cond["count"]
    raise ValueError(f"unknown goal condition {kind}")


def can_complete(state: dict, seat: int, card: str) -> bool:
    goal = GOALS[card]
    if goal["kind"] == "development":
        return affordable(state, seat, goal["cost"])
    return condition_met(state, seat, goal["condition"])


def complete_moves(state: dict, seat: int) -> list[dict]:
    seen, out = set(), []
    for card in state["seats"][seat]["progress"]:
        if card not in seen and can_complete(state, seat, card):
            seen.add(card)
            out.append({"type": "complete", "card": card})
    return out


def complete(tx, seat: int, card: str) -> None:
    goal = GOALS[card]
    if goal["kind"] == "development":
        pay(tx, seat, goal["cost"])
    tx.emit("goal_completed", {"seat": seat, "card": card})
    tx.emit("score", {"seat": seat, "points": goal["points"], "why": card})


def draw(tx, seat: int, count: int) -> None:
    """Draw up to ``count`` Goal cards from the top of the seat's deck, face up."""
    cards = tx.state["seats"][seat]["deck"][:count]
    if cards:
        tx.emit("goals_drawn", {"seat": seat, "cards": cards})
