"""``apply``: how each event changes the state. Pure, total, no randomness.

One small handler per event type. Besides what an event states, one rule is applied here
because it holds "at any point": a village whose owner has no tribe members left in its hex is
destroyed at once (rulebook, Villages).
"""
from __future__ import annotations

from shared.engine.zones import reshuffle

from .content import RESOURCES, RULES, WIN


def _fresh_turn(seat: int, number: int, step: str, hexes: int) -> dict:
    return {"seat": seat, "number": number, "step": step, "rolled": [], "actions": [],
            "moved": [0] * hexes, "gathered": 0, "used": [], "fight": None, "fought": [], "placed": 0}


def _setup(state: dict, d: dict, ev: dict) -> None:
    n, hexes = d["n"], len(d["terrain"])
    secret = ev.get("secret") or {}
    decks = secret.get("goal_decks") or [[] for _ in range(n)]
    state.clear()
    state.update({
        "n": n, "options": d["options"], "start": d["start"], "terrain": d["terrain"],
        "pop": [[0] * n for _ in range(hexes)], "village": [None] * hexes,
        "supply": dict(RULES["resource_supply"], villages=RULES["village_supply"]),
        "dice": {a: list(f) for a, f in d["dice"].items()}, "loose": ["unrolled"] * 2,
        "seats": [{
            "tribe": d["tribes"][s], "power": None, "supply": RULES["members_per_player"],
            "res": {r: 0 for r in RESOURCES}, "score": 0, "deck": list(decks[s]), "progress": [],
            "done": [], "board_village": False, "built": 0,
        } for s in range(n)],
        "events": {"deck": list(secret.get("event_deck") or []), "discard": [],
                   "slots": [None] * RULES["event_slots"]},
        "turn": _fresh_turn(d["start"], 0, d["first_step"], hexes),
        "pending": [], "winner": None,
    })


def sweep_villages(state: dict) -> None:
    """Destroy every village with none of its owner's tribe members in its hex."""
    for h, owner in enumerate(state["village"]):
        if owner is not None and state["pop"][h][owner] == 0:
            state["village"][h] = None
            state["supply"]["villages"] += 1


def _members_added(state, d, ev):
    state["pop"][d["hex"]][d["seat"]] += d["count"]
    state["seats"][d["seat"]]["supply"] -= d["count"]


def _members_removed(state, d, ev):
    state["pop"][d["hex"]][d["seat"]] -= d["count"]
    state["seats"][d["seat"]]["supply"] += d["count"]
    moved = state["turn"]["moved"]
    moved[d["hex"]] = min(moved[d["hex"]], state["pop"][d["hex"]][state["turn"]["seat"]])
    sweep_villages(state)


def _members_moved(state, d, ev):
    seat, src, dst, k = d["seat"], d["from"], d["to"], d["count"]
    state["pop"][src][seat] -= k
    state["pop"][dst][seat] += k
    if d.get("marks"):
        state["turn"]["moved"][dst] += k
    sweep_villages(state)


def _resources(state, d, ev):
    seat = state["seats"][d["seat"]]
    source = d.get("from", "supply")
    for r, k in d["delta"].items():
        seat["res"][r] += k
        if source == "supply":
            state["supply"][r] -= k
        elif source == "seat":
            state["seats"][d["from_seat"]]["res"][r] -= k
        elif source == "card":
            stock = state["events"]["slots"][d["slot"]]["stock"]
            stock[r] -= k
    state["turn"]["gathered"] += d.get("gathered", 0)


def _score(state, d, ev):
    seat = state["seats"][d["seat"]]
    seat["score"] += d["points"]
    if seat["score"] >= WIN and state["winner"] is None:
        state["winner"] = d["seat"]


def _rolled(state, d, ev):
    state["turn"]["rolled"] = list(d["dice"])
    state["loose"] = []


def _die_changed(state, d, ev):
    state["turn"]["rolled"][d["index"]] = d["face"]


def _die_placed(state, d, ev):
    column = state["dice"][d["action"]]
    column.insert(0, d["face"])
    state["loose"].append(column.pop())
    state["turn"]["rolled"].remove(d["face"])
    state["turn"]["actions"].append(d["action"])


