"""Fate of Akalon: Tribes as an engine ``Game``: options, setup and the contract's wiring."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.engine import Game, Outcome, Tx
from shared.rng import Rng

from . import evolve, flow, heuristic, moves, views
from .content import DECKS, FACTIONS
from .table import TEAMS_4P


class Options(Schema):
    factions = fields.List(
        fields.String(allow_none=True, validate=validate.OneOf(FACTIONS)),
        load_default=None, allow_none=True,
        metadata={"description": "faction per seat (elf, dwarf, orc, undead); null or missing = random"},
    )


class FateOfAkalon(Game):
    id = "fate-of-akalon"
    title = "Fate of Akalon: Tribes"
    min_players = 2
    max_players = 4
    # 3: play example 1 as written: a card an opponent plays after the Tactician has no card text,
    # Victorious and Defeated included, even once the Tactician has left; "2" is frozen in
    # shared/released/fate_of_akalon/v2
    version = "3"
    Options = Options
    # ISMCTS tuning (see docs/games/fate_of_akalon.md, "Search against greedy"): short playouts
    # (about one battle) cut off by the heuristic, whose units are cemetery points (a card is 0-8)
    search = {"iterations": 300, "playout_steps": 6, "c": 0.7, "scale": 5.0}

    def check_options(self, players: int, options: dict) -> None:
        chosen = options.get("factions")
        if chosen is None:
            return
        if len(chosen) != players:
            raise ValueError(f"factions lists {len(chosen)} seats for {players} players")
        named = [f for f in chosen if f is not None]
        if len(set(named)) != len(named):
            raise ValueError("each faction deck exists once: two seats cannot choose the same faction")

    def setup(self, players: int, options: dict, rng: Rng) -> list[dict]:
        chosen = list(options.get("factions") or [None] * players)
        free = [f for f in FACTIONS if f not in chosen]
        for s in range(players):
            if chosen[s] is None:
                chosen[s] = free.pop(rng.randbelow(len(free)))
        decks = [rng.shuffled(DECKS[f]) for f in chosen]
        tx = Tx(self, {}, rng)
        tx.emit("setup", {"players": players, "factions": chosen, "teams": TEAMS_4P if players == 4 else None},
                secret={"decks": decks})
        flow.advance(tx)
        return tx.events

    def apply(self, state: dict, event: dict) -> None:
        evolve.apply(state, event)

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        return moves.legal_moves(state, seat)

    def play(self, tx: Tx, seat: int, move: dict) -> None:
        moves.play(tx, seat, move)

    def to_act(self, state: dict) -> list[int]:
        return moves.to_act(state)

    def view(self, state: dict, seat: int | None) -> dict:
        return views.view(state, seat)

    def determinize(self, view: dict, seat: int, rng: Rng) -> dict:
        return views.determinize(view, seat, rng)

    def outcome(self, state: dict) -> Outcome | None:
        if state.get("step") != "over":
            return None
        return Outcome.from_json(state["result"])

    def seat_count(self, state: dict) -> int:
        return state["players"]

    def sides(self, state: dict) -> list[list[int]]:
        return state["teams"] or [[s] for s in range(state["players"])]

    def heuristic(self, state: dict, seat: int) -> float:
        return heuristic.heuristic(state, seat)
