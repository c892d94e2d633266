"""Rise of Tribes as an engine ``Game``: metadata, options, setup and the contract methods."""
from __future__ import annotations

from marshmallow import Schema, fields

from shared.engine import Game, Outcome, Tx, ranks_from_scores
from . import decisions, flow
from .content import ACTIONS, DICE, EVENTS, TERRAINS, TRIBES, adjacency, goal_deck
from .heuristic import heuristic
from .reducer import apply
from .views import determinize, view


class Options(Schema):
    tribal_powers = fields.Boolean(load_default=False, metadata={
        "description": "Tribal Powers variant: each leader uses one of its two powers"})


class RiseOfTribes(Game):
    id = "rise-of-tribes"
    title = "Rise of Tribes"
    min_players = 2
    max_players = 4
    version = "1"
    Options = Options

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
        return decisions.legal_moves(state, seat)

    def play(self, tx, seat, move):
        decisions.play(tx, move)
        flow.proceed(tx)

    def to_act(self, state):
        if state.get("winner") is not None or not state:
            return []
        d = decisions.top(state)
        return [d["seat"]] if d else []

    def view(self, state, seat):
        return view(state, seat)

    def determinize(self, view_, seat, rng):
        return determinize(view_, seat, rng)

    def outcome(self, state):
        if state.get("winner") is None:
            return None
        scores = [s["score"] for s in state["seats"]]
        ranks = ranks_from_scores(scores)
        ranks = [1 if s == state["winner"] else max(2, r) for s, r in enumerate(ranks)]
        return Outcome(ranks=ranks, scores=scores, details={"winner": state["winner"],
                                                            "turns": state["turn"]["number"]})

    def heuristic(self, state, seat):
        return heuristic(state, seat)
