"""Arkon (Hill Gaming Company, 2018): bid for clans; four different or four alike win."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.engine import Game, Outcome, Tx
from shared.rng import Rng

from . import moves, scoring, views
from .content import RULES, deck_list, promo_ids, role_ids
from .evolve import apply
from .heuristic import heuristic


class Options(Schema):
    # engine 4: each gold-bordered card on its own (Savin is a Designer Tier card of its own);
    # engines 1-3 took one boolean for both, and still do (shared/released/arkon)
    promo_cards = fields.List(
        fields.String(validate=validate.OneOf(promo_ids())), load_default=list,
        error_messages={"invalid": "a list of promotional card ids (engine 4), e.g. [\"reinforcements\", \"savin\"]"},
        metadata={"description": "Gold-bordered promotional cards to add, each on its own: "
                                 "\"reinforcements\" (Reinforcements), \"savin\" (Savin, The Endless)."})
    roles = fields.Boolean(load_default=False, metadata={
        "description": "Deal each player one role card at random (Iverion, Kala, Nara, Vale)."})


class Arkon(Game):
    id = "arkon"
    title = "Arkon"
    min_players = 2
    max_players = 4
    version = "4"  # 2: a bid is one face-down placement (pick/unpick/place); one exchange event
    # 3: a card put back cannot be picked again for that bid; the state remembers what a seat saw privately
    # 4: a bid is one move (a subset of the hand); the owner picks lost-bid cards to discard over
    #    the hand limit; Iverion looks at a lone card; Savin is its own promo_cards option
    Options = Options
    #: ISMCTS tuning (``shared.bots.ismcts.SearchParams``): a random Arkon playout mostly shuffles
    #: cards in and out of bids, so playouts stop after two moves and the heuristic judges; a
    #: typical lead between two seats is 2 to 6 heuristic points, hence ``scale`` 3. Every bid
    #: and response window passes through all seats, so with opponents branching in the tree the
    #: budget drowns in their moves (at 4 players 0 wins in 13 against greedy at 1,000
    #: iterations); opponents modelled as one-ply greedy leave it to the searcher's own choices.
    #: A bid is one move per part of the hand (up to 256): each walk samples 16 of them.
    search = {"iterations": 300, "playout_steps": 2, "c": 0.7, "scale": 3.0, "opponents": "greedy",
              "sample_moves": 16}

    def check_options(self, players: int, options: dict) -> None:
        promos = options["promo_cards"]
        if len(set(promos)) != len(promos):
            raise ValueError(f"invalid options: promo_cards names a card twice: {promos}")
        options["promo_cards"] = sorted(promos)

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
