"""Checks every game must pass, run over seeded random playouts.

Game test suites call ``check_playouts`` for each player count and option set. For every step
of a random playout it asserts that:

* the seats in ``to_act`` have legal moves and the others have none;
* every listed legal move is accepted by ``decide`` (all of them on sampled steps);
* malformed and unlisted moves are rejected with ``IllegalMove`` and a reason;
* the state is plain JSON, and folding the log equals the live state (the log folded forward
  from the previous check on sampled steps, and the whole log from scratch at the end);
* a seat's view and legal moves are the same in a *determinized* state built from that view
  (so nothing the seat cannot know influences what it sees), that state is playable by every
  seat (search bots play out from it), and a redacted event never holds another seat's private
  part or a secret;
* ``advance`` (trusted, in place, on a move object straight from ``legal_moves``) gives the same
  events and state as ``decide`` + ``evolve`` (search bots rely on it);
* the playout ends with an ``outcome`` within ``max_steps``.

``check_decisions`` explores one seat's consecutive moves from sampled decision points: no
sequence of them returns the decision to a state it was in, every one ends within a bound, and
where a game declares the rulebook's options for a decision (``Game.rulebook_options``), each is
reachable from the decision's start.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..canonical import clone, encode, sha256_hex
from ..rng import FastRng, SeededRng
from .errors import IllegalMove
from .game import Game

JUNK_MOVES = [
    None, 42, "pass", [], {}, {"type": 7}, {"type": "no-such-move"},
    {"type": "no-such-move", "card": "x"},
]


@dataclass
class PlayoutResult:
    state: dict
    events: list
    steps: int


def _mutations(move: dict) -> list[dict]:
    """Near-miss variants of a legal move (wrong values, extra and missing fields)."""
    out = [dict(move, bogus_field=1)]
    for key, value in move.items():
        if key == "type":
            continue
        out.append({k: v for k, v in move.items() if k != key})
        out.append(dict(move, **{key: "\u2603not-a-value"}))
        if isinstance(value, int) and not isinstance(value, bool):
            out.append(dict(move, **{key: value + 1000}))
    return out


def check_playout(
    game: Game,
    players: int,
    options: dict | None = None,
    *,
    seed: int = 0,
    max_steps: int = 5000,
    full_check_every: int = 7,
    must_finish: bool = True,
) -> PlayoutResult:
    opts = game.validate_options(players, options or {})
    secret = f"seed-{seed}".encode()
    events = game.setup(players, opts, SeededRng(secret, "setup"))
    state = game.fold(events)
    chooser = FastRng(seed)
    replay = _Replay(game)
    steps = 0
    while game.outcome(state) is None:
        assert steps < max_steps, f"{game.id}: no outcome after {max_steps} steps (seed {seed})"
        full = steps % full_check_every == 0
        _check_state(game, state, players, events, full=full, rng=chooser, replay=replay)
        acting = game.to_act(state)
        assert acting, f"{game.id}: nobody to act in an unfinished game (step {steps}, seed {seed})"
        seat = acting[chooser.randbelow(len(acting))]
        moves = game.legal_moves(state, seat)
        if full:
            for m in moves:
                game.decide(state, seat, clone(m), SeededRng(secret, f"probe-{steps}"))
            _check_rejections(game, state, seat, moves)
        pick = chooser.randbelow(len(moves))
        move = moves[pick]
        new_events = game.decide(state, seat, clone(move), SeededRng(secret, len(events)))
        assert new_events, f"{game.id}: move {move} produced no events"
        twin = game.copy_state(state)
        fast_events = game.advance(twin, seat, game.legal_moves(twin, seat)[pick], SeededRng(secret, len(events)))
        for ev in new_events:
            state = game.evolve(state, ev)
        assert encode(fast_events) == encode(new_events), f"{game.id}: advance and decide disagree on {move}"
        assert encode(twin) == encode(state), f"{game.id}: advance in place and evolve disagree after {move}"
        events.extend(new_events)
        steps += 1
    _check_state(game, state, players, events, full=True, rng=chooser, replay=_Replay(game))
    if must_finish:
        assert game.outcome(state) is not None
        result = game.outcome(state)
        assert len(result.ranks) == players and len(result.scores) == players
        assert all(game.legal_moves(state, s) == [] for s in range(players)), "moves after the end"
    return PlayoutResult(state=state, events=events, steps=steps)


def check_playouts(game: Game, players: int, options: dict | None = None, *, seeds=range(5), **kw) -> list[PlayoutResult]:
    return [check_playout(game, players, options, seed=s, **kw) for s in seeds]


def _check_rejections(game: Game, state: dict, seat: int, moves: list[dict]) -> None:
    candidates = list(JUNK_MOVES)
    for m in moves[:3]:
        candidates.extend(_mutations(m))
    for junk in candidates:
        if junk in moves:
            continue
        try:
            game.decide(state, seat, junk, FastRng(0))
        except IllegalMove as err:
            assert err.reason and isinstance(err.reason, str)
        else:
            raise AssertionError(f"{game.id}: unlisted move {junk!r} was accepted")


def _check_playable(game: Game, twin: dict, players: int, rng) -> None:
    """A determinized state is a real state: every seat's moves can be listed and played (search
    bots play out from such states)."""
    for s in range(players):
        game.legal_moves(twin, s)
    if game.outcome(twin) is None:
        acting = game.to_act(twin)
        assert acting, f"{game.id}: a determinized state waits on nobody"
        seat = acting[rng.randbelow(len(acting))]
        moves = game.legal_moves(twin, seat)
        move = moves[rng.randbelow(len(moves))]
        game.fold(game.decide(twin, seat, move, rng), twin)


@dataclass
class _Replay:
    """The state rebuilt from the log alone, folded forward as the log grows: folding the whole log
    again at every sampled step made a long playout's checks quadratic in its length."""
    game: Game
    state: dict = field(default_factory=dict)
    folded: int = 0

    def of(self, events: list) -> dict:
        self.state = self.game.fold(events[self.folded:], self.state)
        self.folded = len(events)
        return self.state


