"""The search bot's game knowledge: the evaluation at its cut-off (also greedy's), the guided
playout policy, and the search's choice in a plain situation."""
from shared.bots.ismcts import SearchParams
from shared.bots.policies import search_policy
from shared.games.battlefields_of_olympus import GAME
from shared.games.battlefields_of_olympus.heuristic import LEAD_ANSWERABLE, LEAD_UNANSWERED
from shared.games.battlefields_of_olympus.playout import guided_move
from shared.rng import FastRng

from .helpers import BATTLE, legal, play, run, table, warrior


def _attacked(hands, lands=((), ()), land="city_red", **kw):
    """Seat 0 declared a battle for ``land`` and played its first Warrior (``hands[0][0]``)."""
    state = table(hands=hands, lands=lands, land_pile=[land], **kw)
    state, _ = run(state, (0, BATTLE), (0, warrior(hands[0][0])))
    return state


def _swing(state, seat):
    """The evaluation's part that is due to the battle in progress (the same table without it)."""
    calm = dict(state, battle=None)
    return GAME.heuristic(state, seat) - GAME.heuristic(calm, seat)


def test_heuristic_leader_counts_on_more_of_the_prize_when_the_opponent_cannot_answer():
    answerable = _attacked((["archers"], ["heavy_infantry"]))
    unanswered = _attacked((["archers"], ["spearmen"]))
    assert abs(_swing(answerable, 0) - LEAD_ANSWERABLE * 4) < 1e-9
    assert abs(_swing(unanswered, 0) - LEAD_UNANSWERED * 4) < 1e-9
    assert abs(_swing(unanswered, 1) + LEAD_UNANSWERED * 4) < 1e-9  # the other side of the coin


def test_heuristic_battle_prize_includes_the_set_bonus_the_land_would_complete():
    state = _attacked((["archers"], ["heavy_infantry"]), lands=(["woodland_red", "woodland_yellow"], []),
                      land="woodland_blue")
    assert abs(_swing(state, 0) - LEAD_ANSWERABLE * (1 + 2)) < 1e-9


def test_heuristic_raid_prize_is_the_raiders_gain_plus_the_owners_loss():
    state = table(hands=(["archers"], ["heavy_infantry"]), actions=(["raid"], []), lands=([], ["city_red"]),
                  ftop=["elite"])
    state, _ = run(state, (0, {"type": "draw_fate"}),
                   (0, {"type": "play_action", "card": "raid", "land": "city_red"}), (0, warrior("archers")))
    assert state["battle"]["owner"] == 1 and state["battle"]["leader"] == 0
    assert abs(_swing(state, 0) - LEAD_ANSWERABLE * (4 + 4)) < 1e-9


def test_heuristic_values_a_warrior_that_beats_more_types_higher():
    strong = table(hands=(["archers"], []))
    weak = table(hands=(["spearmen"], []))
    assert GAME.heuristic(strong, 0) > GAME.heuristic(weak, 0)
    assert GAME.heuristic(strong, 1) < GAME.heuristic(weak, 1)


def test_guided_playout_fights_rather_than_passes_when_a_warrior_can_be_played():
    state = _attacked((["archers"], ["heavy_infantry", "spearmen"]))
    moves = legal(state, 1)
    assert {"type": "pass"} in moves
    rng = FastRng(5)
    assert all(guided_move(state, 1, moves, rng) == warrior("heavy_infantry") for _ in range(50))


def test_guided_playout_leader_passes_in_his_free_chance_and_others_may_still_pass():
    state = _attacked((["archers"], ["heavy_infantry", "heavy_infantry"]))
    state, _ = run(state, (1, warrior("heavy_infantry")), (0, {"type": "pass"}))
    assert state["battle"]["passed"] == 0 and state["battle"]["leader"] == 1
    moves = legal(state, 1)
    assert warrior("heavy_infantry") in moves
    assert guided_move(state, 1, moves, FastRng(1)) == {"type": "pass"}
    nothing = _attacked((["archers"], ["spearmen"]))
    assert guided_move(nothing, 1, legal(nothing, 1), FastRng(1)) == {"type": "pass"}  # the only move


