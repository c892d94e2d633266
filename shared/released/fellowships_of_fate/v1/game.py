"""Fellowships of Fate as a pure engine module: setup, moves, turn order, views.

Flow: each of 4 rounds is a hidden simultaneous Formation (pick / unpick / confirm four members),
an Explore phase of turns clockwise from the starting player (play a member declaring an ability,
or activate the upright legendary one, then resolve its icons one decision at a time), and a
Cleanup. Seats that cannot act pass automatically; the round ends when all pass.
"""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from shared.engine import Game, Outcome, commitments, make_event

from . import abilities, evolve, scoring, table, views
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
    version = "1"
    Options = Options

    # ----- setup -------------------------------------------------------------------------
    def setup(self, players, options, rng):
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

    # ----- whose decision ------------------------------------------------------------------
    def to_act(self, state):
        phase = state.get("phase")
        if phase == "formation":
            return commitments.waiting(state["formation"])
        if phase == "explore" and state["turn"] is not None:
            return [state["turn"]["seat"]]
        return []

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "formation":
            return _formation_moves(state, seat)
        turn = state["turn"]
        if turn["queue"] is None:
            return _turn_start_moves(state, seat)
        step = turn["queue"][0]
        return abilities.step_options(state, seat, step) + [dict(abilities.SKIP)]

    # ----- moves ---------------------------------------------------------------------------
    def play(self, tx, seat, move):
        kind = move["type"]
        if kind in ("pick", "unpick"):
            tx.emit(kind, {"seat": seat}, private={seat: {"member": move["member"]}})
        elif kind == "confirm":
            tx.emit("confirm", {"seat": seat})
        elif kind == "play":
            tx.emit("play_member", {"seat": seat, "member": move["member"], "ability": move["ability"],
                                    "use": move.get("use")})
        elif kind == "activate":
            index = table.upright(tx.state, seat)[0]
            member = tx.state["seats"][seat]["play"][index]["id"]
            tx.emit("activate", {"seat": seat, "member": member, "index": index, "use": move["use"]})
        else:
            abilities.resolve(tx, seat, move)
        advance(tx)

    # ----- views ---------------------------------------------------------------------------
    def view(self, state, seat):
        return views.view(state, seat)

    def determinize(self, view, seat, rng):
        return views.determinize(view, seat, rng)

    def outcome(self, state) -> Outcome | None:
        return scoring.outcome(state)

    def heuristic(self, state, seat):
        return heuristic(state, seat)


def _formation_moves(state: dict, seat: int) -> list[dict]:
    s = state["seats"][seat]
    size = content().hand_size
    moves = []
    if len(s["draft"]) < size:
        moves += [{"type": "pick", "member": m} for m in s["members"] if m not in s["draft"]]
    moves += [{"type": "unpick", "member": m} for m in s["draft"]]
    if len(s["draft"]) == size:
        moves.append({"type": "confirm"})
    return moves


def _turn_start_moves(state: dict, seat: int) -> list[dict]:
    """2-b when a member stands upright (activate it), else 2-a (play one, declaring an ability)."""
    s = state["seats"][seat]
    up = table.upright(state, seat)
    if up:
        member = s["play"][up[0]]["id"]
        return [{"type": "activate", "use": use} for use in table.ability_sources(state, seat, member, "legendary")]
    moves = []
    legendary_allowed = not table.anti_legendary_cleric(state, seat)
    for member in s["hand"]:
        for use in table.ability_sources(state, seat, member, "nameless"):
            moves.append({"type": "play", "member": member, "ability": "nameless", "use": use})
        if legendary_allowed:
            moves.append({"type": "play", "member": member, "ability": "legendary"})
    return moves


def advance(tx) -> None:
    """Run everything that needs no decision: impossible icons, turn ends with the interruption
    check, passing seats, round and game ends. Stops at the next decision."""
    state = tx.state
    if state["phase"] == "formation":
        if commitments.complete(state["formation"]):
            tx.emit("explore_begin", {"round": state["round"], "start_seat": state["start_seat"]})
        else:
            return
    while state["phase"] == "explore":
        turn = state["turn"]
        if turn is None:
            seat = table.next_actor(state, state["cursor"])
            for passing in table.passing_seats(state, state["cursor"], seat):
                tx.emit("pass", {"seat": passing})
            if seat is not None:
                tx.emit("turn_begin", {"seat": seat})
                return
            _end_round(tx)
            return
        queue = turn["queue"]
        if queue is None:
            return
        seat = turn["seat"]
        if not queue:
            played = turn["played"]
            targets = (table.interrupt_targets(state, name=table.member_name(played), exclude=seat)
                       if played else [])
            tx.emit("turn_end", {"seat": seat, "played": played, "interrupted": targets})
            continue
        if abilities.step_options(state, seat, queue[0]):
            return
        abilities.pass_impossible(tx, seat, queue[0])


def _end_round(tx) -> None:
    state = tx.state
    if state["round"] >= content().rounds:
        tx.emit("game_end", scoring.final_result(state))
    else:
        tx.emit("round_end", {"round": state["round"] + 1, "start_seat": state["last_actor"]})
