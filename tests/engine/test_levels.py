"""Bot levels and their published strength (shared/bots/levels.py, shared/bots/strength/)."""
import json

import pytest

from shared.bots import levels
from shared.engine import registry

GAMES = [g.id for g in registry.all_games() if g.id != "duel"]


def test_levels_are_listed_weakest_first_with_a_description():
    described = levels.describe("no-such-game")
    assert [d["level"] for d in described] == list(levels.LEVELS) == ["random", "greedy", "search"]
    assert all(d["description"] for d in described)
    assert all(d["against_level_below"] == [] for d in described[1:])  # nothing measured, nothing claimed


def test_records_are_read_from_the_evaluation_lines(tmp_path, monkeypatch):
    line = {"bench": "eval_bots", "game": "g", "players": 2, "hero": "search", "villain": "greedy",
            "games": 100, "hero_win_rate": 0.7, "ci95": [0.6, 0.78], "fair_share": 0.5, "options": {}}
    other = dict(line, hero="greedy", villain="random", hero_win_rate=0.95, ci95=[0.89, 0.98])
    (tmp_path / "g.jsonl").write_text("\n".join(json.dumps(x) for x in (line, other)) + "\n")
    monkeypatch.setattr(levels, "DATA", tmp_path)
    levels.measurements.cache_clear()
    try:
        by_level = {d["level"]: d for d in levels.describe("g")}
    finally:
        levels.measurements.cache_clear()
    assert by_level["search"]["against_level_below"][0]["win_rate"] == 0.7
    assert by_level["search"]["against_level_below"][0]["level"] == "greedy"
    assert by_level["greedy"]["against_level_below"][0]["win_rate"] == 0.95


def test_only_the_budget_the_server_plays_at_is_published():
    """A tuning run at another iteration count is not the search level's record."""
    tuned = levels.SearchParams.for_game(registry.get("arkon")).iterations
    line = {"bench": "eval_bots", "hero": "search", "villain": "greedy", "iterations": tuned}
    assert levels.as_offered("arkon", line)
    assert not levels.as_offered("arkon", dict(line, iterations=tuned * 2))
    assert levels.as_offered("arkon", dict(line, hero="greedy", villain="random", iterations=None))
    published = levels.describe("arkon")[2]["against_level_below"]
    assert published and all(r["matches"] for r in published)
    raw = [r for r in levels.measurements("arkon") if r.get("hero") == "search"]
    assert len(published) == sum(levels.as_offered("arkon", r) for r in raw)


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_publishes_its_levels_measured_at_two_players(game_id):
    """Every level of every game has a 2-player record of at least 100 matches against the level below."""
    described = {d["level"]: d for d in levels.describe(game_id)}
    for level in ("greedy", "search"):
        two = [r for r in described[level]["against_level_below"] if r["players"] == 2]
        assert two and two[0]["matches"] >= 100, f"{game_id}: {level} vs the level below is not measured"


@pytest.mark.parametrize("game_id", GAMES)
def test_each_game_publishes_a_calibration_that_orders_the_levels(game_id):
    calibration = levels.calibration(game_id)
    assert calibration, f"{game_id}: no calibration run recorded"
    values = [calibration["ratings"][lv]["rating"] for lv in levels.LEVELS]
    assert calibration["order"] == list(levels.LEVELS) and values == sorted(values)
