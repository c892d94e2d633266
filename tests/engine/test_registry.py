from shared.engine import registry


def test_every_game_package_imports_and_registers():
    registry.load_all()
    assert registry.load_errors == {}
    ids = {g.id for g in registry.all_games()}
    assert "duel" in ids


def test_unknown_game_is_a_key_error():
    import pytest

    with pytest.raises(KeyError):
        registry.get("no-such-game")


def test_decision_kinds_dispatch_and_refuse_a_second_registration():
    import pytest

    from shared.engine.pending import DecisionKinds, push, top

    kinds = DecisionKinds()
    answered = []
    kinds.register("choose", lambda state, d: [{"type": "pick", "n": n} for n in d["of"]],
                   lambda tx, d, move: answered.append(move["n"]))
    state: dict = {}
    push(state, 1, "choose", of=[3, 4])
    assert kinds.moves(state, top(state)) == [{"type": "pick", "n": 3}, {"type": "pick", "n": 4}]
    kinds.answer(None, top(state), {"type": "pick", "n": 4})
    assert answered == [4] and "choose" in kinds
    with pytest.raises(ValueError):
        kinds.register("choose", None, None)
