"""Procedures that carry a legal move out by emitting events on a transaction.

Every chance outcome (a reshuffle order) is drawn here from ``tx.rng`` and written into the
event; ``evolve.apply`` only copies it.
"""
from __future__ import annotations

from shared.engine import Tx, zones

from . import battle as rules
from .action_cards import reply_effect
from .content import Content, load
from .scoring import colour_set, points
from .state import opp

C: Content = load()


# ----- drawing ---------------------------------------------------------------------------
def _ensure_warrior(tx: Tx) -> bool:
    """Reshuffle the Warrior discards into a new deck when it is empty; False if none are left."""
    s = tx.state
    if s["wdeck"]:
        return True
    if not s["wdisc"]:
        return False
    zones.emit_reshuffle(tx, s["wdisc"], "warrior_deck_reshuffled")
    return True


def draw_warriors(tx: Tx, seat: int, n: int, *, to: str | None = None) -> None:
    """Draw ``n`` Warriors; with a full hand (or ``to="reserve"``) they go onto the Reserve pile."""
    limit = C.number("warrior_hand_limit")
    for _ in range(n):
        if not _ensure_warrior(tx):
            return
        dest = to or ("hand" if len(tx.state["seats"][seat]["hand"]) < limit else "reserve")
        tx.emit("warrior_drawn", {"seat": seat, "to": dest}, private={seat: {"card": tx.state["wdeck"][0]}})


def refresh_bonus(tx: Tx, seat: int) -> None:
    """Three Lands of one colour give one face-up bonus Warrior; losing them takes it away."""
    me = tx.state["seats"][seat]
    qualifies = colour_set(C, me["lands"])
    if me["bonus"] and not qualifies:
        tx.emit("bonus_lost", {"seat": seat, "card": me["bonus"]})
    elif not me["bonus"] and qualifies and _ensure_warrior(tx):
        tx.emit("bonus_drawn", {"seat": seat, "card": tx.state["wdeck"][0]})


# ----- turns -----------------------------------------------------------------------------
def end_game(tx: Tx, reason: str) -> None:
    tx.emit("game_ended", {"reason": reason})


def begin_turn(tx: Tx, seat: int) -> None:
    s = tx.state
    if not s["fdeck"] and not s["land_pile"]:
        end_game(tx, "no Fate cards and no Lands left to battle for")
        return
    tx.emit("turn_started", {"seat": seat})


def after_action(tx: Tx, seat: int) -> None:
    """After turn options a-c: a chance to play Ambush, Raid, Rally or Scout; then the turn
    passes, or the battle a Fate draw forced begins (at once for a player holding no Action)."""
    if tx.state["seats"][seat]["actions"]:
        tx.emit("post_started", {"seat": seat})
    elif rules.battle_forced(tx.state):
        battle_for_top_land(tx, seat)
    else:
        begin_turn(tx, opp(seat))


def draw_fate(tx: Tx, seat: int) -> None:
    """Turn option a: an Action goes to the hand; a Land or an Ares goes face up on its pile and
    the player draws a Warrior."""
    card = tx.state["fdeck"][0]
    kind = C.fate_kind(card)
    if kind == "action":
        tx.emit("fate_drawn", {"seat": seat, "kind": kind}, private={seat: {"card": card}})
    else:
        tx.emit("fate_drawn", {"seat": seat, "kind": kind, "card": card})
        draw_warriors(tx, seat, 1)
    after_action(tx, seat)


def finish_discarding(tx: Tx, seat: int) -> None:
    """Options b and c: draw as many Warriors as cards were discarded."""
    n = tx.state["discarding"]["count"]
    tx.emit("discard_done", {"seat": seat, "count": n})
    draw_warriors(tx, seat, n)
    after_action(tx, seat)


# ----- Actions and reply windows -----------------------------------------------------------
def play_root_action(tx: Tx, seat: int, card: str, land: str | None = None) -> None:
    data = {"seat": seat, "card": card}
    if land is not None:
        data["land"] = land
    tx.emit("action_played", data)
    advance_chain(tx)


def advance_chain(tx: Tx) -> None:
    """Wait for the next reply, or resolve when the replying seat holds no Action at all."""
    chain = tx.state["chain"]
    if not tx.state["seats"][chain["responder"]]["actions"]:
        resolve_chain(tx)


def respond(tx: Tx, seat: int, card: str, target: int) -> None:
    effect = reply_effect(C, card, tx.state["chain"]["cards"][target]["card"])
    tx.emit("action_responded", {"seat": seat, "card": card, "target": target, "effect": effect})
    advance_chain(tx)


def resolve_chain(tx: Tx) -> None:
    chain = tx.state["chain"]
    root = chain["cards"][0]
    effective = root["status"] == "active"
    tx.emit("chain_resolved", {"card": root["card"], "seat": chain["seat"], "effective": effective})
    if effective:
        EFFECTS[C.actions[root["card"]].effect["kind"]](tx, chain["seat"], C.actions[root["card"]].effect, chain)


