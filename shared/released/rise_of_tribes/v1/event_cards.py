"""Event cards: drawing on doubles, the two slots, and the interpreter of the card effect
vocabulary in ``data/events.json`` (stock, place, gather_bonus, grow_bonus, population_limit,
hunt, block, raiders, discovery, knowledge, altar, offer_village, leave, add_tokens, relocate)."""
from __future__ import annotations

from shared.engine.zones import emit_reshuffle

from .board import (has_status, hex_count, least_populated, members, occupied, opponents_in,
                    seats_in)
from .content import EVENTS, RESOURCE_OF, RESOURCES
from .decisions import ask, register, resolve, update
from .economy import affordable, gain, pay, total
from .goals import draw
from .slots import active_ops, slot_of


# ----- queries ------------------------------------------------------------------------------
def blocked(state: dict, hex_: int, what: str) -> bool:
    """Whether an active event (Invaders) forbids ``what`` ("gather", "build") in ``hex_``."""
    for eff, i in active_ops(state, "block"):
        slot = state["events"]["slots"][i]
        if what in eff["what"] and slot["hex"] == hex_ and slot["tokens"] > 0:
            return True
    return False


def leave(tx, slot: int) -> None:
    tx.emit("event_left", {"slot": slot, "event": tx.state["events"]["slots"][slot]["id"]})


def _check_stock_empty(tx, slot: int) -> None:
    s = tx.state["events"]["slots"][slot]
    if s and "stock_empty" in EVENTS[s["id"]].get("leaves", []) and sum(s["stock"].values()) == 0:
        leave(tx, slot)


# ----- doubles ------------------------------------------------------------------------------
def react_to_doubles(tx) -> None:
    """Active events that change or leave play on any later doubles."""
    state = tx.state
    for i, slot in enumerate(list(state["events"]["slots"])):
        if not slot:
            continue
        for op in EVENTS[slot["id"]].get("on_doubles", []):
            if op["op"] == "leave":
                leave(tx, i)
            elif op["op"] == "add_tokens":
                tokens = min(op["max"], slot["tokens"] + op["amount"])
                tx.emit("event_changed", {"slot": i, "set": {"tokens": tokens}})
            elif op["op"] == "relocate":
                place_op = next(o for o in EVENTS[slot["id"]]["on_draw"] if o["op"] == "place")
                _place(tx, i, place_op, exclude=slot["hex"])


def draw_event(tx) -> None:
    """Draw the top event into an empty slot (none when both slots hold active events)."""
    state = tx.state
    ev = state["events"]
    if None not in ev["slots"]:
        return
    if not ev["deck"]:
        if not ev["discard"]:
            return
        emit_reshuffle(tx, ev["discard"], "events_reshuffled")
    slot = ev["slots"].index(None)
    card = ev["deck"][0]
    tx.emit("event_drawn", {"event": card, "slot": slot})
    for op in EVENTS[card].get("on_draw", []):
        _on_draw(tx, slot, op)


def _on_draw(tx, slot: int, op: dict) -> None:
    state = tx.state
    if op["op"] == "stock":
        amount = state["n"] if op["amount"] == "players" else op["amount"]
        kinds = RESOURCES if op["resource"] == "each" else (op["resource"],)
        stock = {r: min(amount, state["supply"][r]) for r in kinds}
        tx.emit("stock_placed", {"slot": slot, "stock": stock})
        _check_stock_empty(tx, slot)
    elif op["op"] == "place":
        _place(tx, slot, op, exclude=None)
    elif op["op"] == "offer_village":
        n, start = state["n"], state["turn"]["seat"]
        _offer_next(tx, slot, [(start + k) % n for k in range(n)])


