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