def _check_state(game: Game, state: dict, players: int, events: list, *, full: bool, rng,
                 replay: _Replay | None = None) -> None:
    """The per-step checks; ``replay`` carries the log folded so far (None: fold it from scratch)."""
    acting = set(game.to_act(state))
    for s in range(players):
        has = bool(game.legal_moves(state, s))
        assert has == (s in acting), f"{game.id}: seat {s} legal moves vs to_act disagree ({acting})"
    if not full:
        return
    assert encode(clone(state)) == encode(state), "state is not plain JSON"
    rebuilt = (replay or _Replay(game)).of(events)
    assert encode(rebuilt) == encode(state), f"{game.id}: replay differs from live state"
    for seat in list(range(players)) + [None]:
        view = game.view(state, seat)
        encode(view)
        if seat is None:
            continue
        twin = game.determinize(clone(view), seat, rng)
        assert encode(game.view(twin, seat)) == encode(view), (
            f"{game.id}: seat {seat}'s view depends on what it cannot know"
        )
        assert game.legal_moves(twin, seat) == game.legal_moves(state, seat), (
            f"{game.id}: seat {seat}'s legal moves depend on what it cannot know"
        )
        _check_playable(game, twin, players, rng)
    for ev in events[-10:]:
        for seat in list(range(players)) + [None]:
            red = game.redact(ev, seat)
            assert "secret" not in red and "private" not in red
            own = (ev.get("private") or {}).get(str(seat), {}) if seat is not None else {}
            for other, part in (ev.get("private") or {}).items():
                if seat is not None and other == str(seat):
                    continue
                for key, value in part.items():
                    if key not in ev.get("data", {}) and own.get(key) != value:
                        assert key not in red["data"] or red["data"][key] != value, (
                            f"{game.id}: {ev['type']} leaks seat {other}'s {key} to {seat}"
                        )


# --- Decisions: no cycle, a bounded end, every rulebook option reachable -------------------------

@dataclass
class DecisionReport:
    """What exploring one seat's pending decision found (``check_decision``)."""

    seat: int
    step: int  # the playout step the decision was sampled at
    nodes: int  # distinct states of the decision explored
    deepest: int  # the most consecutive moves of the seat on one explored path
    complete: bool  # every sequence of the seat's moves was explored (no budget cut)
    declared: int | None = None  # how many rulebook options the game declares, if it does
    reached: int | None = None


def _digest(state: dict) -> str:
    return sha256_hex(encode(state))


