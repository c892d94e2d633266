"""Legal moves per phase, and how each move is carried out.

Moves are small JSON objects; multi-card choices are split into one card per decision (discard
one card at a time, then ``discard_done``; restock one card at a time, then ``restock_done``).
"""
from __future__ import annotations

from shared.engine import Tx

from . import battle as rules
from . import flow
from .action_cards import locked, reply_moves
from .content import Content, load
from .state import distinct, opp

C: Content = load()


# ----- legal moves ----------------------------------------------------------------------------
def _action_phase(state: dict, seat: int) -> list[dict]:
    """Turn options a-d; a Land with an Ares in play (or an empty Fate deck) forces the battle."""
    me = state["seats"][seat]
    if rules.battle_forced(state) or (state["land_pile"] and not state["fdeck"]):
        return [{"type": "battle"}]
    moves = [{"type": "draw_fate"}] if state["fdeck"] else []
    moves += [{"type": "discard_warrior", "card": c} for c in distinct(me["hand"])]
    moves += [{"type": "discard_action", "card": c} for c in distinct(me["actions"])]
    if state["land_pile"]:
        moves.append({"type": "battle"})
    return moves


def _discarding(state: dict, seat: int) -> list[dict]:
    kind = state["discarding"]["kind"]
    zone = state["seats"][seat]["hand" if kind == "warrior" else "actions"]
    return [{"type": f"discard_{kind}", "card": c} for c in distinct(zone)] + [{"type": "discard_done"}]


def _requirement_met(state: dict, seat: int, requirement: str) -> bool:
    if requirement == "land_on_pile":
        return bool(state["land_pile"])
    if requirement == "opponent_has_land":
        return bool(state["seats"][opp(seat)]["lands"])
    if requirement == "no_battle_this_turn":
        return not state["battled"]
    raise ValueError(f"unknown requirement {requirement!r}")


def turn_action_moves(state: dict, seat: int) -> list[dict]:
    """Ambush, Raid, Rally, Scout (timing ``turn``) whose requirements hold."""
    moves = []
    for card in distinct(state["seats"][seat]["actions"]):
        action = C.actions[card]
        if action.timing != "turn" or not all(_requirement_met(state, seat, r) for r in action.requires):
            continue
        if locked(C, state, seat, card):
            continue
        if action.effect.get("prize") == "opponent_land":
            moves += [{"type": "play_action", "card": card, "land": l}
                      for l in sorted(state["seats"][opp(seat)]["lands"])]
        else:
            moves.append({"type": "play_action", "card": card})
    return moves


def _post(state: dict, seat: int) -> list[dict]:
    """After the action: turn Actions; with more than 4 Actions, one must be discarded or played.
    Then the turn ends, or, when the Fate draw brought a Land and an Ares into play, the player
    declares the battle it forced ("you must declare BATTLE ... on your turn")."""
    actions = state["seats"][seat]["actions"]
    moves = turn_action_moves(state, seat)
    if len(actions) > C.number("action_hand_limit"):
        return moves + [{"type": "discard_excess", "card": c} for c in distinct(actions)]
    return moves + [{"type": "battle"} if rules.battle_forced(state) else {"type": "end_turn"}]


def _battle(state: dict, seat: int) -> list[dict]:
    b = state["battle"]
    moves = [{"type": "play_warrior", "card": c, "from": src} for c, src in rules.playable_warriors(C, state, seat)]
    if b["passed"] is None:
        for card in distinct(state["seats"][seat]["actions"]):
            action = C.actions[card]
            if (action.timing == "battle" and not locked(C, state, seat, card)
                    and rules.effect_applies(C, state, seat, action.effect)):
                moves.append({"type": "play_action", "card": card})
    return moves + [{"type": "pass"}]


def _swap(state: dict, seat: int) -> list[dict]:
    return [{"type": "swap", "card": c} for c in rules.swap_candidates(C, state, seat)]


def _restock(state: dict, seat: int) -> list[dict]:
    reserve = state["seats"][seat]["reserve"]
    return [{"type": "restock", "card": c} for c in distinct(reserve)] + [{"type": "restock_done"}]


PHASES = {
    "action": _action_phase,
    "discarding": _discarding,
    "post": _post,
    "respond": lambda state, seat: reply_moves(C, state, seat),
    "battle": _battle,
    "swap": _swap,
    "restock": _restock,
}


def legal_moves(state: dict, seat: int) -> list[dict]:
    """Every legal move of ``seat``; none unless a decision of that seat is awaited."""
    phase = PHASES.get(state.get("phase"))
    if phase is None or state.get("actor") != seat:
        return []
    return phase(state, seat)


# ----- carrying moves out -------------------------------------------------------------------------
def _discard(kind: str):
    def run(tx: Tx, seat: int, move: dict) -> None:
        if tx.state["phase"] == "action":
            tx.emit("discard_started", {"seat": seat, "kind": kind})
        tx.emit(f"{kind}_discarded", {"seat": seat, "card": move["card"]})
        zone = tx.state["seats"][seat]["hand" if kind == "warrior" else "actions"]
        if not zone:
            flow.finish_discarding(tx, seat)
    return run


def _play_action(tx: Tx, seat: int, move: dict) -> None:
    flow.play_root_action(tx, seat, move["card"], move.get("land"))


def _discard_excess(tx: Tx, seat: int, move: dict) -> None:
    tx.emit("action_discarded", {"seat": seat, "card": move["card"]})


RUN = {
    "draw_fate": lambda tx, seat, m: flow.draw_fate(tx, seat),
    "discard_warrior": _discard("warrior"),
    "discard_action": _discard("action"),
    "discard_done": lambda tx, seat, m: flow.finish_discarding(tx, seat),
    "battle": lambda tx, seat, m: flow.battle_for_top_land(tx, seat),
    "play_action": _play_action,
    "discard_excess": _discard_excess,
    "end_turn": lambda tx, seat, m: flow.begin_turn(tx, opp(seat)),
    "respond": lambda tx, seat, m: flow.respond(tx, seat, m["card"], m["target"]),
    "no_response": lambda tx, seat, m: flow.resolve_chain(tx),
    "play_warrior": lambda tx, seat, m: flow.play_warrior(tx, seat, m["card"], m["from"]),
    "pass": lambda tx, seat, m: flow.pass_battle(tx, seat),
    "swap": lambda tx, seat, m: flow.swap_warrior(tx, seat, m["card"]),
    "restock": lambda tx, seat, m: flow.restock(tx, seat, m["card"]),
    "restock_done": lambda tx, seat, m: flow.restock_done(tx, seat),
}


def play(tx: Tx, seat: int, move: dict) -> None:
    RUN[move["type"]](tx, seat, move)