def _place(tx, slot: int, op: dict, exclude: int | None) -> None:
    """Put an event's token(s) on the board; the active player breaks ties."""
    state = tx.state
    if op["where"] == "least_populated":
        options = least_populated(state)
    else:
        options = [h for h in range(hex_count(state)) if state["terrain"][h] == op["terrain"] and h != exclude]
        if not options:
            options = [exclude] if exclude is not None else []
    if not options:
        return
    if len(options) == 1:
        put_token(tx, slot, options[0], op)
    else:
        ask(tx, state["turn"]["seat"], "place_token", slot=slot, options=options, op=op)


def put_token(tx, slot: int, hex_: int, op: dict) -> None:
    """Place an event's tokens on ``hex_`` (a token already out moves with its count); with
    ``harm``, each player there loses that many members."""
    entry = tx.state["events"]["slots"][slot]
    tokens = entry["tokens"] or op.get("tokens", 1)
    tx.emit("event_changed", {"slot": slot, "set": {"hex": hex_, "tokens": tokens}})
    if op.get("harm"):
        for seat in seats_in(tx.state, hex_):
            count = min(op["harm"], members(tx.state, hex_, seat))
            tx.emit("members_removed", {"seat": seat, "hex": hex_, "count": count, "why": entry["id"]})


def _legal_place_token(state, d):
    return [{"type": "place_token", "hex": h} for h in d["options"]]


def _play_place_token(tx, d, move):
    resolve(tx)
    put_token(tx, d["slot"], move["hex"], d["op"])


register("place_token", _legal_place_token, _play_place_token)


# ----- Abandoned Village (instant, every player in turn order) ------------------------------
def _claim_hexes(state: dict, seat: int) -> list[int]:
    if state["supply"]["villages"] <= 0 or not affordable(state, seat, {r: 1 for r in RESOURCES}):
        return []
    return [h for h in occupied(state, seat) if state["village"][h] is None
            and has_status(state, h, seat, "control") and not blocked(state, h, "build")]


def _offer_next(tx, slot: int, order: list[int]) -> None:
    while order and not _claim_hexes(tx.state, order[0]):
        order = order[1:]
    if order:
        ask(tx, order[0], "abandoned_village", slot=slot, order=order)
    else:
        leave(tx, slot)


def _legal_abandoned(state, d):
    return [{"type": "claim_village", "hex": h} for h in _claim_hexes(state, d["seat"])] + [{"type": "pass"}]


def _play_abandoned(tx, d, move):
    resolve(tx)
    if move["type"] == "claim_village":
        pay(tx, d["seat"], {r: 1 for r in RESOURCES})
        tx.emit("village_built", {"seat": d["seat"], "hex": move["hex"]})
    _offer_next(tx, d["slot"], d["order"][1:])


register("abandoned_village", _legal_abandoned, _play_abandoned)


# ----- GROW, GATHER and MOVE hooks -----------------------------------------------------------
def grow_bonus(tx) -> int:
    """Extra members for this GROW (Mild Winter); each such card loses a token on every GROW."""
    bonus = 0
    for eff, i in active_ops(tx.state, "grow_bonus"):
        bonus += eff["amount"]
        stock = tx.state["events"]["slots"][i]["stock"]
        r = next((r for r, k in stock.items() if k > 0), None)
        if r is not None:
            tx.emit("stock_returned", {"slot": i, "resource": r, "count": eff["spend"]})
        _check_stock_empty(tx, i)
    return bonus


def gather_bonus(tx, seat: int, hex_: int) -> None:
    """Plentiful X: extra resources from the card for EACH hex of its terrain gathered."""
    terrain = tx.state["terrain"][hex_]
    for eff, i in active_ops(tx.state, "gather_bonus"):
        if eff["terrain"] != terrain:
            continue
        r = RESOURCE_OF[terrain]
        take = min(eff["per_hex"], tx.state["events"]["slots"][i]["stock"].get(r, 0))
        if take:
            tx.emit("resources", {"seat": seat, "delta": {r: take}, "from": "card", "slot": i})
        _check_stock_empty(tx, i)


