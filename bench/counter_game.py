"""Counter: the one-move game of the move-cost benchmark (``bench/move_cost.py``), loaded into the
stack with ``GAME_MODULES=bench.counter_game``.

Two to four seats take turns; the only move is ``{"type": "add"}``, which adds one to a public
counter; the match ends when the counter reaches ``target`` (the seat that made the last move
wins). No chance, no hidden information: what it costs to move is the platform's cost alone, the
same game as the boardgame.io peer in ``bench/peer/counter.js``.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.engine import Game, Outcome, register


class CounterOptions(Schema):
    target = fields.Integer(load_default=20, validate=validate.Range(1, 10_000_000))


class Counter(Game):
    id = "counter"
    title = "Counter (benchmark game)"
    min_players = 2
    max_players = 4
    Options = CounterOptions

    def setup(self, players, options, rng):
        return [{"type": "started", "data": {"players": players, "target": options["target"]}}]

    def apply(self, state, ev):
        if ev["type"] == "started":
            state.update(players=ev["data"]["players"], target=ev["data"]["target"], count=0, last=None)
        elif ev["type"] == "added":
            state["count"] += 1
            state["last"] = ev["data"]["seat"]

    def seat_count(self, state):
        return state["players"]

    def to_act(self, state):
        return [] if state["count"] >= state["target"] else [state["count"] % state["players"]]

    def legal_moves(self, state, seat):
        return [{"type": "add"}] if seat in self.to_act(state) else []

    def play(self, tx, seat, move):
        tx.emit("added", {"seat": seat})

    def view(self, state, seat):
        return dict(state)

    def determinize(self, view, seat, rng):
        return dict(view)

    def outcome(self, state):
        if state["count"] < state["target"]:
            return None
        ranks = [1 if s == state["last"] else 2 for s in range(state["players"])]
        return Outcome(ranks=ranks, scores=[1 if s == state["last"] else 0 for s in range(state["players"])])


register(Counter())
