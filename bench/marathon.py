"""Marathon: a benchmark-only game whose matches last as long as asked (``rounds``), so that view
latency can be measured on a 5,000-event log (no real game's match is that long). Each round every
player commits a number 0-9 face down; the highest scores. The state keeps scores and the last 50
rounds, so it stays the size of a small real game's state."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.engine import Game, Outcome, ranks_from_scores, register
from shared.engine import commitments as c


class MarathonOptions(Schema):
    rounds = fields.Integer(load_default=2500, validate=validate.Range(1, 100_000))


class Marathon(Game):
    id = "marathon"
    title = "Marathon (benchmark game)"
    min_players = 2
    max_players = 2
    Options = MarathonOptions

    def setup(self, players, options, rng):
        return [{"type": "started", "data": {"players": players, "rounds": options["rounds"]}}]

    def apply(self, state, ev):
        d = ev["data"]
        if ev["type"] == "started":
            state.update(players=d["players"], rounds=d["rounds"], round=0, scores=[0] * d["players"],
                         history=[], bids=c.open_commitment(range(d["players"])))
        elif ev["type"] == "committed":
            c.commit(state["bids"], d["seat"], ev["secret"]["n"])
            if c.complete(state["bids"]):
                values = [c.value(state["bids"], s) for s in range(state["players"])]
                best = max(values)
                if values.count(best) == 1:
                    state["scores"][values.index(best)] += 1
                state["history"] = (state["history"] + [values])[-50:]
                state["round"] += 1
                state["bids"] = c.open_commitment(range(state["players"]))

    def to_act(self, state):
        return [] if state["round"] >= state["rounds"] else c.waiting(state["bids"])

    def legal_moves(self, state, seat):
        return [{"type": "commit", "n": n} for n in range(10)] if seat in self.to_act(state) else []

    def play(self, tx, seat, move):
        tx.emit("committed", {"seat": seat}, secret={"n": move["n"]})

    def view(self, state, seat):
        return {k: v for k, v in state.items() if k != "bids"} | {"bids": c.public(state["bids"], seat)}

    def outcome(self, state):
        if state["round"] < state["rounds"]:
            return None
        return Outcome(ranks=ranks_from_scores(state["scores"]), scores=state["scores"])


register(Marathon())
