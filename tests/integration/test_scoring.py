"""Scoring on a real Redis (and fakeredis): standings, ratings, exactly-once effect, crash recovery, rebuild."""
import pytest

from services.scoring.consumer import make_consumer
from services.scoring.rebuild import rebuild
from services.scoring.store import ScoringStore
from shared.streams import MATCHES_FINISHED, Consumer, publish, trim

pytestmark = pytest.mark.store  # each test taking `r`: on a real Redis and on fakeredis


def finished(match_id, seats, ranks, scores=None, teams=None, abandoned=(), game="duel"):
    return {"match_id": match_id, "game": game, "status": "finished", "seats": seats, "abandoned": list(abandoned),
            "outcome": {"ranks": ranks, "scores": scores or [0] * len(ranks), "teams": teams}}


A, B, C, D = ({"player_id": p, "name": p.upper()} for p in "abcd")


def test_the_winner_gains_and_the_loser_loses_rating(r):
    store = ScoringStore(r)
    result = store.record(finished("m1", [A, B], [1, 2]))
    assert result["ratings"]["a"]["after"] > result["ratings"]["a"]["before"]
    assert result["ratings"]["b"]["after"] < result["ratings"]["a"]["after"]
    assert [row["rank"] for row in result["standings"]] == [1, 2]
    board = store.leaderboard("duel", 10)
    assert [e["player_id"] for e in board] == ["a", "b"] and board[0]["matches"] == 1 and board[0]["provisional"]


def test_the_same_match_delivered_twice_counts_once(r):
    store = ScoringStore(r)
    first = store.record(finished("m1", [A, B], [1, 2]))
    before = store.leaderboard("duel", 10)
    again = store.record(finished("m1", [A, B], [2, 1]))
    assert again == first and store.leaderboard("duel", 10) == before


def test_an_abandoning_player_is_ranked_last(r):
    result = ScoringStore(r).record(finished("m1", [A, B, C], [1, 2, 3], abandoned=[0]))
    assert [row["rank"] for row in result["standings"]] == [3, 1, 2]
    assert result["standings"][0]["abandoned"] is True


def test_shared_wins_and_ties_keep_equal_ranks(r):
    result = ScoringStore(r).record(finished("m1", [A, B, C], [1, 1, 3]))
    assert result["ratings"]["a"]["after"] == pytest.approx(result["ratings"]["b"]["after"])


def test_teams_are_rated_as_teams(r):
    result = ScoringStore(r).record(finished("m1", [A, B, C, D], [1, 2, 1, 2], teams=[[0, 2], [1, 3]]))
    for winner in "ac":
        assert result["ratings"][winner]["after"] > result["ratings"][winner]["before"]
    for loser in "bd":
        assert result["ratings"][loser]["after"] < result["ratings"][loser]["before"]


def test_bots_are_rated_as_players_of_their_own_and_bot_only_matches_touch_only_bots(r):
    store = ScoringStore(r)
    store.record(finished("m0", [A, B], [1, 2]))
    humans = {e["player_id"]: e["rating"] for e in store.leaderboard("duel", 10)}
    store.record(finished("m1", [{"bot": "greedy"}, {"bot": "random"}, {"bot": "greedy"}], [1, 3, 2]))
    board = {e["player_id"]: e for e in store.leaderboard("duel", 10)}
    assert board["bot:greedy"]["rating"] > board["bot:random"]["rating"]
    assert {k: board[k]["rating"] for k in humans} == humans
    assert store.player_ratings("bot:greedy")["duel"]["matches"] == 1


def test_unfinished_or_aborted_matches_are_not_rated(r):
    assert ScoringStore(r).record({"match_id": "m1", "game": "duel", "status": "aborted", "seats": [A, B],
                                   "outcome": None}) is None


def test_a_consumer_killed_mid_batch_loses_nothing(r):
    for i in range(5):
        publish(r, MATCHES_FINISHED, finished(f"m{i}", [A, B], [1, 2] if i % 2 else [2, 1]))
    calls = []
    store = ScoringStore(r)

    def crashing(_id, message):
        calls.append(message["match_id"])
        if len(calls) == 3:
            raise RuntimeError("killed")  # the third entry stays pending, unacknowledged
        store.record(message)

    from shared.streams import Consumer

    Consumer(r, MATCHES_FINISHED, "scoring", crashing, name="first", claim_idle_ms=0).poll(block_ms=10)
    assert store.result("m2") is None
    survivor = make_consumer(r, name="second", claim_idle_ms=0)
    survivor.poll(block_ms=10)
    assert all(store.result(f"m{i}") for i in range(5))
    assert r.xpending(MATCHES_FINISHED, "scoring")["pending"] == 0
    assert store.rating("duel", "a").matches == 5


# fakeredis 2.40: XPENDING's IDLE filter keeps only entries idle *longer* than the minimum (Redis: at
# least as long, and IDLE 0 filters nothing), so with claim_idle_ms=0 an entry delivered in the same
# millisecond is never reclaimed there. (The consumers' real minimum, 30 s, is not affected.)
@pytest.mark.real_redis("fakeredis's XPENDING IDLE is strict: see above")
def test_an_entry_that_keeps_failing_is_parked_on_the_dead_letter_stream(r):
    from shared.streams import Consumer

    publish(r, MATCHES_FINISHED, {"match_id": "broken"})
    failing = Consumer(r, MATCHES_FINISHED, "g", lambda *_: 1 / 0, claim_idle_ms=0, max_deliveries=3)
    for _ in range(4):
        failing.poll(block_ms=10)
    dead = r.xrange(f"{MATCHES_FINISHED}:dead")
    assert len(dead) == 1 and b"broken" in dead[0][1][b"m"]
    assert r.xpending(MATCHES_FINISHED, "g")["pending"] == 0


def test_rebuild_gives_identical_leaderboards_after_the_stream_was_trimmed(r):
    players = [A, B, C, D]
    for i in range(12):
        seats = [players[(i + k) % 4] for k in range(3)]
        publish(r, MATCHES_FINISHED, finished(f"m{i}", seats, [1 + (i + k) % 3 for k in range(3)]))
    make_consumer(r).poll(block_ms=10)
    assert trim(r, MATCHES_FINISHED) == 0  # the match indexer has not read them yet: kept for it
    Consumer(r, MATCHES_FINISHED, "rules-index", lambda *_: None).poll(block_ms=10)
    assert trim(r, MATCHES_FINISHED) == 0  # nor the tournaments' consumer (matchmaking)
    Consumer(r, MATCHES_FINISHED, "matchmaking-tournaments", lambda *_: None).poll(block_ms=10)
    assert trim(r, MATCHES_FINISHED) == 12 and r.xlen(MATCHES_FINISHED) == 0  # all read: retention drops them
    store = ScoringStore(r)
    before = (store.leaderboard("duel", 100), {p["player_id"]: store.player_ratings(p["player_id"]) for p in players},
              store.result("m7"))
    assert rebuild(r) == 12
    after = (store.leaderboard("duel", 100), {p["player_id"]: store.player_ratings(p["player_id"]) for p in players},
             store.result("m7"))
    assert after == before
