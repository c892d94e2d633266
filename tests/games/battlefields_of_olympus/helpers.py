"""Build exact table situations through the game's own events, then post moves."""
from __future__ import annotations

from collections import Counter

from shared.engine import make_event
from shared.games.battlefields_of_olympus import GAME
from shared.games.battlefields_of_olympus.content import ARES, load
from shared.rng import FastRng

C = load()


def _rest(full: list, used: list) -> list:
    pool = Counter(full)
    pool.subtract(Counter(used))
    assert all(v >= 0 for v in pool.values()), f"more copies than the game has: {used}"
    return sorted(pool.elements())


def table(*, hands=((), ()), actions=((), ()), reserves=((), ()), lands=((), ()), bonus=(None, None),
          land_pile=(), ares_pile=0, ares_disc=0, wtop=(), ftop=(), wdisc=(), turn=0, fate_rest=True,
          target_points=16) -> dict:
    """A state at the start of ``turn``'s turn with exactly these zones; unnamed cards in the decks.

    ``wtop``/``ftop`` are the next cards of the Warrior/Fate decks (in order); ``fate_rest=False``
    leaves nothing else in the Fate deck (an exhausted deck).
    """
    used_w = [c for z in hands + reserves for c in z] + [b for b in bonus if b] + list(wtop) + list(wdisc)
    wdeck = list(wtop) + _rest(C.warrior_deck(), used_w)
    used_f = ([c for z in actions + lands for c in z] + list(land_pile) + [ARES] * (ares_pile + ares_disc)
              + list(ftop))
    rest_f = _rest(C.fate_deck(), used_f)
    fdeck = list(ftop) + (rest_f if fate_rest else [])
    state = GAME.fold([
        make_event("setup", {"players": 2, "first": turn, "target_points": target_points},
                   secret={"wdeck": wdeck, "fdeck": fdeck}),
        make_event("turn_started", {"seat": turn}),
    ])
    for i in range(2):
        seat = state["seats"][i]
        seat["hand"] = sorted(hands[i])
        seat["actions"] = sorted(actions[i])
        seat["reserve"] = list(reserves[i])
        seat["lands"] = list(lands[i])
        seat["bonus"] = bonus[i]
    state["land_pile"] = list(land_pile)
    state["ares_pile"] = [ARES] * ares_pile
    state["ares_disc"] = [ARES] * ares_disc
    state["wdisc"] = list(wdisc)
    if not fate_rest:
        state["adisc"] = [c for c in rest_f if C.fate_kind(c) == "action"]
    return state


def play(state: dict, seat: int, move: dict, seed: int = 0) -> tuple[dict, list]:
    """Post ``move`` for ``seat`` through ``decide`` and fold its events; returns (state, events)."""
    events = GAME.decide(state, seat, move, FastRng(seed))
    return GAME.fold(events, state), events


def run(state: dict, *steps: tuple[int, dict]) -> tuple[dict, list]:
    """Play several (seat, move) steps in a row; returns the final state and all events."""
    log = []
    for seat, move in steps:
        state, events = play(state, seat, move)
        log += events
    return state, log


def types(events: list) -> list[str]:
    return [e["type"] for e in events]


def legal(state: dict, seat: int) -> list[dict]:
    return GAME.legal_moves(state, seat)


W = {"A": "archers", "H": "heavy_infantry", "C": "cavalry", "P": "spearmen", "S": "swordsmen"}


def warrior(move_card: str, source: str = "hand") -> dict:
    return {"type": "play_warrior", "card": move_card, "from": source}


PASS = {"type": "pass"}
NO = {"type": "no_response"}
BATTLE = {"type": "battle"}
