"""The engine contract every game implements, as a base class with sensible defaults.

A game is a pure, I/O-free description:

* metadata — ``id``, ``title``, ``min_players``, ``max_players``, ``version`` and ``Options`` (a
  marshmallow schema of the game's options);
* ``setup(players, options, rng) -> events`` — the opening, chance outcomes inside the events;
* ``apply(state, event)`` — folds one event into the state *in place* (``evolve`` wraps it
  purely); never draws randomness; it receives its own copy of the event, so it may keep the
  event's lists in the state;
* ``legal_moves(state, seat) -> [move]`` — every legal move, each a JSON object that can be
  posted back verbatim;
* ``play(tx, seat, move)`` — carries out a move already known to be legal by emitting events on
  the transaction ``tx`` (``decide`` validates and wraps it; ``advance`` is the trusted, in-place
  form simulations use);
* ``to_act(state) -> [seat]`` — whose input is awaited; ``seat_count(state)``, ``sides(state)``
  (teams, if any);
* ``view(state, seat | None)`` — what a seat (or a spectator) may see;
* ``determinize(view, seat, rng) -> state`` — a full state consistent with that view;
* ``outcome(state) -> Outcome | None``;
* ``heuristic(state, seat) -> float`` — how good the state looks for the seat (greedy bots);
* optionally ``rulebook_options(state, seat)`` and ``option_chosen(start, state, seat)`` — the
  options the rulebook gives a decision, for the conformance check that each is reachable.

State and events are plain JSON (string keys only); ``clone`` enforces it.
"""
from __future__ import annotations

from typing import Any, ClassVar, Mapping

from marshmallow import Schema, ValidationError

from ..canonical import clone
from ..rng import Rng
from .errors import IllegalMove
from .events import Event, make_event, redact as default_redact
from .outcome import Outcome

State = dict
Move = dict


class Tx:
    """A decision in progress: events emitted so far and the state they lead to.

    ``emit`` folds each event into ``tx.state`` at once, so the rest of a move's logic sees its
    own effects (a reshuffle before a draw, a hand limit after a gain). ``in_place`` works on the
    given state itself instead of a copy (simulations that own their state).
    """

    __slots__ = ("game", "state", "rng", "events")

    def __init__(self, game: "Game", state: State, rng: Rng, *, in_place: bool = False):
        self.game = game
        self.state = state if in_place else clone(state)
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, type: str, data: Mapping[str, Any] | None = None, *, private=None, secret=None) -> Event:
        event = make_event(type, data, private=private, secret=secret)
        self.game.apply(self.state, clone(event))
        self.events.append(event)
        return event


