"""Building exact situations for the rule tests: rigged decks, chosen hands, posted moves."""
from __future__ import annotations

from shared.engine import Tx
from shared.engine.events import make_event
from shared.games.fate_of_akalon import GAME
from shared.games.fate_of_akalon import flow
from shared.games.fate_of_akalon.content import DECKS, by_name
from shared.rng import FastRng


def cid(faction: str, name: str, n: int = 1) -> str:
    """The instance id of copy ``n`` of ``faction``'s card ``name``."""
    return f"{by_name(faction, name)}#{n}"


def _deck(faction: str, top: list[str]) -> list[str]:
    rest = [c for c in DECKS[faction] if c not in top]
    return list(top) + rest


def skirmish_events(factions: list[str], tops: list[list[str]] | None = None, seed: int = 0) -> list[dict]:
    """The events of a new game whose decks start with ``tops[s]``, the skirmish played out."""
    tops = tops or [[] for _ in factions]
    n = len(factions)
    tx = Tx(GAME, {}, FastRng(seed))
    tx.emit("setup", {"players": n, "factions": factions, "teams": [[0, 2], [1, 3]] if n == 4 else None},
            secret={"decks": [_deck(f, t) for f, t in zip(factions, tops)]})
    flow.advance(tx)
    return tx.events


def fresh(factions: list[str], tops: list[list[str]] | None = None, seed: int = 0) -> dict:
    """A new game whose decks start with ``tops[s]``; the skirmish is played out at once."""
    return GAME.fold(skirmish_events(factions, tops, seed))


def arrange(
    factions: list[str],
    hands: list[list[str]],
    attacker: int,
    *,
    decks: list[list[str]] | None = None,
    discards: list[list[str]] | None = None,
    cemeteries: list[list[str]] | None = None,
    outs: list[list[str]] | None = None,
    seed: int = 0,
) -> dict:
    """A game at the start of a battle with exactly these hands, deck tops, discards,
    cemeteries and out-of-play cards (everything else stays in the decks), ``attacker``
    attacking."""
    n = len(factions)
    decks = decks or [[] for _ in range(n)]
    discards = discards or [[] for _ in range(n)]
    cemeteries = cemeteries or [[] for _ in range(n)]
    outs = outs or [[] for _ in range(n)]
    setup = make_event(
        "setup", {"players": n, "factions": factions, "teams": [[0, 2], [1, 3]] if n == 4 else None},
        secret={"decks": [list(DECKS[f]) for f in factions]},
    )
    state = GAME.fold([setup])
    for s, z in enumerate(state["zones"]):
        placed = hands[s] + decks[s] + discards[s] + cemeteries[s] + outs[s]
        rest = [c for c in z["deck"] if c not in placed]
        z["hand"], z["discard"], z["cemetery"] = list(hands[s]), list(discards[s]), list(cemeteries[s])
        z["out"] = list(outs[s])
        z["deck"] = list(decks[s]) + rest
    state.update({"step": "next", "skirmish": [], "attacker": attacker})
    tx = Tx(GAME, state, FastRng(seed))
    flow.start_battle(tx)
    flow.advance(tx)
    return tx.state


def act(state: dict, seat: int, move: dict, seed: int = 0) -> dict:
    """Post ``move`` for ``seat`` through ``decide`` and fold its events."""
    events = GAME.decide(state, seat, move, FastRng(seed))
    return GAME.fold(events, state)


def act_events(state: dict, seat: int, move: dict, seed: int = 0) -> tuple[dict, list[dict]]:
    events = GAME.decide(state, seat, move, FastRng(seed))
    return GAME.fold(events, state), events


def play(state: dict, seat: int, card: str) -> dict:
    return act(state, seat, {"type": "play", "card": card})


def to_act(state: dict) -> list[int]:
    return GAME.to_act(state)


def decision(state: dict) -> dict | None:
    return state["pending"][-1] if state["pending"] else None


def moves(state: dict, seat: int) -> list[dict]:
    return GAME.legal_moves(state, seat)
