"""Bot levels and their published strength (shared/bots/levels.py, shared/bots/strength/)."""
import json
from dataclasses import asdict

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


def test_only_the_search_the_server_plays_is_published():
    """A tuning run with other search parameters (budget or opponent model) is not the search
    level's record; an older line that gives only its iterations was measured with tree opponents."""
    tuned = asdict(levels.SearchParams.for_game(registry.get("duel")))
    line = {"bench": "eval_bots", "hero": "search", "villain": "greedy", "iterations": None, "search": tuned}
    assert levels.as_offered("duel", line)
    assert not levels.as_offered("duel", dict(line, search=dict(tuned, iterations=tuned["iterations"] * 2)))
    assert not levels.as_offered("duel", dict(line, search=dict(tuned, opponents="greedy")))
    assert levels.as_offered("duel", dict(line, hero="greedy", villain="random", search=None))
    legacy = {"bench": "eval_bots", "hero": "search", "villain": "greedy", "iterations": tuned["iterations"]}
    assert tuned["opponents"] == "tree" and levels.as_offered("duel", legacy)
    assert not levels.as_offered("duel", dict(legacy, iterations=tuned["iterations"] + 1))


def test_each_game_publishes_exactly_its_lines_as_offered():
    for game_id in GAMES:
        published = levels.describe(game_id)[2]["against_level_below"]
        assert published and all(r["matches"] for r in published)
        raw = [r for r in levels.measurements(game_id) if r.get("hero") == "search"]
        assert len(published) == sum(levels.as_offered(game_id, r) for r in raw)


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


def test_an_evaluation_line_records_the_search_it_played_and_is_published_only_as_offered():
    from bench.eval_bots import evaluate

    budget = evaluate("duel", "search", "greedy", 2, 2, iterations=20)
    assert budget["search"]["iterations"] == 20 and not levels.as_offered("duel", budget)
    tuned = evaluate("duel", "search", "greedy", 2, 2, search={"opponents": "tree"})
    assert tuned["search"] == asdict(levels.SearchParams.for_game(registry.get("duel")))
    assert levels.as_offered("duel", tuned)
    other = evaluate("duel", "search", "greedy", 2, 2, search={"opponents": "greedy"})
    assert other["search"]["opponents"] == "greedy" and not levels.as_offered("duel", other)
    assert evaluate("duel", "greedy", "random", 2, 2)["search"] is None
