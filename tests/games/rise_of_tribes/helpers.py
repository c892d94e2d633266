"""Helpers to build exact Rise of Tribes situations and post moves through decide + fold."""
from __future__ import annotations

from shared.canonical import clone
from shared.engine import registry
from shared.rng import FastRng, SeededRng

GAME = registry.get("rise-of-tribes")
FACE_INDEX = {"sun": 0, "moon": 2, "blank": 4}


class Dice:
    """An rng whose rolls are the given faces (one randbelow per die), then arbitrary."""

    def __init__(self, *faces):
        self.queue = [FACE_INDEX[f] for f in faces]
        self.fallback = FastRng(0)

    def randbelow(self, n):
        if self.queue and n == 6:
            return self.queue.pop(0)
        return self.fallback.randbelow(n)

    def shuffled(self, items):
        return list(items)


def fresh(players=2, powers=False, seed=0, terrain=None, tribes=None):
    """A game just set up (placements pending), optionally with a fixed terrain / tribes."""
    opts = GAME.validate_options(players, {"tribal_powers": powers})
    state = GAME.fold(GAME.setup(players, opts, SeededRng(b"test", seed)))
    if terrain is not None:
        state["terrain"] = list(terrain)
    if tribes is not None:
        for s, t in enumerate(tribes):
            state["seats"][s]["tribe"] = t
    return state


def place(state, pop: dict):
    """Put members on the map: ``{hex: {seat: count}}`` (members leave the seat's supply)."""
    for h, row in pop.items():
        for seat, k in row.items():
            state["pop"][h][seat] += k
            state["seats"][seat]["supply"] -= k
    return state


def at(state, seat, kind="action", step="actions", rolled=("blank", "sun"), **params):
    """Make it ``seat``'s turn at ``step`` with the decision ``kind`` pending."""
    state["turn"] = {"seat": seat, "number": 5, "step": step, "rolled": list(rolled), "actions": [],
                     "moved": [0] * len(state["terrain"]), "gathered": 0, "used": [], "fight": None,
                     "fought": [], "placed": state["n"]}
    standing = {"action": "actions", "goals": "goals"}
    state["pending"] = [] if standing.get(kind) == step else [{"seat": seat, "kind": kind, **params}]
    state["loose"] = []
    return state


def give(state, seat, **res):
    for r, k in res.items():
        state["seats"][seat]["res"][r] += k
        state["supply"][r] -= k
    return state


def power(state, seat, name):
    state["seats"][seat]["power"] = name
    return state


def develop(state, seat, *cards):
    for c in cards:
        if c in state["seats"][seat]["deck"]:
            state["seats"][seat]["deck"].remove(c)
        state["seats"][seat]["done"].append(c)
    return state


def hand(state, seat, *cards):
    """Goal cards in progress for ``seat`` (taken out of the deck)."""
    for c in cards:
        state["seats"][seat]["deck"].remove(c)
        state["seats"][seat]["progress"].append(c)
    return state


def activate(state, event_id, slot=0, **fields):
    state["events"]["deck"].remove(event_id)
    entry = {"id": event_id, "stock": {}, "hex": None, "tokens": 0, "paid": 0}
    entry.update(fields)
    state["events"]["slots"][slot] = entry
    return state


def play(state, seat, move, rng=None):
    """Post ``move`` through decide + fold; returns (new state, events)."""
    events = GAME.decide(state, seat, clone(move), rng or FastRng(1))
    return GAME.fold(events, state), events


def run(state, seat, *moves, rng=None):
    for m in moves:
        state, _ = play(state, seat, m, rng)
    return state


def legal(state, seat):
    return GAME.legal_moves(state, seat)


def types(state, seat):
    return {m["type"] for m in legal(state, seat)}


def decision(state):
    from shared.games.rise_of_tribes.moves import top

    return top(state)


def only_terrain(players, kind="lake"):
    hexes = {2: 9, 3: 12, 4: 15}[players]
    return [kind] * hexes
