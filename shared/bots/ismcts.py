"""Information-set Monte Carlo tree search over determinized states.

Each iteration samples a full state consistent with the searching seat's view (``determinize``)
and walks one shared tree, keyed by the moves' canonical bytes. At every node the seat that acts
there picks by UCB1 on *its own* reward (so opponents play against the searcher, not for it),
counting a move as offered only when it is legal in this sample — or, with the ``greedy``
opponent model, every other seat plays its one-ply best move on the sample and only the searching
seat's moves branch. Where a node offers more than ``sample_moves`` moves, a walk sees a random
sample of them (a compound choice is sampled, not expanded). The walk expands one node, plays out with the game's ``playout_move``
(random by default) for at most ``playout_steps`` and scores the end for every seat: a finished
game by its ranks, a cut-off by each side's ``heuristic`` against the best other side. Search
stops after ``iterations`` or ``seconds``, whichever comes first, and answers the most visited
root move.

States are advanced in place (``Game.advance``) on the iteration's own copy of its sample.
Per-game tuning lives in the game's ``search`` parameters (see ``SearchParams``).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields, replace

from ..canonical import encode
from ..engine.game import Game
from ..rng import FastRng
from .evaluation import one_ply


OPPONENT_MODELS = ("tree", "greedy")


@dataclass(frozen=True)
class SearchParams:
    """How hard and how a search looks. A game's ``search`` dict overrides the defaults."""

    iterations: int = 400
    seconds: float | None = None  # a wall-clock budget on top of the iteration cap
    playout_steps: int = 20  # random moves after the tree before the heuristic cut-off
    c: float = 0.7  # UCB1 exploration
    scale: float = 1.0  # a heuristic lead of this size is worth a 0.75 reward
    #: How other seats move inside the tree: "tree" (each picks by UCB on its own reward) or
    #: "greedy" (each plays the one-ply best move for itself on the sample; only the searching
    #: seat's moves branch). A greedy opponent model spends the budget on the searcher's own
    #: choices, which pays where many seats act between two of them.
    opponents: str = "tree"
    #: At a node offering more moves than this, each walk considers a random sample of this many
    #: (a large compound choice, e.g. an Arkon bid: every part of a hand). A move counts as
    #: offered only when sampled, so UCB weighs it by how often it could have been chosen, as for
    #: moves legal in only some determinizations. None: every move, always.
    sample_moves: int | None = None

    def __post_init__(self):
        if self.opponents not in OPPONENT_MODELS:
            raise ValueError(f"search opponents must be one of {OPPONENT_MODELS}, not {self.opponents!r}")

    @classmethod
    def for_game(cls, game: Game, **overrides) -> "SearchParams":
        known = {f.name for f in fields(cls)}
        tuned = {k: v for k, v in (getattr(game, "search", None) or {}).items() if k in known}
        return replace(cls(**tuned), **{k: v for k, v in overrides.items() if v is not None})


#: At most this many modelled opponent moves in one walk of the tree (a guard: in every game the
#: searching seat acts again long before).
MAX_MODELLED_MOVES = 1_000


class Node:
    """One move's statistics: how often it was walked, offered and what it earned its mover;
    ``children`` maps a next move's canonical bytes to (move, node)."""

    __slots__ = ("visits", "avail", "total", "children")

    def __init__(self):
        self.visits = 0
        self.avail = 0
        self.total = 0.0  # reward of the seat whose move led here
        self.children: dict[bytes, tuple[dict, "Node"]] = {}


def rewards(game: Game, state: dict, scale: float) -> list[float]:
    """Every seat's reward in [0, 1]: 1/0 for a won/lost game, else a squashed heuristic lead."""
    result = game.outcome(state)
    if result is not None:
        best = min(result.ranks)
        return [1.0 if r == best else 0.0 for r in result.ranks]
    sides = game.sides(state)
    per_seat = game.heuristics(state)
    values = [sum(per_seat[s] for s in side) / len(side) for side in sides]
    out = [0.5] * game.seat_count(state)
    for i, side in enumerate(sides):
        rivals = [v for j, v in enumerate(values) if j != i]
        lead = values[i] - max(rivals) if rivals else 0.0
        for s in side:
            out[s] = 0.5 + math.atan(lead / scale) / math.pi
    return out


def ismcts(game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng, params: SearchParams) -> dict:
    """The most visited root move after the search ``params`` allow."""
    root = search_tree(game, view, seat, legal, rng, params)
    best = max(root.children.values(), key=lambda mc: mc[1].visits, default=None)
    return best[0] if best else legal[rng.randbelow(len(legal))]


def search_tree(game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng, params: SearchParams) -> "Node":
    """The tree the search ``params`` allow grows from ``seat``'s view (its root is ``seat``'s)."""
    deadline = time.perf_counter() + params.seconds if params.seconds else None
    root = Node()
    root_keys = {encode(m) for m in legal}
    c = params.c
    greedy_opponents = params.opponents == "greedy"
    for i in range(params.iterations):
        if deadline is not None and i and time.perf_counter() >= deadline:
            break
        state = game.copy_state(game.determinize(view, seat, rng))  # may share parts with view
        node, path = root, []
        # selection and expansion
        modelled = 0  # opponent moves the model played in this walk
        while game.outcome(state) is None:
            acting = game.to_act(state)
            if not acting:
                break
            actor = seat if seat in acting else acting[rng.randbelow(len(acting))]
            moves = game.legal_moves(state, actor)
            if params.sample_moves and len(moves) > params.sample_moves:
                moves = rng.sample(moves, params.sample_moves)
            if greedy_opponents and actor != seat:
                if modelled == MAX_MODELLED_MOVES:
                    break  # the others could go on without the searcher: judge the position here
                modelled += 1
                m = moves[0] if len(moves) == 1 else one_ply(game, [state], actor, moves, rng)
                k = encode(m)
                child = node.children.get(k)
                if child is None:
                    child = node.children[k] = (m, Node())
                node = child[1]
                game.advance(state, actor, m, rng)
                path.append((node, actor))
                continue
            keyed = [(encode(m), m) for m in moves]
            if node is root:
                keyed = [km for km in keyed if km[0] in root_keys] or keyed
            untried = []
            for k, m in keyed:
                child = node.children.get(k)
                if child is None:
                    untried.append((k, m))
                else:
                    child[1].avail += 1
            if untried:
                k, m = untried[rng.randbelow(len(untried))]
                child = Node()
                child.avail = 1
                node.children[k] = (m, child)
                game.advance(state, actor, m, rng)
                path.append((child, actor))
                break
            log_terms = {}

            def ucb(item, _node=node):
                ch = _node.children[item[0]][1]
                avail = ch.avail
                if avail not in log_terms:
                    log_terms[avail] = math.log(max(1, avail))
                return ch.total / ch.visits + c * math.sqrt(log_terms[avail] / ch.visits)

            k, m = max(keyed, key=ucb)
            node = node.children[k][1]
            game.advance(state, actor, m, rng)
            path.append((node, actor))
        # playout
        for _ in range(params.playout_steps):
            if game.outcome(state) is not None:
                break
            acting = game.to_act(state)
            if not acting:
                break
            actor = acting[rng.randbelow(len(acting))]
            game.advance(state, actor, game.playout_move(state, actor, game.legal_moves(state, actor), rng), rng)
        reward = rewards(game, state, params.scale)
        root.visits += 1
        for n, actor in path:
            n.visits += 1
            n.total += reward[actor]
    return root