def _goals_drawn(state, d, ev):
    seat = state["seats"][d["seat"]]
    for card in d["cards"]:
        seat["deck"].remove(card)
    seat["progress"].extend(d["cards"])


def _goals_recycled(state, d, ev):
    seat = state["seats"][d["seat"]]
    for card in d["cards"]:
        seat["progress"].remove(card)
    seat["deck"].extend(d["cards"])


def _goal_completed(state, d, ev):
    seat = state["seats"][d["seat"]]
    seat["progress"].remove(d["card"])
    seat["done"].append(d["card"])


def _village_built(state, d, ev):
    seat = state["seats"][d["seat"]]
    if d["hex"] < 0:
        seat["board_village"] = True
    else:
        state["village"][d["hex"]] = d["seat"]
    seat["built"] += 1
    state["supply"]["villages"] -= 1


def _event_drawn(state, d, ev):
    state["events"]["deck"].remove(d["event"])
    state["events"]["slots"][d["slot"]] = {"id": d["event"], "stock": {}, "hex": None, "tokens": 0, "paid": 0}


def _event_changed(state, d, ev):
    state["events"]["slots"][d["slot"]].update(d["set"])


def _event_left(state, d, ev):
    slot = state["events"]["slots"][d["slot"]]
    for r, k in slot["stock"].items():
        state["supply"][r] += k
    state["events"]["discard"].append(slot["id"])
    state["events"]["slots"][d["slot"]] = None


def _events_reshuffled(state, d, ev):
    reshuffle(state["events"]["deck"], state["events"]["discard"], ev["secret"]["order"])


def _ask(state, d, ev):
    if d.get("replace"):
        state["pending"].pop()
    state["pending"].append(dict(d["decision"]))


def _update(state, d, ev):
    state["pending"][-1].update(d["set"])


def _resolved(state, d, ev):
    state["pending"].pop()


def _step(state, d, ev):
    state["turn"]["step"] = d["step"]


def _turn_set(state, d, ev):
    state["turn"].update(d["set"])


def _power_chosen(state, d, ev):
    state["seats"][d["seat"]]["power"] = d["power"]


def _used(state, d, ev):
    state["turn"]["used"].append(d["flag"])


def _turn_started(state, d, ev):
    state["turn"] = _fresh_turn(d["seat"], d["number"], "start", len(state["terrain"]))


def _conflict_resolved(state, d, ev):
    h = d["hex"]
    state["turn"]["fight"] = None
    state["turn"]["fought"].append(h)
    for seat, k in enumerate(d["removed"]):
        state["pop"][h][seat] -= k
        state["seats"][seat]["supply"] += k
    if d.get("raiders"):
        state["events"]["slots"][d["slot"]]["tokens"] -= d["raiders"]
    sweep_villages(state)


HANDLERS = {
    "setup": _setup, "members_added": _members_added, "members_removed": _members_removed,
    "members_moved": _members_moved, "resources": _resources, "score": _score, "rolled": _rolled,
    "die_changed": _die_changed, "die_placed": _die_placed, "goals_drawn": _goals_drawn,
    "goals_recycled": _goals_recycled, "goal_completed": _goal_completed,
    "village_built": _village_built, "event_drawn": _event_drawn, "event_changed": _event_changed,
    "event_left": _event_left, "events_reshuffled": _events_reshuffled, "ask": _ask,
    "update": _update, "resolved": _resolved, "step": _step, "turn_set": _turn_set,
    "power_chosen": _power_chosen, "used": _used, "turn_started": _turn_started,
    "conflict_resolved": _conflict_resolved,
}


def apply(state: dict, event: dict) -> None:
    handler = HANDLERS.get(event["type"])
    if handler is not None:
        handler(state, event.get("data") or {}, event)


def _stock_placed(state, d, ev):
    slot = state["events"]["slots"][d["slot"]]
    for r, k in d["stock"].items():
        slot["stock"][r] = slot["stock"].get(r, 0) + k
        state["supply"][r] -= k


def _stock_returned(state, d, ev):
    slot = state["events"]["slots"][d["slot"]]
    slot["stock"][d["resource"]] -= d["count"]
    state["supply"][d["resource"]] += d["count"]


HANDLERS["stock_placed"] = _stock_placed
HANDLERS["stock_returned"] = _stock_returned