class Game:
    """Base class for games; subclasses fill in the rules."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    version: ClassVar[str] = "1"
    Options: ClassVar[type[Schema]] = Schema
    # a released version kept for the logs it wrote (shared/released), and the commit it is frozen from
    frozen: ClassVar[bool] = False
    release: ClassVar[str | None] = None
    # move types that only take back a step of a decision the seat is making (a card put back,
    # a member unpicked): marked as such in the API's legal moves (``undoing``), so that a client
    # playing the first move that does not undo always finishes. Today's engines have none — every
    # compound choice is one move, and ``conformance.check_decision`` proves no seat's moves
    # return its decision to a state it was in; older released versions may declare some.
    undoing_moves: ClassVar[frozenset[str]] = frozenset()

    # ----- options -----------------------------------------------------------------------
    def validate_options(self, players: int, options: Mapping[str, Any] | None) -> dict:
        """Options with defaults filled in; raises ``ValueError`` with a reason when invalid."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.id} is played by {self.min_players} to {self.max_players} players, not {players}"
            )
        try:
            loaded = self.Options().load(dict(options or {}))
        except ValidationError as err:
            raise ValueError(f"invalid options: {err.messages}") from None
        self.check_options(players, loaded)
        return loaded

    def check_options(self, players: int, options: dict) -> None:
        """Cross-field checks of options against the player count (raise ``ValueError``)."""

    # ----- the contract ------------------------------------------------------------------
    def setup(self, players: int, options: dict, rng: Rng) -> list[Event]:
        raise NotImplementedError

    def apply(self, state: State, event: Event) -> None:
        raise NotImplementedError

    def evolve(self, state: State, event: Event) -> State:
        """Pure: the state after ``event``."""
        new = clone(state)
        self.apply(new, clone(event))
        return new

    def fold(self, events: list[Event], state: State | None = None) -> State:
        """The state after all ``events``, starting from ``state`` (or the empty state)."""
        new = clone(state) if state is not None else {}
        for event in clone(events):
            self.apply(new, event)
        return new

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        raise NotImplementedError

    def play(self, tx: Tx, seat: int, move: Move) -> None:
        raise NotImplementedError

    def decide(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        """The events of ``move`` by ``seat``; raises ``IllegalMove`` with a reason."""
        legal = self.legal_moves(state, seat)
        if move not in legal:
            raise IllegalMove(explain_illegal(move, legal))
        tx = Tx(self, state, rng)
        self.play(tx, seat, move)
        return tx.events

    def advance(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        """Trusted and in place: play ``move`` (taken from ``legal_moves``) on ``state`` itself.

        What search and simulations use: no legality check and no copy of the state (``decide``
        followed by ``fold`` costs both). Returns the move's events."""
        tx = Tx(self, state, rng, in_place=True)
        self.play(tx, seat, move)
        return tx.events

    def copy_state(self, state: State) -> State:
        """An independent copy of ``state`` (for a simulation to advance in place)."""
        return clone(state)

    def to_act(self, state: State) -> list[int]:
        raise NotImplementedError

    def seat_count(self, state: State) -> int:
        """How many seats the match has."""
        raise NotImplementedError

    def sides(self, state: State) -> list[list[int]]:
        """The seats that win or lose together: teams in a team game, else each seat alone."""
        return [[s] for s in range(self.seat_count(state))]

    def view(self, state: State, seat: int | None) -> dict:
        raise NotImplementedError

    def redact(self, event: Event, seat: int | None) -> Event:
        return default_redact(event, seat)

    def determinize(self, view: dict, seat: int, rng: Rng) -> State:
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:
        raise NotImplementedError

    def heuristic(self, state: State, seat: int) -> float:
        """How good ``state`` looks for ``seat``; the default knows only wins and losses."""
        result = self.outcome(state)
        if result is None:
            return 0.0
        return 1.0 if result.ranks[seat] == 1 else -1.0

    def heuristics(self, state: State) -> list[float]:
        """``heuristic`` for every seat at once (what a search scores each leaf with); a game whose
        heuristic compares the seats can share that work by overriding this."""
        return [self.heuristic(state, s) for s in range(self.seat_count(state))]

    def playout_move(self, state: State, seat: int, moves: list[Move], rng: Rng) -> Move:
        """The move a search playout makes for ``seat`` (default: uniformly random); games may
        bias it with cheap knowledge. It sees the simulated state, never a live one."""
        return moves[rng.randbelow(len(moves))]

    def undoing(self, moves: list[Move]) -> list[int]:
        """The positions in ``moves`` (a seat's legal moves) of those that only undo a step of
        its pending decision (``undoing_moves``)."""
        return [i for i, move in enumerate(moves) if move.get("type") in self.undoing_moves]

    # ----- the rulebook's options for a decision (optional; checked by conformance) -------
    def rulebook_options(self, state: State, seat: int) -> list | None:
        """Every option the rulebook gives ``seat`` at the decision pending in ``state`` (plain
        JSON values, e.g. the hands of a Formation), where the game declares them; ``None``
        (the default) declares nothing. ``conformance.check_decision`` proves each one reachable
        from here by the seat's moves. Never used in play."""
        return None

    def option_chosen(self, start: State, state: State, seat: int) -> Any:
        """Once ``state`` shows that ``seat`` has made the decision pending in ``start``, the
        option (one of ``rulebook_options(start, seat)``) it chose; ``None`` until then."""
        return None

    # ----- description for clients -------------------------------------------------------
    def describe(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "version": self.version,
            "options": describe_schema(self.Options()),
        }


def explain_illegal(move: Any, legal: list[Move]) -> str:
    """A reason a client can act on, built from the seat's own legal moves."""
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        return 'a move is a JSON object with a string "type"'
    if not legal:
        return "you have no decision to make now"
    types = sorted({m["type"] for m in legal})
    same = [m for m in legal if m["type"] == move["type"]]
    if not same:
        return f"move type {move['type']!r} is not legal now; legal types: {', '.join(types)}"
    keys = sorted({k for m in same for k in m} | set(move))
    for key in keys:
        if key == "type":
            continue
        allowed = []
        for m in same:
            if m.get(key) not in allowed:
                allowed.append(m.get(key))
        if move.get(key) not in allowed:
            shown = ", ".join(repr(a) for a in allowed[:12]) + (" ..." if len(allowed) > 12 else "")
            return f"{move['type']}: {key!r} must be one of {shown}, not {move.get(key)!r}"
    return f"{move['type']}: this combination of parameters is not legal now"


def describe_schema(schema: Schema) -> dict:
    """A JSON description of a marshmallow schema's fields, for ``GET /v1/games``."""
    out = {}
    for name, f in schema.fields.items():
        entry: dict[str, Any] = {"type": type(f).__name__.lower(), "required": f.required}
        default = f.load_default
        if default is not None and not callable(default) and repr(default) != "<marshmallow.missing>":
            entry["default"] = default
        choices = getattr(getattr(f, "validate", None), "choices", None)
        for v in getattr(f, "validators", []) or []:
            choices = getattr(v, "choices", choices)
        if choices is not None:
            entry["choices"] = list(choices)
        if f.metadata.get("description"):
            entry["description"] = f.metadata["description"]
        out[name] = entry
    return out
