"""Idempotency-Key (IETF draft "The Idempotency-Key HTTP Header Field"): a retry gets the first
answer, a concurrent duplicate gets that answer or a 409 "in progress" (never "stale version"),
a key reused with another body is a 422, and keys expire after 24 hours."""
import threading

import pytest
import redis
import requests

from shared.engine.errors import IllegalMove
from shared.eventstore import EventStore
from shared.eventstore.store import IDEMPOTENCY_TTL_S, Conflict, idempotency_key
from shared.matches import KeyReused, Matches, RequestInProgress, request_fingerprint
from tests.support.stack import Client, seat_players

pytestmark = pytest.mark.store  # each test taking `r`: on a real Redis and on fakeredis

PROBLEM = "application/problem+json"


def _duel(matches):
    matches.create("m1", "duel", {}, [{"player_id": "a"}, {"player_id": "b"}])
    mstate = matches.state("m1")
    return mstate, matches.game_of(mstate).legal_moves(mstate["game"], 0)


def test_a_retry_gets_the_first_answer_and_appends_nothing(r):
    matches = Matches(EventStore(r))
    mstate, moves = _duel(matches)
    first = matches.submit("m1", 0, moves[0], mstate["version"], "k1")
    again = matches.submit("m1", 0, moves[0], mstate["version"], "k1")
    assert again.replayed and again.body() == first.body()
    assert matches.store.version("m1") == first.version


def test_a_bot_moves_answer_is_kept_only_as_long_as_its_token_lives(r, monkeypatch):
    """Only the bot's own token, which expires after BOT_TOKEN_TTL_S, can retry a bot's move, so
    its stored answer goes with it; a person's answer is kept the promised 24 hours."""
    monkeypatch.setenv("BOT_TOKEN_TTL_S", "300")
    matches = Matches(EventStore(r))
    matches.create("m1", "duel", {}, [{"bot": "random"}, {"player_id": "b"}])
    mstate = matches.state("m1")
    game = matches.game_of(mstate)
    bot = matches.submit("m1", 0, game.legal_moves(mstate["game"], 0)[0], mstate["version"], "bot-key", as_bot=True)
    person = matches.submit("m1", 1, game.legal_moves(matches.state("m1")["game"], 1)[0], bot.version, "human-key")
    assert 0 < r.ttl(idempotency_key("m1", "0:bot-key")) <= 300
    assert 300 < r.ttl(idempotency_key("m1", "1:human-key")) <= IDEMPOTENCY_TTL_S
    again = matches.submit("m1", 0, game.legal_moves(mstate["game"], 0)[0], mstate["version"], "bot-key", as_bot=True)
    assert again.replayed and again.body() == bot.body() and person.version > bot.version


def test_a_key_reused_with_another_body_is_refused(r):
    matches = Matches(EventStore(r))
    mstate, moves = _duel(matches)
    matches.submit("m1", 0, moves[0], mstate["version"], "k1")
    with pytest.raises(KeyReused):
        matches.submit("m1", 0, moves[1], mstate["version"], "k1")
    with pytest.raises(KeyReused):
        matches.submit("m1", 0, moves[0], mstate["version"] + 1, "k1")


def test_a_key_whose_first_request_is_running_answers_in_progress(r):
    matches = Matches(EventStore(r))
    mstate, moves = _duel(matches)
    assert matches.store.claim_idempotency("m1", "0:k1", request_fingerprint(moves[0], mstate["version"]), "other") is None
    with pytest.raises(RequestInProgress):
        matches.submit("m1", 0, moves[0], mstate["version"], "k1")
    assert matches.store.version("m1") == mstate["version"]


def test_a_refused_request_frees_its_key(r):
    matches = Matches(EventStore(r))
    mstate, moves = _duel(matches)
    with pytest.raises(IllegalMove):
        matches.submit("m1", 0, {"type": "commit", "card": 999}, mstate["version"], "k1")
    assert r.get(idempotency_key("m1", "0:k1")) is None
    with pytest.raises(Conflict):  # stale version: not stored either
        matches.submit("m1", 0, moves[0], mstate["version"] - 1, "k2")
    assert r.get(idempotency_key("m1", "0:k2")) is None
    assert matches.submit("m1", 0, moves[0], mstate["version"], "k1").version > mstate["version"]


