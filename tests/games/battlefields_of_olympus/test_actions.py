"""Action cards: limits, Cancel, Defeat, reactivation, and each card's effect."""
from shared.games.battlefields_of_olympus import GAME

from .helpers import BATTLE, NO, PASS, legal, play, run, table, types, warrior

DRAW = {"type": "draw_fate"}


def act(card, **kw):
    return {"type": "play_action", "card": card, **kw}


def reply(card, target):
    return {"type": "respond", "card": card, "target": target}


def _post(actions, hands=(["cavalry"], ["spearmen"]), **kw):
    """Seat 0 has drawn a Fate card (an Action) and may now play turn Actions."""
    kw.setdefault("ftop", ["elite"])
    state = table(hands=hands, actions=actions, **kw)
    state, _ = play(state, 0, DRAW)
    return state


def _battle(hands, actions, **kw):
    kw.setdefault("land_pile", ["hills_red"])
    state = table(hands=hands, actions=actions, **kw)
    state, _ = play(state, 0, BATTLE)
    return state


def test_action_at_most_four_in_hand_discard_the_excess():
    state = _post((["rally", "scout", "flank", "flank"], []), ftop=["skirmish"])
    assert len(state["seats"][0]["actions"]) == 5
    assert {"type": "end_turn"} not in legal(state, 0)
    state, _ = play(state, 0, {"type": "discard_excess", "card": "flank"})
    assert state["adisc"] == ["flank"] and {"type": "end_turn"} in legal(state, 0)


def test_action_reply_window_opens_only_when_opponent_holds_an_action():
    state = _post((["rally"], []))
    state, events = play(state, 0, act("rally"))
    assert "chain_resolved" in types(events) and state["phase"] == "post"
    state = _post((["rally"], ["elite"]))
    state, events = play(state, 0, act("rally"))
    assert state["phase"] == "respond" and GAME.to_act(state) == [1]
    assert legal(state, 1) == [NO]  # Elite cannot answer a Rally, but the window does not tell
    state, _ = play(state, 1, NO)
    assert len(state["seats"][0]["hand"]) == 3


def test_action_cancel_removes_the_cancelled_card_and_the_cancelling_one():
    state = _post((["rally"], ["treachery"]))
    state, _ = play(state, 0, act("rally"))
    state, _ = play(state, 1, reply("treachery", 0))
    state, events = play(state, 0, NO)  # seat 0 still holds an Action: it may answer
    resolved = next(e for e in events if e["type"] == "chain_resolved")
    assert resolved["data"]["effective"] is False
    assert sorted(state["adisc"]) == ["rally", "treachery"]
    assert state["seats"][0]["hand"] == ["cavalry"]  # no Warriors drawn


def test_action_defeat_voids_the_effect_of_the_defeated_card():
    state = _post((["ambush"], ["sentries"]), land_pile=["hills_red"])
    state, _ = play(state, 0, act("ambush"))
    state, _ = play(state, 1, reply("sentries", 0))
    assert state["chain"]["cards"][0]["status"] == "defeated"
    state, events = play(state, 0, NO)
    assert state["battle"] is None and "battle_started" not in types(events)
    assert [e["data"]["effective"] for e in events if e["type"] == "chain_resolved"] == [False]


def test_action_defeat_prevents_retaliating_with_cards_the_active_defeater_defeats():
    state = _battle((["swordsmen", "archers"], ["cavalry", "heavy_infantry"]),
                    (["flank", "flank", "skirmish", "treachery"], ["shield_wall"]))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("flank")),
                   (1, reply("shield_wall", 0)))
    state, _ = play(state, 0, NO)
    assert state["battle"]["leader"] == 1 and GAME.to_act(state) == [0]
    moves = legal(state, 0)
    assert act("flank") not in moves and act("skirmish") not in moves  # Shield Wall still active
    state, _ = play(state, 0, warrior("archers"))
    state, _ = play(state, 1, warrior("heavy_infantry"))
    assert act("flank") in legal(state, 0)  # a new Warrior pair: the Shield Wall no longer reaches it


def test_action_defeated_card_active_again_when_its_defeater_is_defeated():
    state = _battle((["swordsmen"], ["cavalry"]), (["flank", "elite"], ["shield_wall", "shield_wall"]))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("flank")),
                   (1, reply("shield_wall", 0)), (0, reply("elite", 1)))
    cards = state["chain"]["cards"]
    assert [c["status"] for c in cards] == ["active", "defeated", "active"]
    assert legal(state, 1) == [NO]  # the active Elite defeats Shield Walls: no retaliation with one
    state, _ = play(state, 1, NO)
    assert state["battle"]["leader"] == 0 and GAME.to_act(state) == [1]


