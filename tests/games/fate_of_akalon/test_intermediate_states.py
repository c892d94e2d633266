"""view, to_act and legal_moves are total: they answer for every state a log passes through,
not only for the states between two decisions (clients and audits fold logs event by event)."""
import pytest

from shared.engine.conformance import check_playouts
from shared.games.fate_of_akalon import GAME


@pytest.mark.parametrize("players", [2, 3, 4])
def test_view_to_act_and_legal_moves_answer_after_every_single_event(players):
    for result in check_playouts(GAME, players, {}, seeds=range(40, 42)):
        state: dict = {}
        for event in result.events:
            GAME.apply(state, event)
            acting = GAME.to_act(state)
            assert set(acting) <= set(range(players))
            for seat in range(players):
                moves = GAME.legal_moves(state, seat)
                assert isinstance(moves, list)
                assert bool(moves) == (seat in acting)  # whoever is awaited has something to do
                view = GAME.view(state, seat)
                if state.get("step") != "over":
                    for other, zone in enumerate(view["zones"]):
                        assert zone["deck"] == {"count": len(state["zones"][other]["deck"])}
                        if other != seat:
                            assert zone["hand"] == {"count": len(state["zones"][other]["hand"])}
            spectator = GAME.view(state, None)
            if state.get("step") != "over":
                assert all(isinstance(z["hand"], dict) for z in spectator["zones"])
        assert GAME.outcome(state) is not None
