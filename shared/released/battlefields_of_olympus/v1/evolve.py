"""``apply``: folds one event into the state, in place. Pure and total; never draws randomness.

Draws take the top card of a deck whose order the state already holds (recorded by the setup
or reshuffle event's secret part), so a draw event only names who draws and where the card goes.
"""
from __future__ import annotations

from shared.engine import zones

from .replies import settle
from .state import add_sorted, new_seat, opp, remove_one


def _setup(s: dict, d: dict, ev: dict) -> None:
    secret = ev.get("secret") or {}
    s.clear()
    s.update({
        "phase": "action", "actor": d["first"], "turn": d["first"], "battled": False,
        "wdeck": list(secret["wdeck"]), "wdisc": [],
        "fdeck": list(secret["fdeck"]), "adisc": [],
        "land_pile": [], "ares_pile": [], "ares_disc": [],
        "seats": [new_seat() for _ in range(d["players"])],
        "target_points": d["target_points"],
        "discarding": None, "chain": None, "battle": None, "next_turn": None, "restock_queue": [],
        "result": None,
    })


def _reshuffled(s, d, ev):
    zones.reshuffle(s["wdeck"], s["wdisc"], ev["secret"]["order"])


def _warrior_drawn(s, d, ev):
    card = s["wdeck"].pop(0)
    seat = s["seats"][d["seat"]]
    if d["to"] == "hand":
        add_sorted(seat["hand"], card)
    else:
        zones.put_top(seat["reserve"], [card])


def _bonus_drawn(s, d, ev):
    s["seats"][d["seat"]]["bonus"] = s["wdeck"].pop(0)


def _bonus_lost(s, d, ev):
    seat = s["seats"][d["seat"]]
    s["wdisc"].append(seat["bonus"])
    seat["bonus"] = None


def _turn_started(s, d, ev):
    s.update(phase="action", turn=d["seat"], actor=d["seat"], battled=False, next_turn=None, restock_queue=[])


def _fate_drawn(s, d, ev):
    card = s["fdeck"].pop(0)
    if d["kind"] == "action":
        add_sorted(s["seats"][d["seat"]]["actions"], card)
    elif d["kind"] == "land":
        zones.put_top(s["land_pile"], [card])
    else:
        zones.put_top(s["ares_pile"], [card])


def _discard_started(s, d, ev):
    s.update(phase="discarding", actor=d["seat"])
    s["discarding"] = {"kind": d["kind"], "count": 0}


def _discard_from_hand(seat: dict, card: str) -> None:
    remove_one(seat["hand"], card)
    if card in seat["revealed"]:
        remove_one(seat["revealed"], card)


def _warrior_discarded(s, d, ev):
    _discard_from_hand(s["seats"][d["seat"]], d["card"])
    s["wdisc"].append(d["card"])
    if s["discarding"]:
        s["discarding"]["count"] += 1


def _action_discarded(s, d, ev):
    remove_one(s["seats"][d["seat"]]["actions"], d["card"])
    s["adisc"].append(d["card"])
    if s["discarding"]:
        s["discarding"]["count"] += 1


def _discard_done(s, d, ev):
    s["discarding"] = None


def _post_started(s, d, ev):
    s.update(phase="post", actor=d["seat"])


def _battle_started(s, d, ev):
    s["battle"] = {
        "attacker": d["attacker"], "defender": opp(d["attacker"]), "first": d["first"],
        "land": d["land"], "owner": d["owner"],
        "to_play": d["first"], "current": [None, None], "played": [0, 0], "line": [],
        "leader": None, "passed": None, "actions": [], "used": [], "winner": None,
    }
    s.update(phase="battle", actor=d["first"], battled=True)


def _action_played(s, d, ev):
    remove_one(s["seats"][d["seat"]]["actions"], d["card"])
    s["chain"] = {
        "context": s["phase"], "seat": d["seat"], "land": d.get("land"), "responder": opp(d["seat"]),
        "cards": [{"card": d["card"], "seat": d["seat"], "target": None, "effect": None, "removed": False,
                   "status": "active"}],
    }
    s.update(phase="respond", actor=opp(d["seat"]))


def _action_responded(s, d, ev):
    remove_one(s["seats"][d["seat"]]["actions"], d["card"])
    chain = s["chain"]
    cards = chain["cards"]
    cancel = d["effect"] == "cancel"
    if cancel:
        cards[d["target"]]["removed"] = True
    cards.append({"card": d["card"], "seat": d["seat"], "target": d["target"], "effect": d["effect"],
                  "removed": cancel, "status": "active"})
    settle(cards)
    chain["responder"] = opp(d["seat"])
    s["actor"] = chain["responder"]