def test_action_effect_does_not_reach_warriors_played_after_it_resolves():
    state = _battle((["swordsmen", "archers"], ["cavalry", "archers"]), (["flank"], []))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("flank")))
    assert state["battle"]["leader"] == 0
    state, _ = play(state, 1, warrior("archers"))  # must beat or tie the swordsmen; Flank is spent
    assert state["battle"]["leader"] == 1 and state["battle"]["actions"] == []
    assert [a["card"] for a in state["battle"]["used"]] == ["flank"]


def test_action_elite_turns_holding_the_line_into_a_win():
    state = _battle((["cavalry"], ["cavalry", "spearmen"]), ([], ["elite"]))
    state, _ = play(state, 0, warrior("cavalry"))
    state, _ = play(state, 1, warrior("cavalry"))
    assert act("elite") not in legal(state, 1)  # Elite is for the seat to play, after a tie
    state, _ = play(state, 0, PASS)
    assert act("elite") not in legal(state, 1)  # no Actions in the free chance
    state = _battle((["cavalry", "spearmen"], ["cavalry"]), (["elite"], []))
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("cavalry")), (0, act("elite")))
    assert state["battle"]["leader"] == 0 and GAME.to_act(state) == [1]
    state, _ = run(state, (1, PASS), (0, PASS))
    assert state["seats"][0]["lands"] == ["hills_red"]


def test_action_skirmish_declared_opponent_may_defeat_it_then_the_swap_happens():
    state = _battle((["swordsmen", "archers"], ["cavalry"]), (["skirmish"], ["shield_wall"]))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("skirmish")))
    assert state["phase"] == "respond" and reply("shield_wall", 0) in legal(state, 1)
    state, _ = play(state, 1, NO)
    assert state["phase"] == "swap" and legal(state, 0) == [{"type": "swap", "card": "archers"}]
    state, _events = play(state, 0, {"type": "swap", "card": "archers"})
    assert state["seats"][0]["hand"] == ["swordsmen"]  # the swapped Warrior returns to hand
    assert [(w["seat"], w["card"]) for w in state["battle"]["line"]] == [(1, "cavalry"), (0, "archers")]
    assert state["battle"]["leader"] == 0 and GAME.to_act(state) == [1]


def test_action_skirmish_defeated_by_reply_means_no_swap():
    state = _battle((["swordsmen", "archers"], ["cavalry"]), (["skirmish"], ["shield_wall"]))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("skirmish")),
                   (1, reply("shield_wall", 0)))
    assert state["phase"] == "battle" and GAME.to_act(state) == [0]
    assert state["battle"]["current"][0] == "swordsmen" and sorted(state["seats"][0]["hand"]) == ["archers"]


def test_action_ambush_starts_a_battle_in_which_the_opponent_plays_first():
    state = _post((["ambush"], []), land_pile=["hills_red"])
    state, _ = play(state, 0, act("ambush"))
    assert state["battle"]["attacker"] == 0 and GAME.to_act(state) == [1]
    state, _ = play(state, 1, PASS)  # the ambushed player passing before a Warrior loses
    assert state["seats"][0]["lands"] == ["hills_red"]


def test_action_ambush_needs_a_land_and_is_defeated_by_scout():
    state = _post((["ambush"], []))
    assert act("ambush") not in legal(state, 0)
    state = _post((["ambush"], ["scout"]), land_pile=["hills_red"])
    state, _ = play(state, 0, act("ambush"))
    state, _ = run(state, (1, reply("scout", 0)), (0, NO))
    assert state["battle"] is None and state["phase"] == "post"


def test_action_raid_battles_for_a_chosen_land_of_the_opponent():
    state = _post((["raid"], []), lands=([], ["hills_red", "olympus"]), hands=(["archers"], ["archers"]))
    assert act("raid", land="olympus") in legal(state, 0)
    state, _ = play(state, 0, act("raid", land="olympus"))
    assert state["battle"]["land"] == "olympus" and state["battle"]["owner"] == 1
    state, _ = run(state, (0, warrior("archers")), (1, PASS))
    assert state["seats"][0]["lands"] == ["olympus"] and state["seats"][1]["lands"] == ["hills_red"]


