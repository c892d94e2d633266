"""The tournament log's chain and the pure fold: standings, tie-breaks, byes, withdrawals, the
next step of each format."""
from __future__ import annotations

from shared.tournaments import fold as f
from shared.tournaments.chain import build_records, verify
from shared.tournaments.points import arena_points, table_points


def created(fmt="swiss", size=2, **kw):
    data = {"tournament_id": "T", "organiser": "o", "game": "duel", "format": fmt, "players_per_match": size,
            "rounds": 3, "duration_s": 60, "cutoff_s": 10, "options": {}, "turn_seconds": None, "max_entrants": 64}
    data.update(kw)
    return {"type": "tournament.created", "data": data}


def entered(e, rating=None):
    return {"type": "entrant.entered", "data": {"entrant_id": e, "player_id": f"p{e}", "name": e, "rating": rating}}


def run(events, at=0.0):
    return f.fold(build_records([], events, at))


def play(state_events, ranks_by_match):
    return [{"type": "match.recorded", "data": {"match_id": m, "ranks": r, "head_hash": "h" * 64}}
            for m, r in ranks_by_match.items()]


def test_points_scheme():
    assert table_points([1, 2]) == [1.0, 0.0]
    assert table_points([1, 1]) == [0.5, 0.5]
    assert table_points([1, 2, 3, 4]) == [1.0, 2 / 3, 1 / 3, 0.0]
    # a team game scores by side: teammates share the side's result
    assert table_points([1, 2, 1, 2], teams=[[0, 2], [1, 3]]) == [1.0, 0.0, 1.0, 0.0]
    assert arena_points([1, 2], 0, 0) == 2 and arena_points([1, 2], 0, 2) == 4 and arena_points([1, 1], 0, 0) == 1


def test_the_log_is_a_hash_chain_and_tampering_shows():
    recs = build_records([], [created(), entered("a"), entered("b")], 1.0)
    assert verify(recs) == (True, None)
    recs[1]["data"]["name"] = "mallory"
    assert verify(recs)[0] is False


def test_swiss_round_one_bye_and_standings_with_tiebreaks():
    events = [created()] + [entered(e, rating=r) for e, r in zip("abcde", (5, 4, 3, 2, 1))]
    events.append({"type": "tournament.started", "data": {}})
    state = run(events)
    step, pairing = f.next_step(state, 0)
    assert step == "pair" and len(pairing["tables"]) == 2 and pairing["byes"] == ["e"]
    tables = [{"match_id": f.match_id_for("T", 1, i), "entrants": list(t)} for i, t in enumerate(pairing["tables"])]
    events.append({"type": "round.paired", "data": {"round": 1, "tables": tables, "byes": ["e"]}})
    state = run(events)
    assert f.next_step(state, 0) == ("wait", None)  # the round is still being played
    events += [{"type": "match.recorded", "data": {"match_id": t["match_id"], "ranks": [1, 2], "head_hash": "h"}}
               for t in tables]
    state = run(events)
    rows = f.standings(state)
    assert [r["points"] for r in rows] == [1, 1, 1, 0, 0]
    winners = {t["entrants"][0] for t in tables}
    assert {r["entrant_id"] for r in rows[:3]} == winners | {"e"}
    assert all("buchholz" in r["tiebreaks"] and "sonneborn_berger" in r["tiebreaks"] for r in rows)
    step, pairing = f.next_step(state, 0)
    assert step == "pair" and "e" not in pairing["byes"]


def test_withdrawn_entrant_is_not_paired_and_keeps_past_results():
    events = [created(rounds=2)] + [entered(e) for e in "abcd"] + [{"type": "tournament.started", "data": {}}]
    state = run(events)
    _, pairing = f.next_step(state, 0)
    tables = [{"match_id": f"m{i}", "entrants": list(t)} for i, t in enumerate(pairing["tables"])]
    events.append({"type": "round.paired", "data": {"round": 1, "tables": tables, "byes": []}})
    events += [{"type": "match.recorded", "data": {"match_id": t["match_id"], "ranks": [1, 2], "head_hash": "h"}}
               for t in tables]
    quitter = tables[0]["entrants"][0]
    events.append({"type": "entrant.withdrew", "data": {"entrant_id": quitter}})
    state = run(events)
    step, pairing = f.next_step(state, 0)
    assert quitter not in {e for t in pairing["tables"] for e in t} | set(pairing["byes"])
    row = next(r for r in f.standings(state) if r["entrant_id"] == quitter)
    assert row["points"] == 1 and row["withdrawn"]


def test_round_robin_of_four_finishes_after_three_rounds():
    events = [created("round-robin")] + [entered(e) for e in "abcd"]
    events.append({"type": "tournament.started", "data": {"schedule": f.round_robin_schedule(list("abcd"))}})
    for n in range(1, 4):
        step, pairing = f.next_step(run(events), 0)
        assert step == "pair"
        tables = [{"match_id": f"m{n}{i}", "entrants": list(t)} for i, t in enumerate(pairing["tables"])]
        events.append({"type": "round.paired", "data": {"round": n, "tables": tables, "byes": pairing["byes"]}})
        events += [{"type": "match.recorded", "data": {"match_id": t["match_id"], "ranks": [1, 2], "head_hash": "h"}}
                   for t in tables]
    assert f.next_step(run(events), 0) == ("finish", None)


def test_arena_pairs_free_entrants_until_the_cutoff_and_finishes_after_the_end():
    events = [created("arena", duration_s=60, cutoff_s=10)] + [entered(e) for e in "abc"]
    events.append({"type": "tournament.started", "data": {}})
    state = run(events)
    step, pairing = f.next_step(state, 1.0)
    assert step == "pair" and len(pairing["tables"]) == 1
    events.append({"type": "round.paired", "data": {"round": 1, "tables": [
        {"match_id": "m1", "entrants": list(pairing["tables"][0])}], "byes": []}})
    state = run(events)
    assert f.next_step(state, 2.0) == ("wait", None)  # one free entrant: it waits
    events.append({"type": "match.recorded", "data": {"match_id": "m1", "ranks": [1, 2], "head_hash": "h"}})
    state = run(events)
    assert f.next_step(state, 3.0)[0] == "pair"
    assert f.next_step(state, 55.0) == ("wait", None)  # past the cut-off: no new pairing
    assert f.next_step(state, 61.0) == ("finish", None)
    assert f.standings(state)[0]["points"] == 2


def test_three_player_swiss_makes_pods_and_a_bye_for_the_remainder():
    events = [created(size=3)] + [entered(e) for e in "abcdefg"] + [{"type": "tournament.started", "data": {}}]
    step, pairing = f.next_step(run(events), 0)
    assert all(len(t) == 3 for t in pairing["tables"]) and len(pairing["byes"]) == 1