def _start_battle_effect(tx: Tx, seat: int, effect: dict, chain: dict) -> None:
    first = seat if effect["first"] == "self" else opp(seat)
    if effect["prize"] == "top_land":
        battle_for_top_land(tx, seat, first=first)
    else:
        start_battle(tx, seat, first=first, land=chain["land"], owner=opp(seat))


def _draw_effect(tx: Tx, seat: int, effect: dict, chain: dict) -> None:
    draw_warriors(tx, seat, effect["count"])


def _reveal_effect(tx: Tx, seat: int, effect: dict, chain: dict) -> None:
    other = opp(seat)
    tx.emit("hand_revealed", {"seat": other, "cards": list(tx.state["seats"][other]["hand"])})


def _lead_effect(tx: Tx, seat: int, effect: dict, chain: dict) -> None:
    tx.emit("lead_taken", {"seat": seat})


def _swap_effect(tx: Tx, seat: int, effect: dict, chain: dict) -> None:
    tx.emit("swap_started", {"seat": seat})


EFFECTS = {
    "start_battle": _start_battle_effect,
    "draw_warriors": _draw_effect,
    "reveal_hand": _reveal_effect,
    "take_lead": _lead_effect,
    "swap_warrior": _swap_effect,
}


# ----- battles ------------------------------------------------------------------------------
def start_battle(tx: Tx, attacker: int, *, first: int, land: str, owner: int | None) -> None:
    """A battle for ``land`` (from the Land pile when ``owner`` is None, else that seat's Land),
    naming the Ares cards it is fought over."""
    ares = rules.ares_fought_over(tx.state, owner)
    tx.emit("battle_started", {"attacker": attacker, "first": first, "land": land, "owner": owner, "ares": ares})


def battle_for_top_land(tx: Tx, attacker: int, *, first: int | None = None) -> None:
    """Turn option d, a forced battle, an Ambush: a battle for the topmost Land of the Land pile."""
    start_battle(tx, attacker, first=attacker if first is None else first,
                 land=tx.state["land_pile"][0], owner=None)


def play_warrior(tx: Tx, seat: int, card: str, source: str) -> None:
    b = tx.state["battle"]
    free_chance = b["passed"] is not None
    result = rules.warrior_result(C, b, seat, card)
    tx.emit("warrior_played", {"seat": seat, "card": card, "from": source, "result": result})
    if free_chance:
        finish_battle(tx, rules.victor(tx.state["battle"]))


def swap_warrior(tx: Tx, seat: int, card: str) -> None:
    b = tx.state["battle"]
    returned = b["current"][seat]
    result = "win" if C.beats(card, b["current"][opp(seat)]) else "tie"
    tx.emit("warrior_swapped", {"seat": seat, "card": card, "returned": returned, "result": result})


def pass_battle(tx: Tx, seat: int) -> None:
    """Step 4: a pass gives the opponent one free chance; step 1: passing before any Warrior loses."""
    b = tx.state["battle"]
    if b["passed"] is not None:
        finish_battle(tx, rules.victor(b))
    elif b["played"][seat] == 0:
        tx.emit("battle_passed", {"seat": seat})
        finish_battle(tx, opp(seat))
    else:
        tx.emit("battle_passed", {"seat": seat})


def finish_battle(tx: Tx, winner: int | None) -> None:
    """Battle steps 5 to 10."""
    s = tx.state
    b = s["battle"]
    attacker = b["attacker"]
    tx.emit("battle_ended", {"winner": winner, "land": b["land"], "owner": b["owner"]})  # step 5
    if winner is not None and points(C, s["seats"][winner]["lands"]) >= s["target_points"]:
        end_game(tx, "a player reached the winning points")
        return
    starter = rules.next_starter(b, winner)
    tx.emit("battle_cleared", {"next": starter})  # steps 6 and 7
    if len(s["ares_disc"]) >= C.number("ares_discards_to_end"):
        end_game(tx, "the last Ares card was discarded")
        return
    for seat in (attacker, opp(attacker)):
        refresh_bonus(tx, seat)
    for seat in (attacker, opp(attacker)):  # step 8
        draw_warriors(tx, seat, C.number("reserve_draws_after_battle"), to="reserve")
    if winner is not None:
        draw_warriors(tx, opp(winner), C.number("extra_reserve_draws_for_loser"), to="reserve")
    next_restock(tx, [starter, opp(starter)])  # step 9, then step 10


def can_restock(state: dict, seat: int) -> bool:
    me = state["seats"][seat]
    return bool(me["reserve"]) and len(me["hand"]) < C.number("warrior_hand_limit")


def next_restock(tx: Tx, queue: list[int]) -> None:
    queue = [q for q in queue if can_restock(tx.state, q)]
    if queue:
        tx.emit("restock_started", {"seat": queue[0], "queue": queue[1:]})
    else:
        begin_turn(tx, tx.state["next_turn"])


def restock(tx: Tx, seat: int, card: str) -> None:
    tx.emit("restocked", {"seat": seat}, private={seat: {"card": card}})
    if not can_restock(tx.state, seat):
        next_restock(tx, tx.state["restock_queue"])


def restock_done(tx: Tx, seat: int) -> None:
    next_restock(tx, tx.state["restock_queue"])