def test_guided_playout_restocks_while_the_reserve_has_cards():
    state = _attacked((["archers"], ["heavy_infantry"]), reserves=(["cavalry", "spearmen"], []))
    state, _ = run(state, (1, warrior("heavy_infantry")), (0, {"type": "pass"}), (1, {"type": "pass"}))
    while state["phase"] != "restock":  # the battle is over; restocking comes next
        actor = state["actor"]
        state, _ = play(state, actor, legal(state, actor)[0])
    seat = state["actor"]
    moves = legal(state, seat)
    rng = FastRng(2)
    assert state["seats"][seat]["reserve"]
    assert all(guided_move(state, seat, moves, rng)["type"] == "restock" for _ in range(30))


def test_search_parameters_are_the_games_tuned_ones():
    params = SearchParams.for_game(GAME)
    assert params.playout_steps == GAME.search["playout_steps"] and params.scale == GAME.search["scale"]
    assert params.iterations == GAME.search["iterations"]


def test_search_answers_a_first_warrior_rather_than_losing_the_battle_by_passing():
    """The defender passing before his first Warrior loses the City at once; search sees it from
    its view alone."""
    state = _attacked((["archers"], ["heavy_infantry", "spearmen"]))
    seat = 1
    move = search_policy(GAME, GAME.view(state, seat), seat, legal(state, seat), FastRng(7), iterations=100)
    assert move == warrior("heavy_infantry")


# ----- determinization that remembers what the seat has seen -----------------------------------
def _scouted_then_battled():
    """Seat 0 scouts seat 1's hand (archers, spearmen); seat 1 then fights with the spearmen and
    the reveal ends with that battle, the archers staying in his hand."""
    state = table(hands=(["cavalry"], ["spearmen", "archers"]), actions=(["scout"], []),
                  land_pile=["hills_red"], ftop=["elite"])
    state, _ = run(state, (0, {"type": "draw_fate"}), (0, {"type": "play_action", "card": "scout"}),
                   (0, {"type": "end_turn"}), (1, BATTLE), (1, warrior("spearmen")), (0, {"type": "pass"}))
    return state


def test_determinize_keeps_the_warriors_this_seat_saw_by_scout_after_the_reveal_ended():
    state = _scouted_then_battled()
    assert state["seats"][1]["revealed"] == [] and state["seats"][1]["known"] == ["archers"]
    view = GAME.view(state, 0)
    assert view["seats"][1]["known"] == ["archers"]
    for seed in range(20):
        twin = GAME.determinize(view, 0, FastRng(seed))
        assert "archers" in twin["seats"][1]["hand"]
        assert GAME.view(twin, 0) == view


def test_known_warriors_are_forgotten_when_they_leave_the_hand():
    state = table(hands=(["cavalry"], ["spearmen", "archers"]), actions=(["scout"], []),
                  land_pile=["hills_red"], ftop=["elite"])
    state, _ = run(state, (0, {"type": "draw_fate"}), (0, {"type": "play_action", "card": "scout"}))
    assert state["seats"][1]["known"] == ["archers", "spearmen"]
    state, _ = run(state, (0, {"type": "end_turn"}), (1, {"type": "discard_warrior", "card": "archers"}))
    assert state["seats"][1]["known"] == ["spearmen"]


def test_known_includes_the_warrior_a_skirmish_returned_to_the_hand():
    state = table(hands=(["swordsmen", "archers"], ["cavalry"]), actions=(["skirmish"], ["shield_wall"]),
                  land_pile=["hills_red"])
    state, _ = run(state, (0, BATTLE), (0, warrior("swordsmen")), (1, warrior("cavalry")),
                   (0, {"type": "play_action", "card": "skirmish"}), (1, {"type": "no_response"}),
                   (0, {"type": "swap", "card": "archers"}))
    assert state["seats"][0]["known"] == ["swordsmen"]
    view = GAME.view(state, 1)
    assert view["seats"][0]["known"] == ["swordsmen"]
    assert all(GAME.determinize(view, 1, FastRng(s))["seats"][0]["hand"] == ["swordsmen"] for s in range(5))


def test_known_shows_nothing_of_a_hand_nobody_saw():
    state = table(hands=(["cavalry", "archers"], ["spearmen", "archers"]))
    state, _ = play(state, 0, {"type": "draw_fate"})
    assert GAME.view(state, 0)["seats"][1]["known"] == [] and GAME.view(state, 1)["seats"][0]["known"] == []
