"""Pairing properties over many random events (hypothesis): no repeated pairing while another
pairing exists, byes distributed, round robin complete, tables of the right size."""
from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings, strategies as st

from shared.tournaments.pairing import arena, met_counts, pods, roundrobin, swiss

FAST = settings(max_examples=60, deadline=None)


def names(n):
    return [f"e{i}" for i in range(n)]


def perfect_pairings(people):
    """Every way to split ``people`` into pairs (plus one bye when odd), as (pairs, bye)."""
    if len(people) % 2:
        for i, bye in enumerate(people):
            for pairs, _ in perfect_pairings(people[:i] + people[i + 1:]):
                yield pairs, bye
        return
    if not people:
        yield [], None
        return
    first = people[0]
    for i in range(1, len(people)):
        rest = people[1:i] + people[i + 1:]
        for pairs, _ in perfect_pairings(rest):
            yield [(first, people[i])] + pairs, None


def cost(pairs, bye, met, byes):
    return (byes.get(bye, 0) if bye else 0, sum(met.get(frozenset(p), 0) for p in pairs))


@FAST
@given(st.integers(2, 8), st.integers(0, 6), st.randoms(use_true_random=False))
def test_swiss_never_rematches_or_repeats_a_bye_when_avoidable(n, rounds, rnd):
    people = names(n)
    history, byes, points = [], {}, {e: 0.0 for e in people}
    for _ in range(rounds):
        order = sorted(people, key=lambda e: -points[e])
        tables, out = swiss.pair(order, points, history, byes)
        met = met_counts(history)
        seated = [e for t in tables for e in t] + out
        assert sorted(seated) == sorted(people)
        assert all(len(t) == 2 for t in tables) and len(out) == n % 2
        best = min(cost(p, b, met, byes) for p, b in perfect_pairings(people))
        assert cost(tables, out[0] if out else None, met, byes) == best
        for e in out:
            byes[e] = byes.get(e, 0) + 1
            points[e] += 1
        for a, b in tables:
            points[rnd.choice((a, b))] += 1
        history += tables
    assert max(byes.values(), default=0) <= 1 or rounds > n


@FAST
@given(st.integers(4, 9))
def test_swiss_keeps_score_groups_together(n):
    people = names(n)
    points = {e: (2.0 if i < 4 else 0.0) for i, e in enumerate(people)}
    tables, _ = swiss.pair(people, points, [], {})
    top = set(people[:4])
    # the four leaders are paired among themselves
    assert sum(1 for t in tables if set(t) <= top) == 2


@FAST
@given(st.integers(2, 12))
def test_round_robin_is_complete(n):
    people = names(n)
    rounds = roundrobin.schedule(people)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = met_counts([t for tables, _ in rounds for t in tables])
    assert set(met) == {frozenset(p) for p in combinations(people, 2)}
    assert set(met.values()) == {1}
    for tables, out in rounds:
        seated = [e for t in tables for e in t] + out
        assert sorted(seated) == sorted(people)
        assert len(out) == n % 2
    if n % 2:  # each entrant has exactly one bye
        assert sorted(b for _, out in rounds for b in out) == sorted(people)


@FAST
@given(st.integers(3, 5), st.integers(3, 16), st.integers(1, 6), st.randoms(use_true_random=False))
def test_pods_have_the_right_size_and_spread_byes(size, n, rounds, rnd):
    people = names(n)
    history, byes = [], {}
    for _ in range(rounds):
        order = list(people)
        rnd.shuffle(order)
        tables, out = pods.pair(order, size, history, byes)
        assert all(len(t) == size for t in tables)
        assert len(out) == (n % size if n >= size else n)
        assert sorted([e for t in tables for e in t] + out) == sorted(people)
        # a second bye only once everyone who could take one had one
        for e in out:
            byes[e] = byes.get(e, 0) + 1
        assert max(byes.values(), default=0) - min(byes.get(e, 0) for e in people) <= 1
        history += tables


def test_pods_avoid_repeats_when_they_can():
    people = names(9)
    history = [tuple(people[0:3]), tuple(people[3:6]), tuple(people[6:9])]
    tables, _ = pods.pair(people, 3, history, {})
    met = met_counts(history)
    assert all(met.get(frozenset(p), 0) == 0 for t in tables for p in combinations(t, 2))


@FAST
@given(st.integers(3, 5), st.integers(3, 13))
def test_multiplayer_round_robin_covers_every_pair(size, n):
    n = max(n, size)  # a tournament starts with at least one table's worth
    people = names(n)
    history, byes = [], {}
    for _ in range(n * n):
        tables, out = pods.cover_pair(people, size, history, byes)
        if not tables:
            break
        assert all(len(t) == size for t in tables)
        for e in out:
            byes[e] = byes.get(e, 0) + 1
        history += tables
    assert set(met_counts(history)) == {frozenset(p) for p in combinations(people, 2)}


@FAST
@given(st.integers(2, 4), st.lists(st.sampled_from(names(10)), min_size=0, max_size=10, unique=True),
       st.booleans())
def test_arena_tables_are_full_and_avoid_immediate_rematches(size, free, others_playing):
    last = {e: tuple(free[i - i % 2: i - i % 2 + 2]) for i, e in enumerate(free)}
    tables = arena.pair(free, {e: float(i % 3) for i, e in enumerate(free)}, last, size, others_playing)
    seated = [e for t in tables for e in t]
    assert len(seated) == len(set(seated)) and set(seated) <= set(free)
    assert all(len(t) == size for t in tables)
    if others_playing:
        assert all(not any(b in last.get(a, ()) for a, b in combinations(t, 2)) for t in tables)
    else:
        assert len(free) - len(seated) < size
