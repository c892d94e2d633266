"""Arkon (Hill Gaming Company, 2018): bid for clans; four different or four alike win."""
from __future__ import annotations

from marshmallow import Schema, fields

from shared.engine import Game, Outcome, Tx
from shared.rng import Rng

from . import moves, views
from .cards import RULES, deck_list, role_ids
from .heuristic import heuristic
from .reducers import apply


class Options(Schema):
    promo_cards = fields.Boolean(load_default=False, metadata={
        "description": "Add the gold-bordered promotional cards Reinforcements and Savin, The Endless."})
    roles = fields.Boolean(load_default=False, metadata={
        "description": "Deal each player one role card at random (Iverion, Kala, Nara, Vale)."})


class Arkon(Game):
    id = "arkon"
    title = "Arkon"
    min_players = 2
    max_players = 4
    version = "1"
    Options = Options

    def setup(self, players: int, options: dict, rng: Rng) -> list[dict]:
        """Shuffle the deck, deal 5 cards each, pick the first player (and deal roles)."""
        deck = rng.shuffled(deck_list(options))
        first = rng.randbelow(players)
        roles = rng.sample(role_ids(), players) if options.get("roles") else None
        per = RULES["starting_hand"]
        hands = {seat: {"hand": deck[seat * per:(seat + 1) * per]} for seat in range(players)}
        return [{
            "type": "setup",
            "data": {"players": players, "options": dict(options), "first": first, "roles": roles},
            "private": {str(s): h for s, h in hands.items()},
            "secret": {"deck": deck[players * per:]},
        }]

    def apply(self, state: dict, event: dict) -> None:
        apply(state, event)

    def to_act(self, state: dict) -> list[int]:
        return moves.to_act(state)

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        return moves.legal(state, seat)

    def play(self, tx: Tx, seat: int, move: dict) -> None:
        moves.play(tx, seat, move)

    def view(self, state: dict, seat: int | None) -> dict:
        return views.view(state, seat)

    def determinize(self, view: dict, seat: int, rng: Rng) -> dict:
        return views.determinize(view, seat, rng)

    def outcome(self, state: dict) -> Outcome | None:
        winners = state.get("winners")
        if not winners:
            return None
        n = state["players"]
        return Outcome(
            ranks=[1 if s in winners else 2 for s in range(n)],
            scores=[1.0 if s in winners else 0.0 for s in range(n)],
            details={"clans": state["clans"]},
        )

    def heuristic(self, state: dict, seat: int) -> float:
        return heuristic(self, state, seat)
