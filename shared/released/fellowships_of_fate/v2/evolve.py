"""How each event changes the state: one reducer per event type. Pure, total on the events
``play`` emits, no randomness: every chance outcome (deck orders, the starting player) is copied
from the event.

Besides the cards, each seat keeps ``known_hand``: the cards every player saw go into its hand
and not come out again (a Mythical Beast taken this round and not played yet), so views and
determinized states keep what was seen in public events."""
from __future__ import annotations

from shared.engine import commitments

from .abilities import compile_steps
from .content import content


def _new_formation(players: int) -> dict:
    return commitments.open_commitment(range(players))


def on_setup(state: dict, data: dict, secret: dict) -> None:
    c = content()
    players = data["players"]
    state.clear()
    state.update({
        "players": players,
        "round": 1,
        "phase": "formation",
        "start_seat": data["start_seat"],
        "last_actor": None,
        "cursor": data["start_seat"],
        "turn_no": 0,
        "turn": None,
        "field": list(data["field"]),
        "adventure_deck": list(secret["adventure_deck"]),
        "relic_deck": list(secret["relic_deck"]),
        "relics_removed": list(secret["relics_removed"]),
        "formation": _new_formation(players),
        "result": None,
        "seats": [
            {
                "colour": colour,
                "members": list(c.member_order),
                "standby": list(c.member_order),
                "draft": [],
                "hand": [],
                "known_hand": [],
                "play": [],
                "tokens": {t: 0 for t in c.tokens},
                "relics": [],
                "journal": [],
            }
            for colour in data["colours"]
        ],
    })


def on_pick(state: dict, data: dict, private: dict) -> None:
    seat = data["seat"]
    state["seats"][seat]["draft"].append(private[str(seat)]["member"])


def on_unpick(state: dict, data: dict, private: dict) -> None:
    seat = data["seat"]
    state["seats"][seat]["draft"].remove(private[str(seat)]["member"])


def on_confirm(state: dict, data: dict) -> None:
    seat = data["seat"]
    s = state["seats"][seat]
    commitments.commit(state["formation"], seat, sorted(s["draft"]))
    s["draft"] = []


def on_explore_begin(state: dict, data: dict) -> None:
    formation = state["formation"]
    for seat, s in enumerate(state["seats"]):
        hand = commitments.value(formation, seat)
        s["hand"] = list(hand)
        s["standby"] = [m for m in s["members"] if m not in hand]
    state["formation"] = None
    state["phase"] = "explore"
    state["cursor"] = state["start_seat"]


def on_turn_begin(state: dict, data: dict) -> None:
    state["turn_no"] += 1
    state["turn"] = {"seat": data["seat"], "played": None, "ability": None, "use": None, "queue": None, "kinds": {}}


def _ability_steps(member: str, ability: str, use: str, tag: str) -> list[dict]:
    c = content()
    icons = c.members[member].ability(ability) if use == "member" else c.relics[use].icons
    return compile_steps(icons, tag)


def on_play_member(state: dict, data: dict) -> None:
    seat, member, ability = data["seat"], data["member"], data["ability"]
    s = state["seats"][seat]
    s["hand"].remove(member)
    if member in s["known_hand"]:
        s["known_hand"].remove(member)
    turn = state["turn"]
    turn.update(played=member, ability=ability, use=data.get("use"))
    if ability == "nameless":
        s["play"].append({"id": member, "upright": False})
        turn["queue"] = _ability_steps(member, "nameless", data["use"], f"t{state['turn_no']}")
    else:
        s["play"].append({"id": member, "upright": True})
        turn["queue"] = []


def on_activate(state: dict, data: dict) -> None:
    seat = data["seat"]
    card = state["seats"][seat]["play"][data["index"]]
    card["upright"] = False
    turn = state["turn"]
    turn.update(ability="legendary", use=data["use"])
    turn["queue"] = _ability_steps(card["id"], "legendary", data["use"], f"t{state['turn_no']}")


def _pop_step(state: dict) -> None:
    state["turn"]["queue"].pop(0)