def after_move_into(tx, seat: int, dest: int, had_only_opponents: bool) -> None:
    """Discovery: a MOVE into a hex holding only opponents takes a resource from the card."""
    if not had_only_opponents:
        return
    for eff, i in active_ops(tx.state, "discovery"):
        if sum(tx.state["events"]["slots"][i]["stock"].values()) > 0:
            ask(tx, seat, "discover", slot=i, left=eff["take"])


def _legal_discover(state, d):
    stock = state["events"]["slots"][d["slot"]]["stock"]
    return [{"type": "discover", "resource": r} for r in RESOURCES if stock.get(r, 0) > 0]


def _play_discover(tx, d, move):
    tx.emit("resources", {"seat": d["seat"], "delta": {move["resource"]: 1}, "from": "card", "slot": d["slot"]})
    stock = tx.state["events"]["slots"][d["slot"]]["stock"]
    if d["left"] > 1 and sum(stock.values()) > 0:
        update(tx, left=d["left"] - 1)
    else:
        resolve(tx)
        _check_stock_empty(tx, d["slot"])


register("discover", _legal_discover, _play_discover)


# ----- Step 5 options --------------------------------------------------------------------------
def step5_moves(state: dict, seat: int) -> list[dict]:
    """What the active events offer in step 5: hunting, the Altar, Shared Knowledge."""
    out = []
    for eff, i in active_ops(state, "hunt"):
        slot = state["events"]["slots"][i]
        if slot["hex"] is not None and members(state, slot["hex"], seat) >= max(1, eff["min_members"]):
            out.append({"type": "hunt", "event": slot["id"]})
    used = state["turn"]["used"]
    for eff, i in active_ops(state, "altar"):
        if "altar" not in used and affordable(state, seat, {r: eff["pay_each"] for r in RESOURCES}):
            out.extend({"type": "altar", "hex": h} for h in occupied(state, seat))
    for eff, i in active_ops(state, "knowledge"):
        shares = any(opponents_in(state, h, seat) for h in occupied(state, seat))
        if shares and "knowledge" not in used and state["seats"][seat]["deck"] and total(state, seat) >= eff["pay"]:
            have = state["seats"][seat]["res"]
            out.extend({"type": "knowledge", "resource": r} for r in RESOURCES if have[r] > 0)
    return out


def play_step5(tx, seat: int, move: dict) -> None:
    """Carry out a ``step5_moves`` move."""
    state = tx.state
    if move["type"] == "hunt":
        i = slot_of(state, move["event"])
        slot = state["events"]["slots"][i]
        eff = next(e for e in EVENTS[slot["id"]]["effects"] if e["op"] == "hunt")
        if eff["sacrifice"]:
            tx.emit("members_removed", {"seat": seat, "hex": slot["hex"], "count": eff["sacrifice"], "why": "hunt"})
        for r, k in eff["gain"].items():
            gain(tx, seat, r, k)
        leave(tx, i)
        tx.emit("score", {"seat": seat, "points": eff["points"], "why": "hunt"})
    elif move["type"] == "altar":
        eff, _ = active_ops(state, "altar")[0]
        tx.emit("used", {"flag": "altar"})
        tx.emit("members_removed", {"seat": seat, "hex": move["hex"], "count": eff["sacrifice"], "why": "altar"})
        pay(tx, seat, {r: eff["pay_each"] for r in RESOURCES})
        tx.emit("score", {"seat": seat, "points": eff["points"], "why": "altar"})
    elif move["type"] == "knowledge":
        eff, i = active_ops(state, "knowledge")[0]
        tx.emit("used", {"flag": "knowledge"})
        pay(tx, seat, {move["resource"]: eff["pay"]})
        paid = state["events"]["slots"][i]["paid"] + eff["pay"]
        tx.emit("event_changed", {"slot": i, "set": {"paid": paid}})
        draw(tx, seat, eff["draw"])
        if paid >= eff["limit"]:
            leave(tx, i)
