"""Three battle examples of our own (the rulebook's examples did not survive)."""
from shared.games.battlefields_of_olympus import GAME
from shared.games.battlefields_of_olympus.content import ARES

from .helpers import BATTLE, PASS, legal, play, run, table, types, warrior


def test_example_1_superior_numbers_wins_olympus():
    """Swordsmen, Cavalry, Cavalry (hold the line), Spearmen, Swordsmen, Swordsmen (hold the line);
    the attacker has nothing left and passes; the defender's free chance is a second Swordsmen:
    a second tying card in a row by the same player wins by superior numbers."""
    state = table(hands=(["swordsmen", "cavalry", "swordsmen"], ["cavalry", "spearmen", "swordsmen", "swordsmen"]),
                  land_pile=["olympus"])
    state, _ = run(state, (0, BATTLE), (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, warrior("cavalry")),
                   (1, warrior("spearmen")), (0, warrior("swordsmen")), (1, warrior("swordsmen")))
    assert state["battle"]["leader"] is None  # held the line: a draw if it ended now
    assert legal(state, 0) == [PASS]
    state, _ = play(state, 0, PASS)
    state, events = play(state, 1, warrior("swordsmen"))
    assert [e["data"]["result"] for e in events if e["type"] == "warrior_played"] == ["numbers"]
    assert state["seats"][1]["lands"] == ["olympus"]
    assert [e["data"]["winner"] for e in events if e["type"] == "battle_ended"] == [1]


def test_example_2_cancel_chain_reactivates_a_defeated_flank():
    """Swordsmen lose to Cavalry; the attacker Flanks; the defender's Shield Wall defeats the Flank;
    the attacker's Treachery cancels the Shield Wall (both leave play), so the Flank is active
    again; the defender cannot answer, must play a second Warrior against the Swordsmen, has none
    and passes; the attacker declines the free chance and wins."""
    state = table(hands=(["swordsmen"], ["cavalry", "spearmen"]),
                  actions=(["flank", "treachery"], ["shield_wall"]), land_pile=["city_red"])
    state, _ = run(state, (0, BATTLE), (0, warrior("swordsmen")), (1, warrior("cavalry")),
                   (0, {"type": "play_action", "card": "flank"}),
                   (1, {"type": "respond", "card": "shield_wall", "target": 0}))
    assert [c["status"] for c in state["chain"]["cards"]] == ["defeated", "active"]
    state, events = play(state, 0, {"type": "respond", "card": "treachery", "target": 1})
    assert "chain_resolved" in types(events)  # the defender holds no more Actions
    assert state["battle"]["leader"] == 0 and GAME.to_act(state) == [1]
    assert [m for m in legal(state, 1) if m["type"] == "play_warrior"] == []  # spearmen lose to swordsmen
    state, _ = run(state, (1, PASS), (0, PASS))
    assert state["seats"][0]["lands"] == ["city_red"]
    assert sorted(state["adisc"]) == ["flank", "shield_wall", "treachery"]


def test_example_3_forced_ares_battle():
    """A Woodland lies on the Land pile; the first player draws an Ares: it goes on the Ares pile,
    the player draws a Warrior, and must battle at once. Archers lose to Heavy Infantry; the
    Ares is discarded, the loser draws two Warriors to its Reserve and begins the next turn."""
    state = table(hands=(["archers"], ["heavy_infantry", "spearmen"]), land_pile=["woodland_red"],
                  ftop=[ARES], wtop=["cavalry", "swordsmen", "spearmen", "archers"])
    state, events = play(state, 0, {"type": "draw_fate"})
    assert types(events) == ["fate_drawn", "warrior_drawn", "battle_started"]
    assert state["seats"][0]["hand"] == ["archers", "cavalry"]
    state, events = run(state, (0, warrior("archers")), (1, warrior("heavy_infantry")), (0, PASS), (1, PASS))
    assert state["seats"][1]["lands"] == ["woodland_red"]
    assert state["ares_pile"] == [] and state["ares_disc"] == [ARES]
    assert state["seats"][0]["reserve"] == ["archers", "swordsmen"] and state["seats"][1]["reserve"] == ["spearmen"]
    while state["phase"] == "restock":
        state, _ = play(state, state["actor"], {"type": "restock_done"})
    assert state["turn"] == 0