def test_action_raid_lost_by_the_raider_leaves_the_land_with_its_owner():
    state = _post((["raid"], []), lands=([], ["hills_red"]), hands=(["archers"], ["heavy_infantry"]))
    state, _ = run(state, (0, act("raid", land="hills_red")), (0, warrior("archers")),
                   (1, warrior("heavy_infantry")), (0, PASS), (1, PASS))
    assert state["seats"][1]["lands"] == ["hills_red"] and state["seats"][0]["lands"] == []


def test_action_raid_is_defeated_by_rally_in_reply():
    state = _post((["raid"], ["rally"]), lands=([], ["hills_red"]))
    state, _ = play(state, 0, act("raid", land="hills_red"))
    state, _ = play(state, 1, reply("rally", 0))
    assert state["battle"] is None


def test_action_rally_draws_two_warriors():
    state = _post((["rally"], []), wtop=["elite", "archers", "swordsmen"][1:])
    state, _ = play(state, 0, act("rally"))
    assert state["seats"][0]["hand"] == ["archers", "cavalry", "swordsmen"]


def test_action_scout_reveals_the_opponents_warriors_still_in_hand():
    state = _post((["scout"], []), hands=(["cavalry"], ["archers", "spearmen"]))
    state, events = play(state, 0, act("scout"))
    assert GAME.redact(events[-1], 0)["data"]["cards"] == ["archers", "spearmen"]
    assert state["seats"][1]["hand"] == ["archers", "spearmen"]  # still in hand
    view = GAME.view(state, 0)
    assert view["seats"][1]["revealed"] == ["archers", "spearmen"]


def test_action_turn_actions_only_after_the_action_and_battle_actions_only_in_battle():
    state = table(hands=(["cavalry"], []), actions=(["rally", "flank"], []))
    assert not any(m["type"] == "play_action" for m in legal(state, 0))
    state, _ = play(state, 0, DRAW)
    assert act("rally") in legal(state, 0) and act("flank") not in legal(state, 0)


def test_action_cancelling_the_defeater_of_a_defeater_restores_the_first_defeat():
    """Flank <- Shield Wall (defeats it) <- Elite (defeats the Shield Wall: Flank active again)
    <- Treachery cancels the Elite: the Shield Wall is active again and defeats the Flank again."""
    state = _battle((["swordsmen"], ["cavalry"]), (["flank", "elite"], ["shield_wall", "treachery"]))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("flank")),
                   (1, reply("shield_wall", 0)), (0, reply("elite", 1)))
    assert [c["status"] for c in state["chain"]["cards"]] == ["active", "defeated", "active"]
    state, events = play(state, 1, reply("treachery", 2))
    assert "chain_resolved" in types(events)  # seat 0 holds no more Actions
    assert state["battle"]["leader"] == 1 and GAME.to_act(state) == [0]
    assert sorted(a["card"] for a in state["battle"]["actions"] if a["status"] == "active") == ["shield_wall"]


def test_action_a_cancel_cannot_target_ones_own_card_or_a_card_out_of_play():
    state = _battle((["swordsmen"], ["cavalry"]), (["flank", "treachery"], ["shield_wall", "treachery"]))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("flank")),
                   (1, reply("shield_wall", 0)))
    assert legal(state, 0) == [reply("treachery", 1), NO]  # not its own (defeated) Flank
    state, _ = play(state, 0, reply("treachery", 1))
    assert legal(state, 1) == [reply("treachery", 0), NO]  # the cancelled pair is out of play


def test_action_skirmish_swaps_for_a_different_warrior_type_never_an_identical_one():
    """Skirmish swaps the current Warrior for another from hand: Swordsmen hold the line against
    Swordsmen; of a hand of Swordsmen and Heavy Infantry only the Heavy Infantry may come in."""
    state = _battle((["swordsmen", "swordsmen", "heavy_infantry"], ["swordsmen"]), (["skirmish"], []))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("swordsmen")), (0, act("skirmish")))
    assert legal(state, 0) == [{"type": "swap", "card": "heavy_infantry"}]
    state = _battle((["swordsmen", "swordsmen"], ["swordsmen"]), (["skirmish"], []))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("swordsmen")))
    assert act("skirmish") not in legal(state, 0)  # only an identical card to swap for: no Skirmish


