"""Fellowships of Fate as a pure engine module: the ``Game`` and its options.

Flow: each of 4 rounds is a hidden simultaneous Formation (one ``form`` move: four members),
an Explore phase of turns clockwise from the starting player (play a member declaring an ability,
or activate the upright legendary one, then resolve its icons one decision at a time), and a
Cleanup. Seats that cannot act pass automatically; the round ends when all pass.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.engine import Game, Outcome, make_event

from . import evolve, formation, moves, playout, scoring, views
from .content import content
from .heuristic import heuristic


class Options(Schema):
    starting_player = fields.Str(
        load_default="random",
        validate=validate.OneOf(["random", "seat0"]),
        metadata={"description": "who receives the round marker: drawn at random, or seat 0"},
    )


class FellowshipsOfFate(Game):
    id = "fellowships-of-fate"
    title = "Fellowships of Fate"
    min_players = 2
    max_players = 5
    # 3: the Formation is one move, ``form`` with the four members (was pick / unpick / confirm,
    # which could go on for ever); "2" is frozen in shared/released/fellowships_of_fate/v2
    version = "3"
    Options = Options
    # ISMCTS tuning (shared/bots/ismcts.py SearchParams): short heuristic-guided playouts, then the
    # heuristic's lead (in VP) at the cut-off; 300 iterations since engine 3, whose Formation is one
    # move of 126 (enough to try every hand and revisit the good ones); see
    # docs/games/fellowships_of_fate.md.
    search = {"iterations": 300, "playout_steps": 10, "c": 0.7, "scale": 2.0}

    def setup(self, players, options, rng):
        """Common Setup: a shuffled adventure deck with four cards face up, the relic deck (the
        Level 1 relics for the player count above the Level 2 ones) and the starting player."""
        c = content()
        adventures = rng.shuffled(list(c.adventures))
        level1 = rng.shuffled(list(c.level1))
        used = c.level1_by_players[players]
        level2 = rng.shuffled(list(c.level2))
        start = rng.randbelow(players) if options.get("starting_player", "random") == "random" else 0
        field = adventures[: c.field_size]
        return [make_event(
            "setup",
            {"players": players, "colours": list(c.colours[:players]), "start_seat": start,
             "field": field, "level1_relics": used},
            secret={"adventure_deck": adventures[c.field_size:], "relic_deck": level1[:used] + level2,
                    "relics_removed": level1[used:]},
        )]

    def apply(self, state, event):
        evolve.apply(state, event)

    def to_act(self, state):
        return moves.to_act(state)

    def legal_moves(self, state, seat):
        return moves.legal_moves(state, seat)

    def play(self, tx, seat, move):
        moves.play(tx, seat, move)

    def view(self, state, seat):
        return views.view(state, seat)

    def determinize(self, view, seat, rng):
        return views.determinize(view, seat, rng)

    def outcome(self, state) -> Outcome | None:
        return scoring.outcome(state)

    def seat_count(self, state: dict) -> int:
        return state["players"]

    def heuristic(self, state, seat):
        return heuristic(state, seat)

    def playout_move(self, state, seat, moves, rng):
        return playout.playout_move(state, seat, moves, rng)

    def rulebook_options(self, state, seat):
        return formation.rulebook_options(state, seat)

    def option_chosen(self, start, state, seat):
        return formation.option_chosen(start, state, seat)
