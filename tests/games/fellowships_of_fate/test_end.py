"""End of the game after round 4: VP under the journal plus pages; ties to more tokens, then shared."""
from shared.games.fellowships_of_fate.scoring import final_result

from .helpers import C, GAME, explore, finish_explore, form

HANDS = {0: ["warrior", "cleric", "sage", "thief"], 1: ["magician", "sage", "warrior", "thief"],
         2: ["werewolf", "tactician", "archaeologist", "traveler_of_fate"]}


def _last_round():
    state = explore(3, HANDS)
    for _ in range(3):
        state, _ = finish_explore(state)
        state = form(state, HANDS)
    assert state["round"] == 4
    return state


def test_rule_game_ends_after_round_four_with_journal_scoring():
    state = _last_round()
    state["seats"][0]["journal"] = ["lurking_coyote", "bronze_idol"]  # 2 + 1 VP
    state, log = finish_explore(state)
    assert state["phase"] == "over" and GAME.to_act(state) == []
    end = log[-1]
    assert end["type"] == "game_end"
    assert end["data"]["journals"][0] == ["lurking_coyote", "bronze_idol"]  # revealed at the end
    pages = C.journal_pages["red"]
    assert end["data"]["vp"][0] == C.vp("lurking_coyote") + C.vp("bronze_idol") + pages
    result = GAME.outcome(state)
    assert result.ranks[0] == 1 and result.scores[0] == 3 + pages
    assert all(GAME.legal_moves(state, s) == [] for s in range(3))


def _tied(tokens):
    state = explore(3, HANDS)
    for seat, journal in enumerate([["giant_boar"], ["misty_ravine"], ["bronze_idol"]]):
        state["seats"][seat]["journal"] = journal
        state["seats"][seat]["tokens"] = {"strength": tokens[seat], "mana": 0, "wisdom": 0}
    return final_result(state)


def test_rule_tie_goes_to_the_player_with_more_tokens():
    result = _tied([1, 4, 9])
    assert result["vp"][0] == result["vp"][1]
    assert result["ranks"] == [2, 1, 3]


def test_rule_remaining_tie_is_a_shared_win():
    result = _tied([4, 4, 9])
    assert result["ranks"] == [1, 1, 3]


def test_rule_view_is_open_after_the_game():
    state = _last_round()
    state, _ = finish_explore(state)
    assert GAME.view(state, 1)["seats"][0]["journal"] == state["seats"][0]["journal"]


def test_rule_outcome_scores_are_the_vp_and_its_details_the_tie_break_tokens():
    """End of the Game: the outcome carries each seat's VP as its score and, as details, the
    token counts that break a VP tie (a 3-point token counting three)."""
    state = _last_round()
    for seat, tokens in enumerate([{"strength": 3, "mana": 1, "wisdom": 0},
                                   {"strength": 0, "mana": 0, "wisdom": 2},
                                   {"strength": 0, "mana": 0, "wisdom": 0}]):
        state["seats"][seat]["tokens"] = dict(tokens)
    state, _ = finish_explore(state)
    result = GAME.outcome(state)
    assert result.details == {"tokens": state["result"]["tokens"]}
    assert result.details["tokens"] == [sum(s["tokens"].values()) for s in state["seats"]]
    assert result.scores == [float(v) for v in state["result"]["vp"]]
