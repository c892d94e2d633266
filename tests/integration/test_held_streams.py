"""shared/held_streams.py against a real Redis: the cap holds over several processes (each a
``HeldStreams`` here), places lapse when their process dies, and rotation ends held streams."""
from __future__ import annotations

import pytest

from shared.auth import Tokens
from shared.held_streams import LEASE_S, HeldStreams
from shared.web import ApiError


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


def streams(r, clock, cap=2):
    return HeldStreams(r, "test", per_player=cap, per_address=cap + 1, recheck_s=3600, clock=clock)


def test_the_cap_counts_the_streams_of_one_player_over_every_process(r):
    clock = Clock()
    tokens = Tokens("s", r)
    who = tokens.verify(tokens.for_player("p1"))
    one, two = streams(r, clock), streams(r, clock)
    a = one.claim(who, "10.0.0.1")
    two.claim(who, "10.0.0.2")
    with pytest.raises(ApiError) as refused:
        one.claim(who, "10.0.0.1")
    assert refused.value.status == 429 and refused.value.slug == "too-many-streams"
    assert "at most 2" in refused.value.detail and refused.value.extra["retry_after"] >= 1
    other = tokens.verify(tokens.for_player("p2"))
    two.claim(other, None)  # another player has places of its own
    one.release(a)
    one.release(a)  # idempotent
    assert one.claim(who, "10.0.0.1")


def test_anonymous_streams_count_per_address(r):
    clock = Clock()
    held = streams(r, clock, cap=1)
    held.claim(None, "10.0.0.1")
    held.claim(None, "10.0.0.1")
    with pytest.raises(ApiError):
        held.claim(None, "10.0.0.1")
    held.claim(None, "10.0.0.2")


def test_the_places_of_a_process_that_died_lapse_and_the_living_renew_theirs(r):
    clock = Clock()
    who = Tokens("s", r).verify(Tokens("s", r).for_player("p1"))
    dead, alive = streams(r, clock), streams(r, clock)
    dead.claim(who, None)
    alive.claim(who, None)
    clock.now += LEASE_S * 0.9
    alive.renew()  # the dead process renews nothing
    clock.now += LEASE_S * 0.2
    alive.claim(who, None)  # the dead one's place lapsed; the renewed one still counts
    with pytest.raises(ApiError):
        alive.claim(who, None)


def test_rotating_or_expiring_a_token_ends_its_held_streams_at_the_next_recheck(r):
    clock = Clock()
    tokens = Tokens("s", r, ttl_s=100, clock=clock)
    held = HeldStreams(r, "test", per_player=10, per_address=10, recheck_s=3600, clock=clock)
    rotated = held.claim(tokens.verify(tokens.for_player("p1")), None)
    kept = held.claim(tokens.verify(tokens.for_player("p2")), None)
    anonymous = held.claim(None, "10.0.0.1")
    assert held.recheck() == 0 and not rotated.ended
    tokens.rotate("p1")
    assert held.recheck() == 1
    assert rotated.ended and "rotated" in rotated.reason and not kept.ended and not anonymous.ended
    clock.now += 101
    assert held.recheck() == 1 and kept.ended and "expired" in kept.reason
