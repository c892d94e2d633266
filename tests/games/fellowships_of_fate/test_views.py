"""Views and determinization: what every player saw in public events stays known, and every
intermediate state of the log (folded one event at a time) can be viewed and asked for moves."""
import pytest

from shared.canonical import clone
from shared.rng import FastRng

from .helpers import ACTIVATE, C, GAME, SKIP, explore, finish_explore, form, give, play, random_walk, setup_events, step, steps


def _random_log(players, seed, eager=True):
    """The whole event log of a random match; ``eager`` players rarely skip an icon."""
    return setup_events(players, seed, b"v") + [
        e for _state, events in random_walk(players, seed, eager=eager, salt=b"v") for e in events]


def _beast_taken(field_rest=("misty_ravine", "crystal_cave", "giant_boar")):
    """Two players; seat 0's Legendary Warrior takes Mythical Beast from the leftmost slot."""
    hands = {0: ["warrior", "cleric", "sage", "thief"], 1: ["sage", "magician", "cleric", "thief"]}
    state = explore(2, hands, field=["mythical_beast", *field_rest])
    state = steps(state, play("warrior", "legendary"), play("sage", "nameless"), SKIP, SKIP)
    give(state, 0, strength=2, wisdom=2)
    state = steps(state, ACTIVATE, SKIP, SKIP)
    state, _ = step(state, {"type": "obtain", "card": "mythical_beast"})
    return state


def _twins(state, seat, n=25):
    view = GAME.view(state, seat)
    for i in range(n):
        twin = GAME.determinize(clone(view), seat, FastRng(i))
        assert GAME.view(twin, seat) == view
        yield twin


def test_rule_mythical_beast_taken_this_round_stays_in_its_owners_hand_when_determinized():
    """Special adventure card "Mythical Beast": "immediately add it to your hand". Every player saw
    it taken, so a determinized state keeps it in the owner's hand until it is played."""
    state = _beast_taken()
    assert GAME.view(state, 1)["seats"][0]["known_hand"] == ["mythical_beast"]
    for twin in _twins(state, 1):
        me = twin["seats"][0]
        assert "mythical_beast" in me["hand"] and "mythical_beast" not in me["standby"]
        assert len(me["hand"]) == len(state["seats"][0]["hand"])
    state = steps(state, play("thief", "nameless"), SKIP, SKIP, play("mythical_beast", "nameless"), SKIP, SKIP)
    assert state["seats"][0]["known_hand"] == []  # played: in the play area, known there
    for twin in _twins(state, 1, 5):
        assert "mythical_beast" not in twin["seats"][0]["hand"]


def test_rule_mythical_beast_chosen_in_a_later_formation_is_hidden_again():
    """1. Formation keeps the four chosen members hidden: a Beast taken in an earlier round may be
    in the hand or in the standby pile, and determinization deals it either way."""
    state = _beast_taken()
    state, _ = finish_explore(state)
    assert state["seats"][0]["known_hand"] == []
    state = form(state, {0: ["mythical_beast", "warrior", "cleric", "sage"], 1: ["sage", "magician", "cleric", "thief"]})
    places = {"hand" if "mythical_beast" in twin["seats"][0]["hand"] else "standby" for twin in _twins(state, 1)}
    assert places == {"hand", "standby"}


def test_rule_mythical_beast_is_never_dealt_into_a_journal():
    """Special adventure card "Mythical Beast" is a member, not a VP card: an unseen Beast (still in
    the adventure deck) is dealt into the deck, never under a journal."""
    field = ["lurking_coyote", "misty_ravine", "crystal_cave", "giant_boar"]
    hands = {0: ["warrior", "cleric", "sage", "thief"], 1: ["sage", "magician", "cleric", "thief"]}
    state = explore(2, hands, field=field)
    state = steps(state, play("warrior", "legendary"), play("sage", "nameless"), SKIP, SKIP)
    give(state, 0, strength=3)
    state = steps(state, ACTIVATE, SKIP, SKIP, {"type": "obtain", "card": "lurking_coyote"})
    assert "mythical_beast" in state["adventure_deck"]
    for twin in _twins(state, 1):
        assert all("mythical_beast" not in s["journal"] for s in twin["seats"])
        assert "mythical_beast" in twin["adventure_deck"]
        assert twin["seats"][0]["journal"] == ["lurking_coyote"]


def _public_facts(events, viewer):
    """What ``viewer`` saw in the redacted log: each seat's journal (every VP card was shown when
    taken), the Level 1 relics in play, and a Mythical Beast taken this round and not yet played."""
    journals, relics, beast = {}, {}, {}
    for ev in (GAME.redact(e, viewer) for e in events):
        d = ev["data"]
        if ev["type"] == "obtain":
            if C.has_vp(d["card"]):
                journals.setdefault(d["seat"], []).append(d["card"])
            elif C.adventures[d["card"]].member is not None:
                beast[d["seat"]] = d["card"]
        elif ev["type"] == "excavate":
            if d["level"] == 2:
                journals.setdefault(d["seat"], []).append(d["card"])
            else:
                relics.setdefault(d["seat"], []).append(d["card"])
        elif ev["type"] == "play_member" and beast.get(d["seat"]) == d["member"]:
            del beast[d["seat"]]
        elif ev["type"] == "round_end":
            beast = {}
    return journals, relics, beast


@pytest.mark.parametrize("players", [2, 3, 5])
def test_property_determinize_keeps_what_every_player_saw_in_public_events(players):
    """VP on obtained card ("show that card to all players"), Level 1 relics face up, the Beast
    added to the hand: whatever the redacted log told a seat holds in every determinized state."""
    checked = 0
    for seed in range(3):
        events = _random_log(players, seed)
        for cut in range(1, len(events), 9):
            state = GAME.fold(events[:cut])
            if state["phase"] == "over":
                continue
            for seat in range(players):
                journals, relics, beast = _public_facts(events[:cut], seat)
                twin = next(_twins(state, seat, 1))
                for other, s in enumerate(twin["seats"]):
                    assert s["journal"] == journals.get(other, [])
                    assert [r["id"] for r in s["relics"]] == relics.get(other, [])
                    if other in beast:
                        assert beast[other] in s["hand"]
                assert sorted(twin["adventure_deck"]) == sorted(state["adventure_deck"])  # the rest are known
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_property_every_intermediate_state_of_the_log_is_viewable_and_answers_moves(players):
    """Folding random matches one event at a time: after every single event, ``view`` answers for
    each seat and the spectator (and its determinization shows the same view), ``to_act`` answers,
    and exactly the seats in ``to_act`` have legal moves."""
    for seed in range(2):
        events = _random_log(players, seed, eager=seed == 1)
        state = {}
        for i, event in enumerate(events):
            state = GAME.evolve(state, event)
            acting = GAME.to_act(state)
            for seat in range(players):
                assert bool(GAME.legal_moves(state, seat)) == (seat in acting), (i, event["type"])
            GAME.view(state, None)
            for seat in range(players):
                view = GAME.view(state, seat)
                if i % 3 == 0:
                    assert GAME.view(GAME.determinize(clone(view), seat, FastRng(i)), seat) == view
        assert GAME.outcome(state) is not None
