"""Rise of Tribes as an engine ``Game``: metadata, options, dealing the components, and the
contract methods."""
from __future__ import annotations

from marshmallow import Schema, fields

from ...engine import Game, Tx
from . import flow, moves
from .content import ACTIONS, DICE, EVENTS, TERRAINS, TRIBES, adjacency, goal_deck
from .evolve import apply
from .heuristic import heuristic, heuristics
from .scoring import outcome
from .views import determinize, view


class Options(Schema):
    tribal_powers = fields.Boolean(load_default=False, metadata={
        "description": "Tribal Powers variant: each leader uses one of its two powers"})


class RiseOfTribes(Game):
    id = "rise-of-tribes"
    title = "Rise of Tribes"
    min_players = 2
    max_players = 4
    version = "2"
    Options = Options
    # ISMCTS tuning (``shared.bots.ismcts.SearchParams``): no random playout — a decision is split
    # into many small moves, so random steps mostly add noise; the tree's leaf is scored by the
    # heuristic at once. ``scale`` 20: the 2-player lead is twice the strength difference (4 per
    # point), so a point is worth 0.62 and the reward still tells moves apart a few points ahead or
    # behind; ``c`` 0.2 matches that narrow spread of rewards. Opponents are modelled as one-ply
    # greedy (only the searcher's moves branch): with a turn split into many small moves, a tree
    # in which every opponent branches spends its budget on their steps (3 players: 19 of 40 at
    # 600 iterations with branching opponents, 11 of 12 at 200 with greedy ones). Measured in
    # docs/games/rise_of_tribes.md ("Search against greedy").
    search = {"iterations": 200, "playout_steps": 0, "c": 0.2, "scale": 20.0, "opponents": "greedy"}

    def setup(self, players, options, rng):
        hexes = len(adjacency(players))
        tiles = [t for t in TERRAINS for _ in range(players + 1)]
        assert len(tiles) == hexes
        data = {
            "n": players, "options": dict(options),
            "start": rng.randbelow(players),
            "terrain": rng.shuffled(tiles),
            "tribes": rng.sample(sorted(TRIBES), players),
            "dice": {a: list(DICE["start_on_each_action"]["value"]) for a in ACTIONS},
            "first_step": "powers" if options.get("tribal_powers") else "placement",
        }
        secret = {
            "goal_decks": [rng.shuffled(goal_deck(players)) for _ in range(players)],
            "event_deck": rng.shuffled(sorted(EVENTS)),
        }
        tx = Tx(self, {}, rng)
        tx.emit("setup", data, secret=secret)
        flow.proceed(tx)
        return tx.events

    def apply(self, state, event):
        apply(state, event)

    def legal_moves(self, state, seat):
        return moves.legal_moves(state, seat)

    def play(self, tx, seat, move):
        moves.play(tx, move)
        flow.proceed(tx)

    def to_act(self, state):
        if not state or state.get("winner") is not None:
            return []
        d = moves.top(state)
        return [d["seat"]] if d else []

    def view(self, state, seat):
        return view(state, seat)

    def determinize(self, view_, seat, rng):
        return determinize(view_, seat, rng)

    def outcome(self, state):
        return outcome(state)

    def seat_count(self, state: dict) -> int:
        return state["n"]

    def heuristic(self, state, seat):
        return heuristic(state, seat)

    def heuristics(self, state):
        return heuristics(state)
