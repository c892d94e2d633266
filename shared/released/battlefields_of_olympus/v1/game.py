"""Battlefields of Olympus (Smartass Games, 2008): the engine contract for two players."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.engine import Game, Outcome, Tx

from . import flow, moves, views
from .content import Content, load
from .evolve import apply as apply_event
from .heuristic import evaluate
from .scoring import standings
from .state import is_over

C: Content = load()


WINNING_POINTS = C.number("winning_points")


class Options(Schema):
    target_points = fields.Integer(
        load_default=WINNING_POINTS, validate=validate.OneOf([WINNING_POINTS, 12, 20]),
        metadata={"description": "Land Trophy points that end the game at once (rulebook: 16)"},
    )


class BattlefieldsOfOlympus(Game):
    id = "battlefields-of-olympus"
    title = "Battlefields of Olympus"
    min_players = 2
    max_players = 2
    version = "1"
    Options = Options

    def setup(self, players: int, options: dict, rng) -> list[dict]:
        """Shuffle both decks, deal 4 Warriors each; seat 0 starts."""
        tx = Tx(self, {}, rng)
        first = 0
        tx.emit(
            "setup",
            {"players": players, "first": first, "target_points": options.get("target_points", WINNING_POINTS)},
            secret={"wdeck": rng.shuffled(C.warrior_deck()), "fdeck": rng.shuffled(C.fate_deck())},
        )
        for seat in range(players):
            flow.draw_warriors(tx, seat, C.number("starting_warriors"))
        flow.begin_turn(tx, first)
        return tx.events

    def apply(self, state: dict, event: dict) -> None:
        apply_event(state, event)

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        return moves.legal_moves(state, seat)

    def play(self, tx: Tx, seat: int, move: dict) -> None:
        moves.play(tx, seat, move)

    def to_act(self, state: dict) -> list[int]:
        if not state or is_over(state) or state.get("actor") is None:
            return []
        return [state["actor"]]

    def view(self, state: dict, seat: int | None) -> dict:
        return views.view(state, seat)

    def determinize(self, view: dict, seat: int, rng) -> dict:
        return views.determinize(view, seat, rng)

    def outcome(self, state: dict) -> Outcome | None:
        if not is_over(state):
            return None
        return standings(C, state)

    def heuristic(self, state: dict, seat: int) -> float:
        return evaluate(C, state, seat)
