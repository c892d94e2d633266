"""Building exact situations for the rule tests: a chosen field, decks and formations."""
from __future__ import annotations

from shared.engine import make_event, registry
from shared.games.fellowships_of_fate.content import content
from shared.rng import FastRng, SeededRng

GAME = registry.get("fellowships-of-fate")
C = content()


def setup_event(players: int, *, field=None, deck=None, relic_deck=None, start=0):
    """A setup event with a chosen field, adventure deck and relic deck (default: data order)."""
    field = list(field or ["giant_boar", "misty_ravine", "crystal_cave", "forgotten_well"])
    if deck is None:
        deck = [a for a in C.adventures if a not in field]
    used = C.level1_by_players[players]
    if relic_deck is None:
        relic_deck = list(C.level1[:used]) + list(C.level2)
    removed = [r for r in C.level1 if r not in relic_deck]
    return make_event(
        "setup",
        {"players": players, "colours": list(C.colours[:players]), "start_seat": start, "field": field,
         "level1_relics": used},
        secret={"adventure_deck": list(deck), "relic_deck": list(relic_deck), "relics_removed": removed},
    )


def act(state: dict, seat: int, move: dict):
    """``seat`` posts ``move`` through decide; returns the new state and the events."""
    events = GAME.decide(state, seat, move, FastRng(0))
    return GAME.fold(events, state), events


def form_move(state: dict, seat: int, hand: list[str]) -> dict:
    """The ``form`` move choosing ``hand``: its members in the order of the seat's members."""
    return {"type": "form", "members": [m for m in state["seats"][seat]["members"] if m in hand]}


def form(state: dict, hands: dict[int, list[str]]) -> dict:
    """Every seat forms its hand of four members."""
    for seat, hand in hands.items():
        state, _ = act(state, seat, form_move(state, seat, hand))
    return state


def explore(players: int, hands: dict[int, list[str]], **kw) -> dict:
    """A state at the first turn of round 1's Explore phase."""
    return form(GAME.fold([setup_event(players, **kw)]), hands)


def turn_seat(state: dict) -> int:
    return state["turn"]["seat"]


def step(state: dict, move: dict):
    """The seat whose turn it is posts ``move``."""
    return act(state, turn_seat(state), move)


def steps(state: dict, *moves: dict) -> dict:
    for move in moves:
        state, _ = step(state, move)
    return state


def play(member: str, ability: str, use: str = "member") -> dict:
    move = {"type": "play", "member": member, "ability": ability}
    if ability == "nameless":
        move["use"] = use
    return move


def gain(token: str) -> dict:
    return {"type": "gain", "token": token}


SKIP = {"type": "skip"}
ACTIVATE = {"type": "activate", "use": "member"}


def give(state: dict, seat: int, **tokens: int) -> dict:
    """Set a seat's tokens (a test shortcut for tokens gained on earlier turns)."""
    state["seats"][seat]["tokens"].update(tokens)
    return state


def moves(state: dict, seat: int | None = None) -> list[dict]:
    return GAME.legal_moves(state, turn_seat(state) if seat is None else seat)


def quick_move(state: dict) -> dict:
    """A fast way through a turn: play a member nameless (or activate), then skip every icon."""
    legal = moves(state)
    for m in legal:
        if m["type"] in ("skip", "activate") or (m["type"] == "play" and m["ability"] == "nameless"):
            return m
    return legal[0]


def finish_explore(state: dict) -> tuple[dict, list[dict]]:
    """Play quick moves until the Explore phase ends; returns the state and every event."""
    log = []
    round_no = state["round"]
    while state["phase"] == "explore" and state["round"] == round_no:
        state, events = step(state, quick_move(state))
        log.extend(events)
    return state, log


def random_walk(players: int, seed: int, *, eager: bool = False, salt: bytes = b"p"):
    """States and events of a random playout, move by move (setup drawn from ``salt`` and
    ``seed``); ``eager`` players rarely skip an icon."""
    state = GAME.fold(setup_events(players, seed, salt))
    rng = FastRng(seed)
    while GAME.outcome(state) is None:
        seat = rng.choice(GAME.to_act(state))
        legal = GAME.legal_moves(state, seat)
        if eager and len(legal) > 1 and rng.randbelow(10):
            legal = [m for m in legal if m["type"] != "skip"] or legal
        events = GAME.decide(state, seat, legal[rng.randbelow(len(legal))], rng)
        state = GAME.fold(events, state)
        yield state, events


def setup_events(players: int, seed: int, salt: bytes = b"p") -> list[dict]:
    return GAME.setup(players, GAME.validate_options(players, {}), SeededRng(salt + b"%d" % seed, "setup"))
