"""The decision conformance check (``shared.engine.conformance.check_decisions``), run for the
live version of every registered game, and shown to catch what it is for on small games made to
have each defect and on the frozen versions that had them (issue 23)."""
from __future__ import annotations

import copy

import pytest

from shared.engine import Game, Outcome, registry
from shared.engine.conformance import check_decision, check_decisions

LIVE = sorted((g.id, players) for g in registry.installed() if not g.frozen
              for players in sorted({g.min_players, g.max_players}))


@pytest.mark.parametrize("game_id, players", LIVE, ids=[f"{g}-{p}p" for g, p in LIVE])
def test_no_decision_of_any_live_game_cycles_or_goes_on_without_bound(game_id, players):
    game = registry.get(game_id)
    reports = []
    for seed in range(2):
        reports += check_decisions(game, players, seed=seed, samples=12, every=7, max_nodes=400)
    assert reports
    if game_id != "duel":  # the test game's decisions are one move each
        assert len(reports) >= 8
        assert any(r.nodes > 1 for r in reports), "no decision of more than one move was explored"


# Games whose compound choices (a subset of cards at once) declare the rulebook's options, so the
# check proves that every one of them is reachable from the start of the decision.
COMPOUND = [
    pytest.param(lambda: registry.get("fellowships-of-fate"), id="fellowships-of-fate-formation"),
    pytest.param(lambda: _arkon_with_its_bids_declared(), id="arkon-bid"),
]


@pytest.mark.parametrize("make", COMPOUND)
def test_every_rulebook_option_of_a_compound_choice_is_reachable(make):
    """From the start of the decision and from every step on the way (the live versions)."""
    game = make()
    game_id = game.id
    declared = []
    for players in (game.min_players, game.max_players):
        for r in check_decisions(game, players, seed=3, samples=10, every=5, max_nodes=3000):
            if r.declared is not None:
                declared.append(r)
                assert r.complete and r.reached == r.declared
    assert declared, f"{game_id} declares no rulebook options for any sampled decision"


def test_the_check_finds_the_pick_unpick_cycle_of_fellowships_of_fate_2():
    """Engine 2's Formation (pick / unpick / confirm) let a seat return to a draft it had."""
    with pytest.raises(AssertionError, match="return its decision to a state it was in"):
        check_decisions(registry.get("fellowships-of-fate", "2"), 2)


def test_the_check_finds_the_endless_bid_of_arkon_2():
    """Arkon 2's bid could be picked and put back for ever (its state grows, so it is no cycle)."""
    with pytest.raises(AssertionError, match="has not ended after 60 of its moves"):
        check_decisions(registry.get("arkon", "2"), 2)


class Toggle(Game):
    """A one-seat game made to have the defects: choose a subset of {a, b, c} by toggling one
    element at a time (``cycle``: toggling back is allowed), or by adding only (``grow``: a
    counter grows on every move, so nothing repeats, but the decision never ends), then ``done``.
    ``lose_c``: a put-back element cannot be taken again (an option removed)."""

    id, title, min_players, max_players, version = "toggle", "Toggle", 1, 1, "1"

    def __init__(self, mode: str):
        self.mode = mode

    def setup(self, players, options, rng):
        return [{"type": "start", "data": {}}]

    def apply(self, state, ev):
        if ev["type"] == "start":
            state.update(chosen=[], gone=[], moves=0, done=False)
        elif ev["type"] == "toggle":
            x = ev["data"]["x"]
            if x in state["chosen"]:
                state["chosen"].remove(x)
                if self.mode == "lose_c":
                    state["gone"].append(x)
            else:
                state["chosen"] = sorted(state["chosen"] + [x])
            state["moves"] += self.mode == "grow"
        elif ev["type"] == "done":
            state["done"] = True

    def to_act(self, state):
        return [] if state["done"] else [0]

    def seat_count(self, state):
        return 1

    def legal_moves(self, state, seat):
        if state["done"]:
            return []
        moves = [{"type": "toggle", "x": x} for x in "abc" if x not in state["gone"]]
        return moves + [{"type": "done"}]

    def play(self, tx, seat, move):
        tx.emit(move["type"], {"x": move["x"]} if "x" in move else {})

    def outcome(self, state):
        return Outcome(ranks=[1], scores=[len(state["chosen"])]) if state["done"] else None

    def rulebook_options(self, state, seat):
        subsets = [[], ["a"], ["b"], ["c"], ["a", "b"], ["a", "c"], ["b", "c"], ["a", "b", "c"]]
        return None if state["done"] else subsets  # the rulebook allows any subset at any time

    def option_chosen(self, start, state, seat):
        return state["chosen"] if state["done"] else None


