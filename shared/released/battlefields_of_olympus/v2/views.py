"""What a seat may see, and full states consistent with it (for search bots).

Hidden: both decks' contents and order, the opponent's Warriors in hand (except those revealed
by Scout), the opponent's Actions and the opponent's Reserve pile (a seat sees its own Reserve,
the other only its size).
"""
from __future__ import annotations

from collections import Counter

from shared.canonical import clone
from shared.rng import Rng

from .content import Content, load

C: Content = load()


def _seat_view(seat_state: dict, mine: bool) -> dict:
    if mine:
        return clone(seat_state)
    return {
        "hand": {"count": len(seat_state["hand"])},
        "revealed": list(seat_state["revealed"]),
        "actions": {"count": len(seat_state["actions"])},
        "reserve": {"count": len(seat_state["reserve"])},
        "lands": list(seat_state["lands"]),
        "bonus": seat_state["bonus"],
    }


def view(state: dict, seat: int | None) -> dict:
    """What ``seat`` (None: a spectator) may see of ``state``, at any point of the log."""
    if not state:
        return {}
    out = {k: clone(v) for k, v in state.items() if k not in ("wdeck", "fdeck", "seats")}
    out["wdeck"] = {"count": len(state["wdeck"])}
    out["fdeck"] = {"count": len(state["fdeck"])}
    out["seats"] = [_seat_view(s, i == seat) for i, s in enumerate(state["seats"])]
    return out


def _table_cards(view: dict) -> tuple[list, list]:
    """Warriors and Actions lying face up in a battle or a reply window."""
    warriors, actions = [], []
    b = view.get("battle")
    if b:
        warriors += [w["card"] for w in b["line"]]
        actions += [a["card"] for a in b["actions"] + b["used"]]
    if view.get("chain"):
        actions += [a["card"] for a in view["chain"]["cards"]]
    return warriors, actions


def _unknown(full: list, known: list, rng: Rng) -> list:
    pool = Counter(full)
    pool.subtract(Counter(known))
    return rng.shuffled(sorted(pool.elements()))


def determinize(view: dict, seat: int, rng: Rng) -> dict:
    """A full state matching ``view``: unseen cards dealt at random where they may be."""
    state = clone(view)
    seats = state["seats"]
    table_w, table_a = _table_cards(view)
    known_w = list(view["wdisc"]) + table_w
    known_a = list(view["adisc"]) + list(view["land_pile"]) + list(view["ares_pile"]) + list(view["ares_disc"]) + table_a
    for i, s in enumerate(seats):
        known_w += [s["bonus"]] if s["bonus"] else []
        known_a += list(s["lands"])
        if i == seat:
            known_w += s["hand"] + s["reserve"]
            known_a += s["actions"]
        else:
            known_w += s["revealed"]
    warriors = _unknown(C.warrior_deck(), known_w, rng)
    fate = _unknown(C.fate_deck(), known_a, rng)
    unseen_actions = [c for c in fate if C.fate_kind(c) == "action"]
    for i, s in enumerate(seats):
        if i == seat:
            continue
        hidden = s["hand"]["count"] - len(s["revealed"])
        s["hand"] = sorted(s["revealed"] + [warriors.pop() for _ in range(hidden)])
        s["reserve"] = [warriors.pop() for _ in range(s["reserve"]["count"])]
        s["actions"] = sorted(unseen_actions.pop() for _ in range(s["actions"]["count"]))
        for card in s["actions"]:
            fate.remove(card)
    if len(warriors) != view["wdeck"]["count"] or len(fate) != view["fdeck"]["count"]:
        raise ValueError("view is inconsistent with the game's cards")
    state["wdeck"], state["fdeck"] = warriors, fate
    return state