def check_decision(game: Game, state: dict, seat: int, *, secret: bytes = b"decisions", max_nodes: int = 400,
                   max_depth: int = 60, step: int = 0, rng: FastRng | None = None) -> DecisionReport:
    """Explore every sequence of ``seat``'s consecutive moves from ``state`` (depth first, children
    in a random order, at most ``max_nodes`` distinct states) until the seat no longer acts or the
    game ends, and assert that:

    * no sequence returns the decision to a state it was in on the way (a cycle: the canonical
      digest of a state repeats along one path; two orders reaching one state are no cycle);
    * no sequence is longer than ``max_depth`` moves (the decision ends in a bounded number of
      the seat's steps);
    * where the game declares the rulebook's options for this decision
      (``Game.rulebook_options``), the exploration is complete within the budget, every option
      chosen (``Game.option_chosen``) is one of them, and each is reachable from the start — and
      from every state on the way that declares options too, so that no step (a card put back)
      takes an option away.

    Chance outcomes inside a move are drawn from one fixed generator per move, so one state and
    one move always lead to the same state."""
    rng = rng or FastRng(0)
    declared = game.rulebook_options(state, seat)
    declaring = declared is not None

    def frame(at: dict, key: str, trail: list) -> list:
        """[state, digest, moves still to try, moves that led here, options reached below]"""
        return [at, key, _shuffled(game.legal_moves(at, seat), rng), trail, set()]

    reach: dict[str, set] = {}  # fully explored states -> the options reachable from them
    root = _digest(state)
    stack = [frame(state, root, [])]
    on_path = {root}
    nodes, deepest, complete = 1, 0, True
    while stack:
        here, key, todo, path, below = stack[-1]
        if not todo:
            stack.pop()
            on_path.discard(key)
            reach[key] = below
            if stack:
                stack[-1][4] |= below
            if declaring and complete:
                _assert_reachable(game, here, seat, below, path)
            continue
        move = todo.pop()
        child = game.copy_state(here)
        game.advance(child, seat, clone(move), SeededRng(secret, "decision-move"))
        trail = path + [move]
        deepest = max(deepest, len(trail))
        if declaring:
            chosen = game.option_chosen(state, child, seat)
            if chosen is not None:
                assert encode(chosen) in {encode(o) for o in game.rulebook_options(here, seat) or declared}, (
                    f"{game.id}: seat {seat} chose {chosen!r}, not a rulebook option, by {trail}")
                below.add(encode(chosen))
                continue
        if game.outcome(child) is not None or seat not in game.to_act(child):
            continue
        assert len(trail) < max_depth, (
            f"{game.id}: seat {seat}'s decision has not ended after {max_depth} of its moves: {trail[-8:]}")
        ck = _digest(child)
        assert ck not in on_path, f"{game.id}: seat {seat}'s moves {trail} return its decision to a state it was in"
        if ck in reach:
            below |= reach[ck]
            continue
        if nodes >= max_nodes:
            complete = False
            continue
        nodes += 1
        on_path.add(ck)
        stack.append(frame(child, ck, trail))
    report = DecisionReport(seat=seat, step=step, nodes=nodes, deepest=deepest, complete=complete)
    if declaring:
        assert complete, f"{game.id}: seat {seat}'s decision did not finish within {max_nodes} states"
        report.declared, report.reached = len(declared), len(reach[root] & {encode(o) for o in declared})
    return report


def _assert_reachable(game: Game, at: dict, seat: int, reached: set, path: list) -> None:
    """Every option the rulebook gives at ``at`` is among those reached from it."""
    options = game.rulebook_options(at, seat)
    if options is None:
        return
    missing = [o for o in options if encode(o) not in reached]
    where = f"after {path}" if path else "from the start of the decision"
    assert not missing, f"{game.id}: rulebook options seat {seat} cannot reach {where}: {missing[:5]}"


def _shuffled(moves: list, rng: FastRng) -> list:
    moves = list(moves)
    for i in range(len(moves) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    return moves


def check_decisions(game: Game, players: int, options: dict | None = None, *, seed: int = 0, samples: int = 8,
                    every: int = 11, max_steps: int = 5000, **kw) -> list[DecisionReport]:
    """``check_decision`` for every seat to act at ``samples`` decision points of one seeded random
    playout (the first state, then every ``every``-th step), stopping at the end of the game."""
    opts = game.validate_options(players, options or {})
    secret = f"decisions-{seed}".encode()
    state = game.fold(game.setup(players, opts, SeededRng(secret, "setup")))
    chooser = FastRng(seed)
    reports: list[DecisionReport] = []
    step = 0
    while game.outcome(state) is None and len(reports) < samples and step < max_steps:
        acting = game.to_act(state)
        if step % every == 0:
            for seat in acting:
                reports.append(check_decision(game, state, seat, secret=secret, step=step, rng=chooser, **kw))
        seat = acting[chooser.randbelow(len(acting))]
        moves = game.legal_moves(state, seat)
        game.advance(state, seat, moves[chooser.randbelow(len(moves))], SeededRng(secret, step))
        step += 1
    return reports