def _start(game):
    return game.fold(game.setup(1, {}, None))


def test_check_decision_fails_on_a_cycle():
    with pytest.raises(AssertionError, match="return its decision to a state it was in"):
        check_decision(Toggle("cycle"), _start(Toggle("cycle")), 0)


def test_check_decision_fails_on_a_decision_without_end():
    with pytest.raises(AssertionError, match="has not ended after 20 of its moves"):
        check_decision(Toggle("grow"), _start(Toggle("grow")), 0, max_depth=20)


def test_check_decision_fails_when_a_put_back_removes_an_option():
    """With ``lose_c`` no cycle is possible and every subset is reachable from the start; but
    once "a" is put back, {a} cannot be had any more: the check finds the state where it is lost."""
    game = Toggle("lose_c")
    with pytest.raises(AssertionError, match=r"cannot reach after \[.*'x': '(a|b|c)'.*\]"):
        check_decision(game, _start(game), 0)


def test_check_decision_passes_a_subset_chosen_step_by_step_without_loss():
    """The same choice made by adding elements in a fixed order, nothing put back: no cycle,
    it ends, and every subset is reachable from every step."""

    class Ascending(Toggle):
        def legal_moves(self, state, seat):
            if state["done"]:
                return []
            last = state["chosen"][-1] if state["chosen"] else ""
            return [{"type": "toggle", "x": x} for x in "abc" if x > last] + [{"type": "done"}]

        def rulebook_options(self, state, seat):
            if state["done"]:
                return None
            subsets = super().rulebook_options(state, seat)
            return [o for o in subsets if o[:len(state["chosen"])] == state["chosen"]]

    game = Ascending("none")
    report = check_decision(game, _start(game), 0)
    assert report.complete and report.declared == report.reached == 8 and report.deepest == 4


def test_check_decision_fails_on_an_option_outside_the_rulebook():
    game = Toggle("lose_c")
    game.rulebook_options = lambda s, seat: [[], ["a"]]
    with pytest.raises(AssertionError, match="not a rulebook option"):
        check_decision(game, _start(game), 0)


def _arkon_with_its_bids_declared(version: str | None = None):
    """Arkon (the live version, or ``version``) with the rulebook's options for a face-down bid
    declared from the outside ("Each player may place any number of cards face down as their
    bid": every sub-multiset of the hand, at every step of gathering it). Only the state is read
    (``bid.commit``, ``bid.revealed``, ``hands``: the same in engines 3 and 4), so the same
    declaration shows engine 3 losing options (below) and engine 4 keeping every one."""
    from itertools import combinations

    from shared.engine import commitments

    game = copy.copy(registry.get("arkon", version))

    def bidding(state, seat):
        bid = state.get("bid")
        waiting = commitments.waiting(bid["commit"]) if bid and bid.get("commit") else []
        return bool(waiting) and waiting[0] == seat

    def rulebook_options(state, seat):
        if not bidding(state, seat):
            return None
        hand = sorted(state["hands"][seat])
        return sorted({tuple(c) for k in range(len(hand) + 1) for c in combinations(hand, k)})

    def option_chosen(start, state, seat):
        bid = state.get("bid")
        if not bid or bid.get("clan") != start["bid"]["clan"] or bidding(state, seat):
            return None
        placed = (bid.get("revealed") or {}).get(str(seat))
        if placed is None:
            placed = (bid.get("commit") or {}).get("values", {}).get(str(seat))
        return None if placed is None else tuple(sorted(placed))

    game.rulebook_options = rulebook_options
    game.option_chosen = option_chosen
    return game


def test_the_check_finds_that_a_card_put_back_in_an_arkon_3_bid_cannot_be_bid_again():
    """Issue 23: in Arkon 3 a card put back during a bid cannot be picked again for that bid,
    although the rulebook lets a player place any subset of the hand. No cycle, a bounded end —
    and the check still finds the bids it took away."""
    game = _arkon_with_its_bids_declared("3")
    with pytest.raises(AssertionError, match=r"cannot reach after \[.*'unpick'"):
        for seed in range(3):
            check_decisions(game, 2, seed=seed, samples=40, every=3, max_nodes=3000)