def _chain_resolved(s, d, ev):
    chain = s["chain"]
    s["chain"] = None
    s["phase"] = chain["context"]
    if chain["context"] == "battle":
        s["battle"]["actions"].extend(chain["cards"])
        s["actor"] = s["battle"]["to_play"]
    else:
        s["adisc"].extend(c["card"] for c in chain["cards"])
        s["actor"] = s["turn"]


def _hand_revealed(s, d, ev):
    s["seats"][d["seat"]]["revealed"] = sorted(d["cards"])


def _new_warrior(b: dict, seat: int, card: str, source: str, result: str) -> None:
    b["line"].append({"seat": seat, "card": card, "from": source, "result": result})
    b["current"][seat] = card
    b["leader"] = None if result == "tie" else seat
    b["used"].extend(b["actions"])
    b["actions"] = []
    b["to_play"] = opp(seat)


def _warrior_played(s, d, ev):
    seat, b = s["seats"][d["seat"]], s["battle"]
    if d["from"] == "bonus":
        seat["bonus"] = None
    else:
        _discard_from_hand(seat, d["card"])
    b["played"][d["seat"]] += 1
    _new_warrior(b, d["seat"], d["card"], d["from"], d["result"])
    s["actor"] = b["to_play"]


def _lead_taken(s, d, ev):
    b = s["battle"]
    b["leader"] = d["seat"]
    b["line"][-1]["result"] = "overturned"
    b["to_play"] = opp(d["seat"])
    s["actor"] = b["to_play"]


def _swap_started(s, d, ev):
    s.update(phase="swap", actor=d["seat"])


def _warrior_swapped(s, d, ev):
    seat, b = s["seats"][d["seat"]], s["battle"]
    _discard_from_hand(seat, d["card"])
    add_sorted(seat["hand"], d["returned"])
    for i in range(len(b["line"]) - 1, -1, -1):
        if b["line"][i]["seat"] == d["seat"]:
            del b["line"][i]
            break
    _new_warrior(b, d["seat"], d["card"], "swap", d["result"])
    s.update(phase="battle", actor=b["to_play"])


def _battle_passed(s, d, ev):
    b = s["battle"]
    b["passed"] = d["seat"]
    b["to_play"] = opp(d["seat"])
    s["actor"] = b["to_play"]


def _battle_ended(s, d, ev):
    b = s["battle"]
    b["winner"] = d["winner"]
    land, winner = d["land"], d["winner"]
    if winner is None or land is None:
        return
    if d["owner"] is None:
        s["land_pile"].remove(land)
    elif d["owner"] != winner:
        s["seats"][d["owner"]]["lands"].remove(land)
    else:
        return
    s["seats"][winner]["lands"].append(land)


def _battle_cleared(s, d, ev):
    b = s["battle"]
    s["wdisc"].extend(w["card"] for w in b["line"])
    s["adisc"].extend(a["card"] for a in b["used"] + b["actions"])
    s["ares_disc"].extend(s["ares_pile"])
    s["ares_pile"] = []
    for seat in s["seats"]:
        seat["revealed"] = []
    s["battle"] = None
    s["next_turn"] = d["next"]


def _restock_started(s, d, ev):
    s.update(phase="restock", actor=d["seat"], restock_queue=list(d["queue"]))


def _restocked(s, d, ev):
    card = ev["private"][str(d["seat"])]["card"]
    seat = s["seats"][d["seat"]]
    remove_one(seat["reserve"], card)
    add_sorted(seat["hand"], card)


def _game_ended(s, d, ev):
    s.update(phase="over", actor=None, chain=None)
    s["result"] = {"reason": d["reason"]}


HANDLERS = {
    "setup": _setup,
    "warrior_deck_reshuffled": _reshuffled,
    "warrior_drawn": _warrior_drawn,
    "bonus_drawn": _bonus_drawn,
    "bonus_lost": _bonus_lost,
    "turn_started": _turn_started,
    "fate_drawn": _fate_drawn,
    "discard_started": _discard_started,
    "warrior_discarded": _warrior_discarded,
    "action_discarded": _action_discarded,
    "discard_done": _discard_done,
    "post_started": _post_started,
    "battle_started": _battle_started,
    "action_played": _action_played,
    "action_responded": _action_responded,
    "chain_resolved": _chain_resolved,
    "hand_revealed": _hand_revealed,
    "warrior_played": _warrior_played,
    "lead_taken": _lead_taken,
    "swap_started": _swap_started,
    "warrior_swapped": _warrior_swapped,
    "battle_passed": _battle_passed,
    "battle_ended": _battle_ended,
    "battle_cleared": _battle_cleared,
    "restock_started": _restock_started,
    "restocked": _restocked,
    "game_ended": _game_ended,
}


def apply(state: dict, event: dict) -> None:
    HANDLERS[event["type"]](state, event["data"], event)
