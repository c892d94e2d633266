"""Every prefix of a match's log is a state the rules can answer about (``GET /view?at=N``).

A move emits several events; the states between them are no decision points, yet views,
``to_act`` and legal moves must still answer for them (a client may ask for any version). The
General Rules' hand limit holds after every single event, not only after whole moves.
"""
import pytest

from shared.canonical import clone, encode
from shared.games.arkon.content import HAND_LIMIT
from shared.rng import FastRng, SeededRng

from .helpers import GAME

OPTION_SETS = [{}, {"promo_cards": ["reinforcements", "savin"], "roles": True}]


def random_match(players, options, seed, max_moves=3000):
    """The events of a random match, move by move (each a list of events)."""
    opts = GAME.validate_options(players, options)
    setup = GAME.setup(players, opts, SeededRng(f"prefix-{seed}".encode(), "setup"))
    state = GAME.fold(setup)
    chooser = FastRng(seed)
    moves = [setup]
    while GAME.outcome(state) is None and len(moves) < max_moves:
        acting = GAME.to_act(state)
        seat = acting[chooser.randbelow(len(acting))]
        legal = GAME.legal_moves(state, seat)
        events = GAME.decide(state, seat, legal[chooser.randbelow(len(legal))], FastRng(len(moves)))
        state = GAME.fold(events, state)
        moves.append(events)
    return moves


def answers(state, players):
    """Everything a client can ask about a state, for every seat and a spectator."""
    acting = GAME.to_act(state)
    legal = {seat: GAME.legal_moves(state, seat) for seat in range(players)}
    views = [GAME.view(state, seat) for seat in [*range(players), None]]
    encode(views)
    return acting, legal, views


@pytest.mark.parametrize("options", OPTION_SETS, ids=["base", "promo+roles"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_views_to_act_and_legal_moves_answer_after_every_single_event(players, options):
    for seed in range(2):
        state = {}
        for move in random_match(players, options, seed):
            for i, event in enumerate(move):
                state = GAME.evolve(state, clone(event))
                acting, legal, views = answers(state, players)
                assert all(bool(legal[s]) == (s in acting) for s in range(players))
                # General Rules: "A player may not have a hand size greater than 8 cards"
                assert max(views[-1]["hand_sizes"]) <= HAND_LIMIT, event["type"]
                if i < len(move) - 1 or GAME.outcome(state) is not None:
                    continue
                assert acting, "a whole move always ends where someone decides"
