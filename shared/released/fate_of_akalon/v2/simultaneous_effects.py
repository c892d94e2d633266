"""Simultaneous Effects: cards whose text triggers at the same moment.

A *round* lists, per seat in clockwise order from the attacker, the cards triggered together
(``[[seat, [[card, on], ...]], ...]``). The first seat with cards resolves one of them at a
time (choosing the order when it has different cards), then the next seat; a round completes
when every listed card has fired. The step that opened the round then looks again, so effects
that arose meanwhile (cards played while resolving) make a further round. Every fired card is
remembered for the battle: no card's effect triggers twice in one battle.
"""
from __future__ import annotations

from shared.engine.game import Tx

from .card_text import distinct, enqueue_card
from .combat_values import active_text
from .table import clockwise_from


def start_round(tx: Tx, found: dict[int, list[list]]) -> bool:
    """Open a round for the triggered ``found[seat] = [[card, on], ...]``; False if empty."""
    order = clockwise_from(tx.state, tx.state["attacker"])
    todo = [[s, found[s]] for s in order if found.get(s)]
    if not todo:
        return False
    tx.emit("rounds", {"todo": todo})
    return True


def waiting(state: dict) -> tuple[int, list[list]]:
    """The seat whose triggered cards resolve now, and those cards."""
    seat, items = state["rounds"][0]
    return seat, items


def choices(state: dict) -> list[str]:
    """The distinct cards the resolving seat may resolve next."""
    _, items = waiting(state)
    return distinct([c for c, _ in items])


def step(tx: Tx) -> None:
    """Fire the next triggered card, or ask its owner which goes first."""
    seat, items = waiting(tx.state)
    if len(choices(tx.state)) == 1:
        fire(tx, seat, items[0][0])
    else:
        tx.emit("push", {"decision": {"seat": seat, "kind": "order"}})


def fire(tx: Tx, seat: int, cid: str) -> None:
    """Resolve ``cid``'s triggered text. An **After all cards are played** card is still on
    the battlefield, so an opposing silencer there ignores it. Defeated, Victorious and
    Cemetery texts fire after every card has left the battlefield, the silencers included: a
    silencer that has left silences nothing, so they always resolve."""
    _, items = waiting(tx.state)
    on = next(o for c, o in items if c == cid)
    tx.emit("triggered", {"seat": seat, "card": cid, "on": on})
    if on == "after_all" and cid not in active_text(tx.state):
        return
    enqueue_card(tx, cid, seat, on)