def test_keys_are_per_seat_and_expire_after_24_hours(r):
    matches = Matches(EventStore(r))
    mstate, moves = _duel(matches)
    mine = matches.submit("m1", 0, moves[0], mstate["version"], "same")
    bobs = matches.game_of(mine.state).legal_moves(mine.state["game"], 1)
    theirs = matches.submit("m1", 1, bobs[0], mine.version, "same")
    assert not theirs.replayed and theirs.version > mine.version
    for seat in (0, 1):
        key = idempotency_key("m1", f"{seat}:same")
        assert key.startswith("{m:m1}:") and 0 < r.ttl(key) <= IDEMPOTENCY_TTL_S == 86400


def test_twenty_concurrent_requests_sharing_a_key_apply_one_move(stack):
    """Through gunicorn: every answer is the stored 201 or a 409 in-progress; none is stale-version."""
    alice, bob = Client.register(stack, "idem-a"), Client.register(stack, "idem-b")
    mid = seat_players(alice, {"game": "duel", "seats": [
        {"player_id": alice.player_id}, {"player_id": bob.player_id}]}, [bob])
    base = f"{stack.rules}/v1/matches/{mid}"
    turn = alice.get(f"{base}/turn").json()
    body = {"move": turn["moves"][0], "expected_version": turn["version"]}
    answers, barrier = [], threading.Barrier(20)

    def post():
        client = Client(stack, alice.token)
        barrier.wait()
        resp = client.post(f"{base}/moves", json=body, headers={"Idempotency-Key": "one-move"})
        answers.append((resp.status_code, resp.headers.get("Content-Type", ""), resp.json()))

    threads = [threading.Thread(target=post) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    created = [a for a in answers if a[0] == 201]
    assert created and all(a[2] == created[0][2] for a in created)
    for status, ctype, answer in answers:
        assert status in (201, 409), (status, answer)
        if status == 409:
            assert ctype.startswith(PROBLEM) and answer["type"] == "urn:problem:request-in-progress", answer
    events = requests.get(f"{base}/events", params={"after": turn["version"]}).json()["events"]
    assert len(events) == 1 and events[0]["type"] == "committed"
    retry = alice.post(f"{base}/moves", json=body, headers={"Idempotency-Key": "one-move"})
    assert retry.status_code == 201 and retry.json() == created[0][2]
    other = alice.post(f"{base}/moves", json={"move": turn["moves"][-1], "expected_version": turn["version"]},
                       headers={"Idempotency-Key": "one-move"})
    assert other.status_code == 422 and other.json()["type"] == "urn:problem:idempotency-key-reused"


def test_the_key_store_lives_in_the_match_slot(r):
    matches = Matches(EventStore(redis.Redis(connection_pool=r.connection_pool)))
    mstate, moves = _duel(matches)
    matches.submit("m1", 0, moves[0], mstate["version"], "k")
    slots = {key.decode().split("}")[0] for key in r.keys("*") if key.startswith(b"{m:")}
    assert slots == {"{m:m1"}


def test_a_resignation_is_taken_on_the_new_head_when_another_move_lands_first(r):
    """A resignation names no version: a bot's move that lands between its read and its append is
    not the client's conflict (before, the client got a 409)."""
    matches, other = Matches(EventStore(r)), Matches(EventStore(r))
    matches.create("m3", "duel", {}, [{"player_id": "a"}, {"bot": "random"}, {"bot": "random"}])
    commit = matches._commit
    raced = []

    def bot_moves_first(match_id, mstate, *args, **kw):
        if not raced:  # the other seat's move lands just before our append
            head = other.state(match_id)
            game = other.game_of(head)
            raced.append(other.submit(match_id, 1, game.legal_moves(head["game"], 1)[0], head["version"], as_bot=True))
        return commit(match_id, mstate, *args, **kw)

    matches._commit = bot_moves_first
    done = matches.resign("m3", 0)
    assert raced and done.version > raced[0].version
    assert matches.state("m3")["controllers"][0] == "greedy"
