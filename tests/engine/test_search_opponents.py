"""The search's opponent models: "tree" (opponents branch and pick by UCB) and "greedy" (each
opponent plays its one-ply best move on the sample, so only the searching seat's moves branch)."""
import pytest

from shared.bots.ismcts import SearchParams, ismcts, search_tree
from shared.bots.policies import greedy_policy
from shared.engine import Game, Outcome
from shared.rng import FastRng


class Pile(Game):
    """Two players take 1 to 3 counters in turn from a public pile; who takes the last one wins.
    Perfect information, so a greedy reply depends on the position alone."""

    id = "pile"
    title = "Pile (test game)"
    min_players = max_players = 2

    def setup(self, players, options, rng):
        return [{"type": "setup", "data": {"pile": 10}}]

    def apply(self, state, ev):
        if ev["type"] == "setup":
            state.update(pile=ev["data"]["pile"], turn=0, taken=[0, 0], last=None)
        else:
            state["pile"] -= ev["data"]["n"]
            state["taken"][ev["data"]["seat"]] += ev["data"]["n"]
            state["last"], state["turn"] = ev["data"]["seat"], 1 - ev["data"]["seat"]

    def seat_count(self, state):
        return 2

    def to_act(self, state):
        return [] if state["pile"] == 0 else [state["turn"]]

    def legal_moves(self, state, seat):
        return [{"take": n} for n in range(1, min(3, state["pile"]) + 1)] if seat in self.to_act(state) else []

    def play(self, tx, seat, move):
        tx.emit("took", {"seat": seat, "n": move["take"]})

    def view(self, state, seat):
        return {**state, "taken": list(state["taken"])}

    def determinize(self, view, seat, rng):
        return self.view(view, seat)

    def outcome(self, state):
        if state["pile"]:
            return None
        return Outcome(ranks=[1 if s == state["last"] else 2 for s in range(2)], scores=list(state["taken"]))

    def heuristic(self, state, seat):  # more counters looks better: greedy takes 3 unless it can win
        return state["taken"][seat] - state["taken"][1 - seat]


def opponent_nodes(root):
    """Every node at which the opponent (seat 1) was to move, with its children."""
    found, frontier = [], [(root, 0)]
    while frontier:
        node, mover = frontier.pop()
        if mover == 1 and node.children:
            found.append(node)
        frontier += [(child, 1 - mover) for _, child in node.children.values()]
    return found


def start(pile):
    game = Pile()
    state = game.fold(game.setup(2, {}, None))
    state["pile"] = pile
    return game, state


def test_greedy_opponents_branch_only_on_the_searchers_moves():
    game, state = start(10)
    root = search_tree(game, game.view(state, 0), 0, game.legal_moves(state, 0), FastRng(1),
                       SearchParams(iterations=200, opponents="greedy"))
    nodes = opponent_nodes(root)
    assert nodes and all(len(n.children) == 1 for n in nodes)


def test_the_greedy_model_predicts_the_greedy_levels_reply():
    game, state = start(10)
    root = search_tree(game, game.view(state, 0), 0, game.legal_moves(state, 0), FastRng(1),
                       SearchParams(iterations=200, opponents="greedy"))
    for move, node in root.children.values():
        after = game.copy_state(state)
        game.advance(after, 0, move, FastRng(0))
        reply = greedy_policy(game, game.view(after, 1), 1, game.legal_moves(after, 1), FastRng(2))
        assert [m for m, _ in node.children.values()] == [reply]


def test_tree_opponents_explore_every_reply():
    game, state = start(10)
    root = search_tree(game, game.view(state, 0), 0, game.legal_moves(state, 0), FastRng(1),
                       SearchParams(iterations=200))
    assert max(len(n.children) for n in opponent_nodes(root)) == 3


@pytest.mark.parametrize("opponents", ["tree", "greedy"])
def test_either_model_takes_a_win_in_one(opponents):
    game, state = start(3)
    move = ismcts(game, game.view(state, 0), 0, game.legal_moves(state, 0), FastRng(4),
                  SearchParams(iterations=100, opponents=opponents))
    assert move == {"take": 3}


def test_greedy_model_exploits_a_greedy_opponent():
    """From 6 counters a perfect opponent wins whatever we take, but a greedy one takes 3 unless
    it can win at once: taking 1 or 2 wins, taking 3 leaves it a win in one."""
    game, state = start(6)
    move = ismcts(game, game.view(state, 0), 0, game.legal_moves(state, 0), FastRng(5),
                  SearchParams(iterations=200, opponents="greedy"))
    assert move != {"take": 3}


class Stall(Pile):
    """After seat 0's first move only seat 1 acts, and it can only pass: it never ends."""

    def to_act(self, state):
        return [0] if state["pile"] == 10 else [1]

    def legal_moves(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"take": 1}, {"take": 2}] if seat == 0 else [{"take": 0}, {"take": 0, "again": True}]

    def outcome(self, state):
        return None


def test_a_walk_stops_modelling_opponents_who_would_go_on_forever(monkeypatch):
    import shared.bots.ismcts as search

    monkeypatch.setattr(search, "MAX_MODELLED_MOVES", 50)
    game = Stall()
    state = game.fold(game.setup(2, {}, None))
    root = search_tree(game, game.view(state, 0), 0, game.legal_moves(state, 0), FastRng(3),
                       SearchParams(iterations=20, opponents="greedy"))
    assert sum(child.visits for _, child in root.children.values()) == 20
