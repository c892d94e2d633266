"""Folding events into the state: every state change of the game is one of these events.

``apply`` copies what an event says; it never draws randomness and never decides anything.
Hidden facts travel in the event's hidden parts: deck orders in ``secret`` (setup, shuffles),
drawn cards in the drawer's ``private`` part. Apply takes drawn cards from the top of the
stored deck, so it never needs them.

Zone conventions: index 0 of ``deck`` and ``discard`` is the top; cards put on a discard go on
top one at a time, in the order listed (the last listed ends up topmost).
"""
from __future__ import annotations

from shared.engine.zones import reshuffle, take_top


def _setup(state, data, ev):
    n = data["players"]
    decks = ev["secret"]["decks"]
    state.clear()
    state.update({
        "players": n, "factions": list(data["factions"]), "teams": data.get("teams"),
        "zones": [{"deck": list(decks[s]), "hand": [], "discard": [], "cemetery": [], "out": [],
                   "revealed": []} for s in range(n)],
        "alive": [True] * n, "left": [], "step": "skirmish", "skirmish": list(range(n)),
        "attacker": None, "field": [], "battle": None, "battles": 0,
        "queue": [], "rounds": None, "pending": [], "result": None,
    })


def _shuffle(state, data, ev):
    z = state["zones"][data["seat"]]
    reshuffle(z["deck"], z["discard"], ev["secret"]["order"])


def _draw(state, data, ev):
    z = state["zones"][data["seat"]]
    z["hand"].extend(take_top(z["deck"], data["count"]))


def _reveal(state, data, ev):
    z = state["zones"][data["seat"]]
    z["revealed"].extend(take_top(z["deck"], len(data["cards"])))


def _flip(state, data, ev):
    for seat, cid in data["cards"]:
        take_top(state["zones"][seat]["deck"], 1)
        state["field"].append({"card": cid, "seat": seat})


def _play(state, data, ev):
    seat, cid = data["seat"], data["card"]
    state["zones"][seat][data["from"]].remove(cid)
    state["field"].append({"card": cid, "seat": seat})
    state["battle"]["played"][seat] += 1


def _move(state, data, ev):
    seat, cards = data["seat"], data["cards"]
    src, dst = data["from"], data["to"]
    if src == "field":
        gone = set(cards)
        state["field"] = [e for e in state["field"] if e["card"] not in gone]
    else:
        zone = state["zones"][seat][src]
        for c in cards:
            zone.remove(c)
    target = state["zones"][seat][dst]
    if dst == "discard":
        for c in cards:
            target.insert(0, c)
    else:
        target.extend(cards)


def _push(state, data, ev):
    state["pending"].append(dict(data["decision"]))


def _pop(state, data, ev):
    state["pending"].pop()


def _enqueue(state, data, ev):
    state["queue"][:0] = [dict(i) for i in data["items"]]


def _dequeue(state, data, ev):
    state["queue"].pop(0)


def _rounds(state, data, ev):
    state["rounds"] = data["todo"]


def _triggered(state, data, ev):
    for entry in state["rounds"]:
        if entry[0] == data["seat"]:
            entry[1] = [item for item in entry[1] if item[0] != data["card"]]
    state["rounds"] = [e for e in state["rounds"] if e[1]] or None
    state["battle"]["triggered"].append(data["card"])


def _step(state, data, ev):
    state.update(data)


def _battle(state, data, ev):
    state["attacker"] = data["attacker"]
    state["battles"] = data["n"]
    state["step"] = "play"
    state["battle"] = {
        "n": data["n"], "attacker": data["attacker"], "order": list(data["order"]), "turn": 0,
        "played": [0] * state["players"], "next": None, "triggered": [], "result": None,
    }


def _turn(state, data, ev):
    state["battle"]["turn"] += 1
    if "ask" in data:
        state["pending"].append({"seat": data["ask"], "kind": "play"})


def _fight(state, data, ev):
    state["battle"]["result"] = dict(data)
    state["step"] = "aftermath"


def _next_attacker(state, data, ev):
    state["battle"]["next"] = data["seat"]


def _leave(state, data, ev):
    for s in data["seats"]:
        state["alive"][s] = False
    state["left"].append(list(data["seats"]))


def _over(state, data, ev):
    state["step"] = "over"
    state["result"] = data["result"]
    state["pending"] = []


HANDLERS = {
    "setup": _setup, "shuffle": _shuffle, "draw": _draw, "reveal": _reveal, "flip": _flip,
    "play": _play, "move": _move, "push": _push, "pop": _pop, "enqueue": _enqueue,
    "dequeue": _dequeue, "rounds": _rounds, "triggered": _triggered, "step": _step,
    "battle": _battle, "turn": _turn, "fight": _fight, "next_attacker": _next_attacker,
    "leave": _leave, "over": _over,
}


def apply(state: dict, event: dict) -> None:
    """Fold one event into ``state`` in place."""
    HANDLERS[event["type"]](state, event.get("data") or {}, event)
