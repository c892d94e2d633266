"""The engine's conformance property checks over seeded random games."""
import pytest

from shared.engine.conformance import check_playouts

from .helpers import GAME

OPTION_SETS = [{}, {"tribal_powers": True}]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["base", "tribal_powers"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_playouts(players, options):
    results = check_playouts(GAME, players, options, seeds=range(4))
    assert all(GAME.outcome(r.state) is not None for r in results)


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=["base", "tribal_powers"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_conformance_playouts_many_seeds(players, options):
    check_playouts(GAME, players, options, seeds=range(100, 115), full_check_every=3)


def test_roll_is_drawn_when_the_turn_rolls_not_before():
    """The same state yields different rolls under different generators: no face is stored in
    advance; the faces appear first in the turn's "rolled" event."""
    from .helpers import Dice, at, play
    from .scenarios import two

    state = at(two(), 1, kind="goals", step="goals")
    _, ev_a = play(state, 1, {"type": "end_turn"}, Dice("sun", "sun"))
    _, ev_b = play(state, 1, {"type": "end_turn"}, Dice("moon", "blank"))
    assert [e["data"]["dice"] for e in ev_a if e["type"] == "rolled"] == [["sun", "sun"]]
    assert [e["data"]["dice"] for e in ev_b if e["type"] == "rolled"] == [["moon", "blank"]]


def test_goal_hands_face_up_decks_hidden_in_views():
    result = check_playouts(GAME, 3, {}, seeds=[3])[0]
    midgame = GAME.fold(result.events[: len(result.events) // 2])
    assert midgame["winner"] is None
    for seat in (0, 1, 2, None):
        v = GAME.view(midgame, seat)
        for s, raw in zip(v["seats"], midgame["seats"]):
            assert s["deck"] == {"count": len(raw["deck"])}
            assert s["progress"] == raw["progress"]
        for e in result.events:
            red = GAME.redact(e, seat)
            assert "goal_decks" not in red["data"] and "order" not in red["data"]


@pytest.mark.parametrize("players", [2, 4])
def test_bots_random_and_greedy_finish_games(players):
    from shared.bots.arena import play_match

    levels = ["greedy"] + ["random"] * (players - 1)
    record = play_match(GAME, levels, {"tribal_powers": True}, seed=players)
    assert record.outcome.ranks.count(1) == 1
    assert max(record.outcome.scores) >= 15


def test_views_open_once_the_game_is_over():
    result = check_playouts(GAME, 2, {}, seeds=[11])[0]
    assert GAME.view(result.state, None) == result.state


@pytest.mark.parametrize("options", OPTION_SETS, ids=["base", "tribal_powers"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_view_to_act_and_legal_moves_total_over_every_intermediate_state_of_the_log(players, options):
    """Fold random matches one event at a time (not one move at a time): after every single
    event, the view of each seat and of a spectator, ``to_act`` and every seat's legal moves are
    defined (a client or an audit may stop anywhere in the log)."""
    from shared.canonical import encode

    for seed in (21, 22):
        events = check_playouts(GAME, players, options, seeds=[seed], full_check_every=10_000)[0].events
        state = {}
        for event in events:
            state = GAME.evolve(state, event)
            for seat in list(range(players)) + [None]:
                encode(GAME.view(state, seat))
            acting = GAME.to_act(state)
            assert all(0 <= s < players for s in acting)
            for seat in range(players):
                assert isinstance(GAME.legal_moves(state, seat), list)
        assert GAME.outcome(state) is not None
