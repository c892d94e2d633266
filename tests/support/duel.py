"""Duel: a tiny game for testing the platform without any real game's rules.

Each of 2-4 players holds 3 cards (private) from a shuffled deck of 1..12. In each of 3 rounds
all players commit a card face down at once; the highest card scores a point (ties score for
nobody); then everyone draws one card. Most points wins. It exercises shuffles, private draws,
secret deck order and simultaneous hidden commitments.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.engine import Game, Outcome, ranks_from_scores, register
from shared.engine import commitments as c


class DuelOptions(Schema):
    rounds = fields.Integer(load_default=3, validate=validate.Range(1, 4))


class Duel(Game):
    id = "duel"
    title = "Duel (test game)"
    min_players = 2
    max_players = 4
    Options = DuelOptions

    def setup(self, players, options, rng):
        deck = rng.shuffled(list(range(1, 13)))
        hands = {str(s): deck[3 * s: 3 * s + 3] for s in range(players)}
        rest = deck[3 * players:]
        return [{
            "type": "dealt",
            "data": {"players": players, "rounds": options["rounds"]},
            "private": {s: {"hand": h} for s, h in hands.items()},
            "secret": {"deck": rest, "hands": hands},
        }]

    def apply(self, state, ev):
        d, t = ev["data"], ev["type"]
        if t == "dealt":
            state.update(players=d["players"], rounds=d["rounds"], round=1, deck=ev["secret"]["deck"],
                         hands=ev["secret"]["hands"], scores=[0] * d["players"],
                         bids=c.open_commitment(range(d["players"])), last=None, played=[])
        elif t == "committed":
            c.commit(state["bids"], d["seat"], ev["secret"]["card"])
        elif t == "revealed":
            for s, card in enumerate(d["cards"]):
                state["hands"][str(s)].remove(card)
            if d["winner"] is not None:
                state["scores"][d["winner"]] += 1
            state["last"] = d["cards"]
            state["played"].extend(d["cards"])
            state["round"] += 1
            state["bids"] = c.open_commitment(range(state["players"]))
        elif t == "drew":
            for s, card in ev["secret"]["cards"].items():
                state["hands"][s].append(card)
                state["deck"].remove(card)

    def seat_count(self, state):
        return state["players"]

    def to_act(self, state):
        if state["round"] > state["rounds"]:
            return []
        return c.waiting(state["bids"])

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "commit", "card": card} for card in sorted(state["hands"][str(seat)])]

    def play(self, tx, seat, move):
        tx.emit("committed", {"seat": seat}, secret={"card": move["card"]})
        st = tx.state
        if c.complete(st["bids"]):
            cards = [c.value(st["bids"], s) for s in range(st["players"])]
            top = max(cards)
            winner = cards.index(top) if cards.count(top) == 1 else None
            tx.emit("revealed", {"cards": cards, "winner": winner})
            if st["round"] <= st["rounds"] and len(st["deck"]) >= st["players"]:
                cards_drawn = {str(s): st["deck"][s] for s in range(st["players"])}
                tx.emit("drew", {}, private={s: {"card": v} for s, v in cards_drawn.items()},
                        secret={"cards": cards_drawn})

    def view(self, state, seat):
        return {
            "players": state["players"], "round": state["round"], "rounds": state["rounds"],
            "scores": state["scores"], "last": state["last"], "played": state["played"],
            "deck": {"count": len(state["deck"])},
            "hands": {s: (sorted(h) if seat is not None and s == str(seat) else {"count": len(h)})
                      for s, h in state["hands"].items()},
            "bids": c.public(state["bids"], seat),
        }

    def determinize(self, view, seat, rng):
        mine = view["hands"][str(seat)]
        known = set(mine) | set(view["played"])
        unknown = rng.shuffled([x for x in range(1, 13) if x not in known])
        hands = {}
        for s, h in view["hands"].items():
            if s == str(seat):
                hands[s] = list(h)
            else:
                hands[s] = [unknown.pop() for _ in range(h["count"])]
        deck = unknown[: view["deck"]["count"]]
        bids = dict(view["bids"])
        values = {}
        for s in bids.pop("committed"):
            values[str(s)] = bids["mine"] if s == seat else hands[str(s)][0]
        bids.pop("mine", None)
        bids["values"] = values
        return {"players": view["players"], "round": view["round"], "rounds": view["rounds"], "deck": deck,
                "hands": hands, "scores": list(view["scores"]), "bids": bids, "last": view["last"],
                "played": list(view["played"])}

    def outcome(self, state):
        if state["round"] <= state["rounds"]:
            return None
        return Outcome(ranks=ranks_from_scores(state["scores"]), scores=list(state["scores"]))

    def heuristic(self, state, seat):
        return state["scores"][seat] - max(s for i, s in enumerate(state["scores"]) if i != seat)


register(Duel())
