"""Rulebook "Card abilities": how an ability (a row of icons) becomes steps, and how each step
resolves.

Every member, relic and sun-card ability is data (``content``); this module is the only
interpreter. An ability compiles to a queue of steps resolved left to right; each step may be
carried out or skipped, except a Cost: one that can be paid must be paid ("You must return all
tokens shown"), and one that cannot ends the turn at once.

Steps (plain JSON):

* ``{"op": "gain", "token": t}`` — gain one token of type t;
* ``{"op": "wild", "group": g | None}`` — gain one token of any type; wilds of one
  Token-of-a-kind box share a group and must all be of the first type chosen;
* ``{"op": "cost", "tokens": {...}}`` — return these tokens to the supply;
* ``{"op": "overcome"}`` — pay a compass card's cost and obtain it;
* ``{"op": "sun"}`` — obtain a sun card (Legendary Traveler of Fate) and resolve its ability;
* ``{"op": "excavate"}`` — obtain the top relic;
* ``{"op": "interrupt_all"}`` — turn every upright member without a Holy Shield sideways.
"""
from __future__ import annotations

from . import obtaining
from .content import content
from .explore import interrupt_targets
from .obtaining import field_cards

SKIP = {"type": "skip"}


def can_pay(tokens: dict, cost: dict) -> bool:
    return all(tokens.get(t, 0) >= n for t, n in cost.items())


def compile_steps(icons, tag: str) -> list[dict]:
    """The steps of an icon row; ``tag`` names the ability so Token-of-a-kind groups stay apart."""
    tokens = content().tokens
    out: list[dict] = []
    for i, icon in enumerate(icons):
        if isinstance(icon, str):
            out.append({"op": "gain", "token": icon} if icon in tokens else {"op": icon})
        elif "cost" in icon:
            out.append({"op": "cost", "tokens": dict(icon["cost"])})
        else:
            out.extend({"op": "wild", "group": f"{tag}#{i}"} for _ in icon["kind"])
    return out


def step_options(state: dict, seat: int, step: dict) -> list[dict]:
    """The ways to carry out ``step`` now (empty when it is impossible); ``moves`` adds ``skip``."""
    c = content()
    s = state["seats"][seat]
    op = step["op"]
    if op == "gain":
        return [{"type": "gain", "token": step["token"]}]
    if op == "wild":
        fixed = state["turn"]["kinds"].get(step.get("group") or "")
        return [{"type": "gain", "token": t} for t in ([fixed] if fixed else c.tokens)]
    if op == "cost":
        return [{"type": "pay"}] if can_pay(s["tokens"], step["tokens"]) else []
    if op == "overcome":
        return [
            {"type": "obtain", "card": card} for card in field_cards(state)
            if c.adventures[card].icon == "compass" and can_pay(s["tokens"], c.adventures[card].cost)
        ]
    if op == "sun":
        return [{"type": "obtain", "card": card} for card in field_cards(state) if c.adventures[card].icon == "sun"]
    if op == "excavate":
        return [{"type": "excavate"}] if state["relic_deck"] else []
    if op == "interrupt_all":
        return [{"type": "interrupt_all"}] if interrupt_targets(state) else []
    raise ValueError(f"unknown step {step!r}")


def may_skip(step: dict) -> bool:
    """Every icon may be left out except a Cost, which is paid when it can be."""
    return step["op"] != "cost"


def moves(state: dict, seat: int, step: dict) -> list[dict]:
    """The seat's legal moves at ``step``: the ways to carry it out, then ``skip`` where allowed."""
    return step_options(state, seat, step) + ([dict(SKIP)] if may_skip(step) else [])


def resolve(tx, seat: int, move: dict) -> None:
    """Carry out (or skip) the current step as ``move`` says, emitting its events."""
    state = tx.state
    step = state["turn"]["queue"][0]
    kind = move["type"]
    if kind == "skip":
        tx.emit("skip", {"seat": seat, "op": step["op"], "auto": False})
    elif kind == "gain":
        tx.emit("gain", {"seat": seat, "token": move["token"], "group": step.get("group")})
    elif kind == "pay":
        tx.emit("pay", {"seat": seat, "tokens": step["tokens"]})
    elif kind == "obtain":
        obtaining.obtain_from_field(tx, seat, move["card"], via=step["op"])
    elif kind == "excavate":
        obtaining.excavate(tx, seat, extra=False)
    elif kind == "interrupt_all":
        tx.emit("interrupt", {"seat": seat, "targets": interrupt_targets(state), "cause": "interrupt_all"})
    else:  # pragma: no cover - decide only passes listed moves
        raise ValueError(f"no step takes a {kind!r} move")


def pass_impossible(tx, seat: int, step: dict) -> None:
    """An impossible step is skipped; an unpayable Cost ends the turn instead."""
    if step["op"] == "cost":
        tx.emit("cost_unpaid", {"seat": seat})
    else:
        tx.emit("skip", {"seat": seat, "op": step["op"], "auto": True})
