"""Single-observer information-set MCTS over determinized states.

Each iteration samples a full state consistent with the searching seat's view
(``determinize``), walks the shared tree choosing among the moves legal in that sample by UCB1
(availability-counted), expands one node, finishes with a random playout capped at
``playout_steps`` (scored by the heuristic when capped), and backs up the searching seat's reward.
"""
from __future__ import annotations

import math

from ..canonical import encode
from ..engine.game import Game
from ..rng import FastRng


class _Node:
    __slots__ = ("visits", "avail", "total", "children")

    def __init__(self):
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[bytes, tuple[dict, "_Node"]] = {}


def _reward(game: Game, state: dict, seat: int) -> float:
    result = game.outcome(state)
    if result is not None:
        best = min(result.ranks)
        return 1.0 if result.ranks[seat] == best else 0.0
    h = game.heuristic(state, seat)
    return 0.5 + math.atan(h) / math.pi  # squash into (0, 1)


def ismcts(
    game: Game, view: dict, seat: int, legal: list[dict], rng: FastRng,
    *, iterations: int = 200, playout_steps: int = 60, c: float = 0.7,
) -> dict:
    root = _Node()
    root_keys = {encode(m): m for m in legal}
    for _ in range(iterations):
        state = game.determinize(view, seat, rng)
        node, path = root, [root]
        # selection / expansion
        while game.outcome(state) is None:
            acting = game.to_act(state)
            if not acting:
                break
            actor = seat if seat in acting else acting[rng.randbelow(len(acting))]
            moves = game.legal_moves(state, actor)
            if node is root:
                moves = [m for m in moves if encode(m) in root_keys] or moves
            keyed = [(encode(m), m) for m in moves]
            for _k, _m in keyed:
                if _k in node.children:
                    node.children[_k][1].avail += 1
            untried = [(k, m) for k, m in keyed if k not in node.children]
            if untried:
                k, m = untried[rng.randbelow(len(untried))]
                child = _Node()
                child.avail = 1
                node.children[k] = (m, child)
                state = game.fold(game.decide(state, actor, m, rng), state)
                path.append(child)
                node = child
                break
            def ucb(item):
                _, ch = node.children[item[0]]
                return ch.total / ch.visits + c * math.sqrt(math.log(max(1, ch.avail)) / ch.visits)
            k, m = max(keyed, key=ucb)
            state = game.fold(game.decide(state, actor, m, rng), state)
            node = node.children[k][1]
            path.append(node)
        # playout
        for _ in range(playout_steps):
            if game.outcome(state) is not None:
                break
            acting = game.to_act(state)
            if not acting:
                break
            actor = acting[rng.randbelow(len(acting))]
            moves = game.legal_moves(state, actor)
            state = game.fold(game.decide(state, actor, moves[rng.randbelow(len(moves))], rng), state)
        reward = _reward(game, state, seat)
        for n in path:
            n.visits += 1
            n.total += reward
    best = max(root.children.values(), key=lambda mc: mc[1].visits, default=None)
    return best[0] if best else legal[rng.randbelow(len(legal))]