def test_action_any_number_of_valid_actions_can_be_applied_to_the_same_warrior_card():
    """ACTION CARDS: "Any number of valid Actions can be applied to the same Warrior card." Cavalry
    beats Swordsmen; the attacker Flanks; now the defender's Cavalry is beaten and he Flanks back,
    on the same two Warriors; the attacker must play again."""
    state = _battle((["swordsmen"], ["cavalry"]), (["flank"], ["flank"]))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("flank")), (1, NO))
    assert state["battle"]["leader"] == 0 and act("flank") in legal(state, 1)
    state, _ = play(state, 1, act("flank"))
    assert state["battle"]["leader"] == 1 and GAME.to_act(state) == [0]
    assert [a["card"] for a in state["battle"]["actions"]] == ["flank", "flank"]


def _tied_cavalry(actions, hands=(["cavalry", "spearmen"], ["cavalry"])):
    """Both seats have played Cavalry (holding the line); seat 0 is to play."""
    state = _battle(hands, actions)
    state, _ = run(state, (0, warrior("cavalry")), (1, warrior("cavalry")))
    return state


def test_card_elite_on_the_current_pair_forbids_only_the_opponents_shield_wall_in_later_windows():
    """Elite defeats Shield Wall: while seat 0's Elite stays active beside the current Warriors,
    seat 1 may not reply Shield Wall to seat 0's Skirmish; seat 0's own Elite never forbids seat
    0's Shield Wall, and a card that is no reply (Flank) does not hide the ones after it."""
    state = _tied_cavalry((["elite", "flank", "shield_wall", "skirmish"], ["flank", "shield_wall"]))
    state, _ = run(state, (0, act("elite")), (1, NO))
    assert state["battle"]["leader"] == 0 and GAME.to_act(state) == [1]
    state, _ = play(state, 1, act("flank"))
    assert legal(state, 0) == [reply("shield_wall", 0), NO]
    state, _ = play(state, 0, NO)
    assert state["battle"]["leader"] == 1 and GAME.to_act(state) == [0]
    state, _ = play(state, 0, act("skirmish"))
    assert state["phase"] == "respond" and legal(state, 1) == [NO]


def test_card_shield_wall_that_defeated_a_skirmish_does_not_forbid_its_own_players_flank():
    """Seat 1's Shield Wall defeats seat 0's Skirmish and stays active beside the current pair;
    after seat 0's Elite, seat 1 may still Flank: a defeater binds only the opponent."""
    state = _tied_cavalry((["elite", "skirmish"], ["flank", "shield_wall"]))
    state, _ = run(state, (0, act("skirmish")), (1, reply("shield_wall", 0)), (0, NO))
    assert state["phase"] == "battle" and GAME.to_act(state) == [0]
    state, _ = run(state, (0, act("elite")), (1, NO))
    assert state["battle"]["leader"] == 0 and act("flank") in legal(state, 1)


def test_card_skirmish_swap_for_a_tying_warrior_holds_the_line_and_for_a_beating_one_wins():
    """Skirmish: the new Warrior "must beat or tie" the opponent's; a tying one takes no lead. The
    swapped Warrior replaces the seat's own card on the line, even when it is the last one."""
    state = _battle((["swordsmen", "cavalry"], ["cavalry"]), (["skirmish"], []))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("skirmish")))
    state, events = play(state, 0, {"type": "swap", "card": "cavalry"})
    assert events[-1]["data"] == {"seat": 0, "card": "cavalry", "returned": "swordsmen", "result": "tie"}
    assert state["battle"]["leader"] is None and state["battle"]["line"][-1]["result"] == "tie"
    state = _battle((["swordsmen"], ["cavalry", "archers"]), (["flank"], ["skirmish"]))
    state, _ = run(state, (0, warrior("swordsmen")), (1, warrior("cavalry")), (0, act("flank")),
                   (1, NO), (1, act("skirmish")))
    state, events = play(state, 1, {"type": "swap", "card": "archers"})
    assert events[-1]["data"] == {"seat": 1, "card": "archers", "returned": "cavalry", "result": "win"}
    assert [(w["seat"], w["card"], w["from"]) for w in state["battle"]["line"]] == [
        (0, "swordsmen", "hand"), (1, "archers", "swap")]
    assert state["battle"]["leader"] == 1 and state["seats"][1]["known"] == ["cavalry"]


def test_card_ambush_and_raid_in_one_hand_are_both_offered_after_the_action():
    """TURN ORDER: after the action any valid turn Actions may be played; holding Ambush and Raid
    with a Land on the pile and a Land of the opponent's, both are legal moves."""
    state = _post((["ambush", "raid"], []), land_pile=["hills_red"], lands=([], ["olympus"]))
    moves = legal(state, 0)
    assert act("ambush") in moves and act("raid", land="olympus") in moves
