"""Platform properties for every registered game, through the match runtime on a real Redis:

for seeded random playouts of every player count, every listed legal move is accepted, junk and
off-turn moves are rejected with a reason, the served state equals the log folded from scratch,
deleting snapshots changes no answer, redacted logs never hold another seat's private part, and
the audit re-derives every chance outcome from the revealed seed.
"""
import random

import pytest

from shared.canonical import dumps
from shared.engine import registry
from shared.engine.errors import IllegalMove
from shared.eventstore import EventStore
from shared.matches import Forbidden, Matches

MAX_STEPS = 1500


def cases():
    registry.load_all()
    for game in registry.all_games():
        for players in range(game.min_players, game.max_players + 1):
            yield pytest.param(game.id, players, id=f"{game.id}-{players}p")


@pytest.mark.parametrize("game_id,players", list(cases()))
def test_random_playouts_through_the_match_runtime(r, game_id, players):
    for seed in range(2):
        _playout(r, game_id, players, seed)


def _playout(r, game_id, players, seed):
    rnd = random.Random(seed)
    matches = Matches(EventStore(r), snapshot_every=5)
    match_id = f"{game_id}-{players}-{seed}"
    seats = [{"player_id": f"p{i}"} for i in range(players)]
    mstate = matches.create(match_id, game_id, {}, seats)
    steps = 0
    while mstate["status"] == "active" and steps < MAX_STEPS:
        acting = matches.to_act(mstate)
        assert acting, "an active match must wait on someone"
        seat = rnd.choice(acting)
        moves = matches.legal_moves(match_id, seat)["moves"]
        assert moves
        idle = [s for s in range(players) if s not in acting]
        if idle and steps % 9 == 0:
            with pytest.raises(Forbidden):
                matches.submit(match_id, idle[0], moves[0], mstate["version"])
        if steps % 11 == 0:
            with pytest.raises(IllegalMove) as err:
                matches.submit(match_id, seat, {"type": "definitely-not-a-move"}, mstate["version"])
            assert err.value.reason
        done = matches.submit(match_id, seat, rnd.choice(moves), mstate["version"])
        mstate = done.state
        steps += 1
    if mstate["status"] == "active":
        matches.abort(match_id, "test playout step limit")
    # the served state is the fold of the log; snapshots are only a cache
    head = matches.state(match_id)
    versions = sorted({1, 2, head["version"] // 2, head["version"] - 1, head["version"]})
    answers = {v: dumps(matches.view(match_id, 0, at=v)) for v in versions}
    fresh = Matches(EventStore(r), snapshot_every=5)
    fresh.store.delete_snapshots(match_id)
    assert {v: dumps(fresh.view(match_id, 0, at=v)) for v in versions} == answers
    audit = fresh.audit(match_id)
    assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"], audit


@pytest.mark.parametrize("game_id,players", list(cases()))
def test_redacted_logs_hold_no_other_seats_private_parts(r, game_id, players):
    """Each record as it is shown while the match is active (the whole log opens at the end)."""
    rnd = random.Random(7)
    matches = Matches(EventStore(r), snapshot_every=0)
    match_id = f"leak-{game_id}-{players}"
    mstate = matches.create(match_id, game_id, {}, [{"player_id": f"p{i}"} for i in range(players)])
    game = matches.game_of(mstate)
    for _ in range(300):
        if mstate["status"] != "active":
            break
        seat = rnd.choice(matches.to_act(mstate))
        mstate = matches.submit(match_id, seat, rnd.choice(matches.legal_moves(match_id, seat)["moves"]),
                                mstate["version"]).state
    records = matches.store.read(match_id)
    assert any(rec.get("private") or rec.get("secret") for rec in records), "no hidden information to check"
    for viewer in list(range(players)) + [None]:
        for rec in records:
            out = matches.present(rec, viewer, game, False)
            assert "secret" not in out and "private" not in out and "cause" not in out
            own = (rec.get("private") or {}).get(str(viewer), {}) if viewer is not None else {}
            for owner, part in (rec.get("private") or {}).items():
                if viewer is not None and owner == str(viewer):
                    continue
                for key, value in part.items():
                    if key in rec["data"] or own.get(key) == value:
                        continue  # public, or something the viewer legitimately knows too
                    assert out["data"].get(key) != value, f"{rec['type']} leaks seat {owner}'s {key} to {viewer}"
