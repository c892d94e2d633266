"""Resources: gaining from the supply (limited to what is left), paying, trading, and the generic
"pay N resources of your choice" decision."""
from __future__ import annotations

from .content import RESOURCES
from .decisions import ask, register, resolve, update


def resources(state: dict, seat: int) -> dict:
    return state["seats"][seat]["res"]


def total(state: dict, seat: int) -> int:
    return sum(resources(state, seat).values())


def affordable(state: dict, seat: int, cost: dict) -> bool:
    have = resources(state, seat)
    return all(have[r] >= k for r, k in cost.items())


def gain(tx, seat: int, resource: str, amount: int, *, gathered: bool = False) -> int:
    """Take up to ``amount`` of ``resource`` from the supply; returns how many were taken."""
    amount = min(amount, tx.state["supply"][resource])
    if amount > 0:
        tx.emit("resources", {"seat": seat, "delta": {resource: amount}, "from": "supply",
                              "gathered": amount if gathered else 0})
    return amount


def pay(tx, seat: int, cost: dict) -> None:
    """Return ``cost`` to the supply."""
    delta = {r: -k for r, k in cost.items() if k}
    if delta:
        tx.emit("resources", {"seat": seat, "delta": delta, "from": "supply"})


def trade_moves(state: dict, seat: int) -> list[dict]:
    """Trader: 2 of one resource for 1 of another."""
    have = resources(state, seat)
    return [{"type": "trade", "give": g, "get": t} for g in RESOURCES if have[g] >= 2
            for t in RESOURCES if t != g and state["supply"][t] > 0]


def play_trade(tx, seat: int, move: dict) -> None:
    pay(tx, seat, {move["give"]: 2})
    gain(tx, seat, move["get"], 1)


# ----- "pay N resources of your choice" ---------------------------------------------------
def ask_payment(tx, seat: int, count: int, to: int | None) -> None:
    """Ask ``seat`` to pay ``count`` resources one at a time, to a player or the supply."""
    ask(tx, seat, "pay", left=count, to=to)


def _legal_pay(state, d):
    have = resources(state, d["seat"])
    return [{"type": "pay", "resource": r} for r in RESOURCES if have[r] > 0]


def _play_pay(tx, d, move):
    r = move["resource"]
    if d["to"] is None:
        pay(tx, d["seat"], {r: 1})
    else:
        tx.emit("resources", {"seat": d["to"], "delta": {r: 1}, "from": "seat", "from_seat": d["seat"]})
    if d["left"] > 1 and total(tx.state, d["seat"]) > 0:
        update(tx, left=d["left"] - 1)
    else:
        resolve(tx)


register("pay", _legal_pay, _play_pay)
