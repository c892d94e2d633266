"""Pile: a two-player game of perfect information whose best move is known, for the judge's tests.

A pile of ``stones`` (options; 7 by default); players alternate taking 1 to 3 stones; whoever takes
the last stone wins. The mover wins exactly when the pile is not a multiple of 4, by leaving one.
Nothing is hidden, so ``determinize`` returns the view itself.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.engine import Game, Outcome


class PileOptions(Schema):
    stones = fields.Integer(load_default=7, validate=validate.Range(1, 40))


class Pile(Game):
    id = "pile"
    title = "Pile (test game)"
    min_players = 2
    max_players = 2
    Options = PileOptions

    def setup(self, players, options, rng):
        return [{"type": "piled", "data": {"stones": options["stones"]}}]

    def apply(self, state, ev):
        if ev["type"] == "piled":
            state.update(stones=ev["data"]["stones"], turn=0, winner=None)
        elif ev["type"] == "took":
            state["stones"] -= ev["data"]["n"]
            if state["stones"] == 0:
                state["winner"] = ev["data"]["seat"]
            state["turn"] = 1 - ev["data"]["seat"]

    def seat_count(self, state):
        return 2

    def to_act(self, state):
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "take", "n": n} for n in range(1, min(3, state["stones"]) + 1)]

    def play(self, tx, seat, move):
        tx.emit("took", {"seat": seat, "n": move["n"]})

    def view(self, state, seat):
        return dict(state)

    def determinize(self, view, seat, rng):
        return dict(view)

    def outcome(self, state):
        if state["winner"] is None:
            return None
        ranks = [1, 1]
        ranks[1 - state["winner"]] = 2
        return Outcome(ranks=ranks, scores=[int(s == state["winner"]) for s in range(2)])


PILE = Pile()
