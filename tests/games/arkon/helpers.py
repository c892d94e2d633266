"""Building exact Arkon situations and playing moves through ``decide`` + ``fold``."""
from __future__ import annotations

from shared.engine import registry
from shared.engine.priority import current
from shared.games.arkon.content import deck_counts
from shared.rng import FastRng

GAME = registry.get("arkon")


def table(hands, deck=(), *, turn=0, phase="action1", clans=None, discard=(), roles=None,
          promo=False):
    """A state with exactly these hands, deck (top first), clans in play and discard pile
    (``promo``: True for both promotional cards, or a list of their ids)."""
    n = len(hands)
    promos = ["reinforcements", "savin"] if promo is True else list(promo or [])
    options = GAME.validate_options(n, {"promo_cards": promos, "roles": roles is not None})
    setup = {
        "type": "setup",
        "data": {"players": n, "options": options, "first": turn, "roles": roles},
        "private": {str(i): {"hand": list(h)} for i, h in enumerate(hands)},
        "secret": {"deck": list(deck)},
    }
    state = GAME.fold([setup])
    state["phase"] = phase
    state["clans"] = [list(c) for c in clans] if clans else [[] for _ in range(n)]
    state["discard"] = list(discard)
    return state


def with_full_deck(state):
    """Put every card of the game that is nowhere else at the bottom of the deck (a state a seat
    could really face, so that ``determinize`` and the bots can work on it)."""
    rest = deck_counts(state["options"])
    for zone in [state["deck"], state["discard"], *state["hands"], *state["clans"]]:
        rest.subtract(zone)
    assert all(n >= 0 for n in rest.values()), "more copies than the game has"
    state["deck"] += sorted(rest.elements())
    return state


def act(state, seat, move, seed=0):
    """Post ``move`` for ``seat``; returns the new state and the events."""
    events = GAME.decide(state, seat, move, FastRng(seed))
    return GAME.fold(events, state), events


def play_all(state, *steps):
    """Play several ``(seat, move)`` steps; returns the state and all events."""
    out = []
    for seat, move in steps:
        state, events = act(state, seat, move)
        out += events
    return state, out


def pass_window(state):
    """Everyone still holding priority passes."""
    events = []
    while state["window"]:
        state, evs = act(state, current(state["window"]), {"type": "pass"})
        events += evs
    return state, events


def place_bid(state, seat, cards):
    """``seat`` bids ``cards`` face down, one move (a seat with an empty hand has placed its
    empty bid automatically)."""
    if not cards and seat not in GAME.to_act(state):
        return state, []
    return act(state, seat, {"type": "bid", "cards": sorted(cards)})


def of_type(events, type_):
    return [e for e in events if e["type"] == type_]


def moves(state, seat):
    return GAME.legal_moves(state, seat)
