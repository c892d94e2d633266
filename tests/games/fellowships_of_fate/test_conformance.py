"""The engine's conformance property checks plus this game's own hidden-information properties."""
import pytest

from shared.canonical import clone
from shared.engine.conformance import check_playouts
from shared.rng import FastRng

from .helpers import C, GAME, random_walk

SEEDS = {2: range(15), 3: range(12), 4: range(10), 5: range(8)}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_conformance_random_playouts(players):
    results = check_playouts(GAME, players, seeds=SEEDS[players])
    assert all(r.state["phase"] == "over" for r in results)


@pytest.mark.parametrize("players", [2, 5])
def test_conformance_with_seat0_starting(players):
    results = check_playouts(GAME, players, {"starting_player": "seat0"}, seeds=range(2))
    assert all(r.events[0]["data"]["start_seat"] == 0 for r in results)


def _walk(players, seed, eager=False):
    return random_walk(players, seed, eager=eager, salt=b"p")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_property_hidden_information_never_in_views_or_redacted_events(players):
    for seed in range(2):
        for i, (state, events) in enumerate(_walk(players, seed)):
            if state["phase"] == "over":
                continue
            for viewer in [None] + list(range(players)):
                view = GAME.view(state, viewer)
                assert set(view["adventure_deck"]) == {"count"}
                assert set(view["relic_deck"]) == {"count", "level1"}
                if view["formation"]:
                    assert "values" not in view["formation"]
                for other, s in enumerate(view["seats"]):
                    if other == viewer:
                        continue
                    real = state["seats"][other]
                    assert s["hand"] == {"count": len(real["hand"])}
                    assert s["standby"] == {"count": len(real["standby"])}
                    assert s["journal"] == real["journal"]  # every card was shown when taken
                    assert set(s["known_hand"]) <= set(real["hand"])
                for ev in events:
                    red = GAME.redact(ev, viewer)
                    if ev["type"] == "form" and ev["data"]["seat"] != viewer:
                        assert red["data"] == {"seat": ev["data"]["seat"]}
                    assert "adventure_deck" not in red["data"] and "relic_deck" not in red["data"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_property_cards_are_conserved_and_journals_hold_vp_cards(players):
    for seed, eager in [(0, False), (1, True), (2, True)]:
        for state, _ in _walk(players, seed, eager):
            adventures = list(state["adventure_deck"]) + [c for c in state["field"] if c]
            relics = list(state["relic_deck"]) + list(state["relics_removed"])
            for s in state["seats"]:
                adventures += [c for c in s["journal"] if c in C.adventures]
                adventures += [m for m in s["members"] if m in C.adventures]
                relics += [c for c in s["journal"] if c in C.relics] + [r["id"] for r in s["relics"]]
                assert all(C.has_vp(c) for c in s["journal"])  # only VP cards go under a journal
                assert all(C.relics[r["id"]].level == 1 for r in s["relics"])
            assert sorted(adventures) == sorted(C.adventures)
            assert sorted(relics) == sorted(C.relics)
            # the relic deck keeps its order: Level 1 relics stay above Level 2 ones
            levels = [C.relics[r].level for r in state["relic_deck"]]
            assert levels == sorted(levels)


def test_property_determinized_states_are_consistent_with_the_view():
    for players in (2, 4, 5):
        for i, (state, _) in enumerate(_walk(players, 7, eager=True)):
            if i % 5:
                continue
            for seat in range(players):
                view = GAME.view(state, seat)
                twin = GAME.determinize(clone(view), seat, FastRng(i))
                assert GAME.view(twin, seat) == view
                assert GAME.legal_moves(twin, seat) == GAME.legal_moves(state, seat)


def test_property_eager_playouts_reach_the_deep_rules():
    """Eager playouts obtain cards, exhaust decks and tie the counters the rules name."""
    seen = set()
    for players in (2, 5):
        for seed in range(3):
            for state, events in _walk(players, seed, eager=True):
                for ev in events:
                    seen.add(ev["type"])
                    if ev["type"] == "excavate" and ev["data"]["extra"]:
                        seen.add("extra relic")
                    if ev["type"] == "refill" and ev["data"]["drawn"] is None:
                        seen.add("empty adventure deck")
                    if ev["type"] == "obtain" and ev["data"]["via"] == "sun":
                        seen.add("sun card")
    assert {"obtain", "excavate", "refill", "interrupt", "cost_unpaid", "extra relic", "sun card"} <= seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_property_decks_are_drawn_from_the_top_in_their_recorded_order(players):
    for seed in range(2):
        before = None
        for state, events in _walk(players, seed, eager=True):
            if before is not None:
                adventure, relic = list(before["adventure_deck"]), list(before["relic_deck"])
                for ev in events:
                    if ev["type"] == "refill" and ev["data"]["drawn"] is not None:
                        assert ev["data"]["drawn"] == adventure.pop(0)
                    if ev["type"] == "excavate":
                        assert ev["data"]["card"] == relic.pop(0)
                assert state["adventure_deck"] == adventure and state["relic_deck"] == relic
            before = state
