"""Arkon (Hill Gaming Company, 2018): bid for clans; four different or four alike win."""
from __future__ import annotations

from marshmallow import Schema, fields

from shared.engine import Game, Outcome, Tx
from shared.rng import Rng

from . import moves, scoring, views
from .content import RULES, deck_list, role_ids
from .evolve import apply
from .heuristic import heuristic


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
    version = "3"  # 2: a bid is one face-down placement (pick/unpick/place); one exchange event
    # 3: a card put back cannot be picked again for that bid; the state remembers what a seat saw privately
    Options = Options
    #: ISMCTS tuning (``shared.bots.ismcts.SearchParams``): a random Arkon playout mostly shuffles
    #: cards in and out of bids, so playouts stop after two moves and the heuristic judges; a
    #: typical lead between two seats is 2 to 6 heuristic points, hence ``scale`` 3. Every bid
    #: and response window passes through all seats, so with opponents branching in the tree the
    #: budget drowns in their moves (at 4 players 0 wins in 13 against greedy at 1,000
    #: iterations); opponents modelled as one-ply greedy leave it to the searcher's own choices.
    search = {"iterations": 300, "playout_steps": 2, "c": 0.7, "scale": 3.0, "opponents": "greedy"}

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
        return scoring.outcome(state)

    def seat_count(self, state: dict) -> int:
        return state["players"]

    def heuristic(self, state: dict, seat: int) -> float:
        return heuristic(self, state, seat)