def on_gain(state: dict, data: dict) -> None:
    state["seats"][data["seat"]]["tokens"][data["token"]] += 1
    if data.get("group"):
        state["turn"]["kinds"].setdefault(data["group"], data["token"])
    _pop_step(state)


def on_pay(state: dict, data: dict) -> None:
    tokens = state["seats"][data["seat"]]["tokens"]
    for t, n in data["tokens"].items():
        tokens[t] -= n
    _pop_step(state)


def on_skip(state: dict, data: dict) -> None:
    _pop_step(state)


def on_cost_unpaid(state: dict, data: dict) -> None:
    """A Cost that cannot be paid: the remaining icons are skipped and the turn ends."""
    state["turn"]["queue"] = []


def on_obtain(state: dict, data: dict) -> None:
    c = content()
    seat, card = data["seat"], data["card"]
    s = state["seats"][seat]
    _pop_step(state)
    for t, n in data["paid"].items():
        s["tokens"][t] -= n
    state["field"][data["slot"]] = None
    adventure = c.adventures[card]
    if adventure.member is not None:
        s["members"].append(card)
        s["hand"].append(card)
        s["known_hand"].append(card)
    if adventure.vp is not None:
        s["journal"].append(card)
    if adventure.ability:
        state["turn"]["queue"][0:0] = compile_steps(adventure.ability, card)


def on_excavate(state: dict, data: dict) -> None:
    card = state["relic_deck"].pop(0)
    s = state["seats"][data["seat"]]
    if content().relics[card].level == 1:
        s["relics"].append({"id": card, "turn": state["turn_no"]})
    else:
        s["journal"].append(card)
    if not data["extra"]:
        _pop_step(state)


def on_refill(state: dict, data: dict) -> None:
    if data["drawn"] is not None:
        state["adventure_deck"].pop(0)
    state["field"] = list(data["field"])


def _turn_sideways(state: dict, targets: list) -> None:
    for seat, index in targets:
        state["seats"][seat]["play"][index]["upright"] = False


def on_interrupt(state: dict, data: dict) -> None:
    _turn_sideways(state, data["targets"])
    _pop_step(state)


def on_pass(state: dict, data: dict) -> None:
    """A seat that cannot act passes its turn; nothing changes."""


def on_turn_end(state: dict, data: dict) -> None:
    _turn_sideways(state, data["interrupted"])
    state["last_actor"] = data["seat"]
    state["cursor"] = (data["seat"] + 1) % state["players"]
    state["turn"] = None


def on_round_end(state: dict, data: dict) -> None:
    for s in state["seats"]:
        s["play"] = []
        s["hand"] = []
        s["known_hand"] = []
        s["standby"] = list(s["members"])
    state["round"] = data["round"]
    state["start_seat"] = data["start_seat"]
    state["cursor"] = data["start_seat"]
    state["phase"] = "formation"
    state["formation"] = _new_formation(state["players"])


def on_game_end(state: dict, data: dict) -> None:
    state["phase"] = "over"
    state["result"] = {k: data[k] for k in ("vp", "tokens", "ranks")}


WITH_PRIVATE = {  # handlers that read the acting seat's private part
    "pick": on_pick,
    "unpick": on_unpick,
}
HANDLERS = {
    "confirm": on_confirm,
    "explore_begin": on_explore_begin,
    "turn_begin": on_turn_begin,
    "play_member": on_play_member,
    "activate": on_activate,
    "gain": on_gain,
    "pay": on_pay,
    "skip": on_skip,
    "cost_unpaid": on_cost_unpaid,
    "obtain": on_obtain,
    "excavate": on_excavate,
    "refill": on_refill,
    "interrupt": on_interrupt,
    "pass": on_pass,
    "turn_end": on_turn_end,
    "round_end": on_round_end,
    "game_end": on_game_end,
}


def apply(state: dict, event: dict) -> None:
    kind = event["type"]
    data = event.get("data") or {}
    if kind == "setup":
        on_setup(state, data, event.get("secret") or {})
    elif kind in WITH_PRIVATE:
        WITH_PRIVATE[kind](state, data, event.get("private") or {})
    elif kind in HANDLERS:
        HANDLERS[kind](state, data)
    else:
        raise ValueError(f"unknown event type {kind!r}")
