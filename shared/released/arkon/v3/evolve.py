"""``apply``: how each event changes the state, one reducer per event type. Pure, total, no
randomness.

Chance outcomes (deck orders, random cards) are read from the event, never drawn here; cards
leaving the deck are taken from the state's deck, whose order an earlier event recorded.
"""
from __future__ import annotations

from collections.abc import Callable

from shared.engine import commitments, pending, priority
from shared.engine.zones import put_bottom, reshuffle, take_top

Reducer = Callable[[dict, dict, dict], None]
REDUCERS: dict[str, Reducer] = {}


def reducer(name: str):
    def deco(fn: Reducer) -> Reducer:
        REDUCERS[name] = fn
        return fn
    return deco


def apply(state: dict, event: dict) -> None:
    REDUCERS[event["type"]](state, event.get("data") or {}, event)


def _private(event: dict, seat: int) -> dict:
    return (event.get("private") or {}).get(str(seat)) or {}


def _remove(hand: list, cards) -> None:
    for c in cards:
        hand.remove(c)


# Cards enter and leave hands face up (everyone learns which) or unseen. ``known[seat]`` is the
# part of a hand everyone knows (cards taken back from a lost bid, a card gained by Tactical
# Reversal); an unseen departure makes it unknown which of them are left. An unseen arrival
# changes nothing of it.
#
# ``remembered[i][j]`` is the part of seat j's hand that seat i alone (privately) knows: the cards
# i gave j (Conquest, Shifting Allegiances) and the hand i looked at (Thievery). It is kept a
# part of the hand the same way: a card leaving face up leaves it too, an unseen departure wipes
# it — except for the seat that receives the cards, which knows exactly which ones left.
def _show_out(s: dict, seat: int, cards) -> None:
    hand, known = s["hands"][seat], s["known"][seat]
    for c in cards:
        hand.remove(c)
        if c in known:
            known.remove(c)
        for row in s["remembered"]:
            if c in row[seat]:
                row[seat].remove(c)


def _hide_out(s: dict, seat: int, cards, witness: int | None = None) -> None:
    """``cards`` leave ``seat``'s hand unseen by all but ``witness`` (the seat receiving them)."""
    if cards:
        _remove(s["hands"][seat], cards)
        s["known"][seat].clear()
        for i, row in enumerate(s["remembered"]):
            if i != witness:
                row[seat].clear()
            else:
                for c in cards:
                    if c in row[seat]:
                        row[seat].remove(c)


def _show_in(s: dict, seat: int, cards) -> None:
    s["hands"][seat].extend(cards)
    s["known"][seat].extend(cards)


def _give(s: dict, giver: int, receiver: int, cards) -> None:
    """``receiver`` gets ``cards`` from ``giver``: the giver now knows they are in that hand."""
    s["hands"][receiver].extend(cards)
    s["remembered"][giver][receiver].extend(cards)


def _open_window(s: dict, source: int, kind: str) -> None:
    """A response window from ``source``'s left; seats with empty hands cannot respond (public)."""
    empty = [i for i in range(s["players"]) if not s["hands"][i]]
    w = priority.open_window(source, s["players"], skip=empty, kind=kind)
    s["window"] = None if priority.is_closed(w) else w


# ----- setup, turn structure, cards moving -------------------------------------------------
@reducer("setup")
def _setup(s, d, ev):
    n = d["players"]
    s.clear()
    s.update(
        players=n, options=dict(d["options"]), roles=list(d["roles"]) if d["roles"] else None,
        first=d["first"], turn=d["first"],
        phase="action1", put_up=False, iverion_used=False,
        deck=list(ev["secret"]["deck"]), discard=[],
        hands=[list(_private(ev, i)["hand"]) for i in range(n)],
        clans=[[] for _ in range(n)], known=[[] for _ in range(n)],
        remembered=[[[] for _ in range(n)] for _ in range(n)],
        action=None, window=None, bid=None, look=None, pending=[], winners=None,
    )


@reducer("phase")
def _phase(s, d, ev):
    s["phase"] = d["phase"]


@reducer("turn_started")
def _turn_started(s, d, ev):
    s.update(turn=d["seat"], phase="action1", put_up=False, iverion_used=False)


@reducer("reshuffled")
def _reshuffled(s, d, ev):
    reshuffle(s["deck"], s["discard"], ev["secret"]["order"])


@reducer("drew")
def _drew(s, d, ev):
    s["hands"][d["seat"]].extend(take_top(s["deck"], d["count"]))


@reducer("discarded")
def _discarded(s, d, ev):
    _show_out(s, d["seat"], d["cards"])
    s["discard"].extend(d["cards"])


@reducer("cards_moved")
def _cards_moved(s, d, ev):
    """Cards pass from hand to hand; which ones only the two seats learn."""
    cards = _private(ev, d["from"])["gave"]
    _hide_out(s, d["from"], cards, witness=d["to"])
    _give(s, d["from"], d["to"], cards)


@reducer("cards_exchanged")
def _cards_exchanged(s, d, ev):
    """Two seats give each other cards at the same time (Shifting Allegiances)."""
    a, b = d["seats"]
    a_gives, b_gives = _private(ev, a)["gave"], _private(ev, b)["gave"]
    _hide_out(s, a, a_gives, witness=b)
    _hide_out(s, b, b_gives, witness=a)
    _give(s, b, a, b_gives)
    _give(s, a, b, a_gives)


@reducer("hand_seen")
def _hand_seen(s, d, ev):
    """A seat looked at another's hand (the cards are in its private part): it remembers them."""
    hand = _private(ev, d["seat"]).get("hand")
    if hand is not None:
        s["remembered"][d["seat"]][d["target"]] = list(hand)


# ----- clans in play ---------------------------------------------------------------------
@reducer("clan_moved")
def _clan_moved(s, d, ev):
    s["clans"][d["from"]].remove(d["clan"])
    s["clans"][d["to"]].append(d["clan"])


@reducer("clan_destroyed")
def _clan_destroyed(s, d, ev):
    s["clans"][d["owner"]].remove(d["clan"])
    s["discard"].append(d["clan"])


@reducer("clans_swapped")
def _clans_swapped(s, d, ev):
    a, b = d["a"], d["b"]
    s["clans"][a], s["clans"][b] = s["clans"][b], s["clans"][a]


@reducer("game_won")
def _game_won(s, d, ev):
    s["winners"] = list(d["winners"])
    s["phase"] = "over"


# ----- action cards and their response window ------------------------------------------------
@reducer("action_played")
def _action_played(s, d, ev):
    _show_out(s, d["seat"], [d["card"]])
    s["action"] = {**d, "status": "window", "reverser": None}
    _open_window(s, d["seat"], "action")


@reducer("passed")
def _passed(s, d, ev):
    w = s["window"]
    priority.pass_(w)
    if priority.is_closed(w):
        s["window"] = None


def _respond(s, d) -> None:
    priority.respond(s["window"], d["seat"])
    s["window"] = None
    _show_out(s, d["seat"], [d["card"]])
    s["discard"].append(d["card"])


@reducer("countered")
def _countered(s, d, ev):
    _respond(s, d)
    s["action"]["status"] = "countered"


@reducer("reversed")
def _reversed(s, d, ev):
    _respond(s, d)
    s["action"]["reverser"] = d["seat"]


@reducer("action_resolving")
def _action_resolving(s, d, ev):
    s["action"]["status"] = "effect"


@reducer("action_finished")
def _action_finished(s, d, ev):
    card = s["action"]["card"]
    if d["to"] is None:
        s["discard"].append(card)
    else:
        _show_in(s, d["to"], [card])
    s["action"] = None


# ----- pending decisions ---------------------------------------------------------------------
@reducer("asked")
def _asked(s, d, ev):
    # copy: the decision's lists grow later and must not alias the event's data
    pending.push(s, **{k: list(v) if isinstance(v, list) else v for k, v in d.items()})


@reducer("chose")
def _chose(s, d, ev):
    chosen = pending.top(s)["chosen"]
    chosen.append(d["card"])
    known = s["known"][d["seat"]]
    # laid out as a payment, still in hand until it is complete: at least that many are there
    if d.get("shown_in_hand") and known.count(d["card"]) < chosen.count(d["card"]):
        known.append(d["card"])


@reducer("answered")
def _answered(s, d, ev):
    pending.pop(s)


# ----- Iverion's look at the deck ------------------------------------------------------------
@reducer("iverion_looked")
def _iverion_looked(s, d, ev):
    s["iverion_used"] = True
    if d["count"]:
        s["look"] = {"seat": d["seat"], "cards": take_top(s["deck"], d["count"])}


@reducer("bottomed")
def _bottomed(s, d, ev):
    look = s["look"]
    card = _private(ev, d["seat"])["card"]
    look["cards"].remove(card)
    put_bottom(s["deck"], [card])
    s["hands"][d["seat"]].extend(look["cards"])
    s["look"] = None


# ----- bidding -------------------------------------------------------------------------------
@reducer("clan_put_up")
def _clan_put_up(s, d, ev):
    seat = d["seat"]
    _show_out(s, seat, [d["card"]])
    s["put_up"] = True
    order = priority.clockwise_from(seat, s["players"])
    s["bid"] = {
        "clan": d["card"], "bidder": seat,
        "commit": commitments.open_commitment(order, ordered=True),
        "draft": [], "put_back": [], "draft_steps": 0, "counts": {},
        "revealed": None, "winner": None, "totals": None, "saboteur": None, "controller": None,
    }


@reducer("bid_drafted")
def _bid_drafted(s, d, ev):
    """The seat bidding now picked a card for its bid or put one back (only it knows which)."""
    mine = _private(ev, d["seat"])
    s["bid"]["draft_steps"] += 1  # public: everyone sees the seat is at it
    draft = s["bid"]["draft"]
    if mine["picked"]:
        draft.append(mine["card"])
    else:
        draft.remove(mine["card"])
        s["bid"].setdefault("put_back", []).append(mine["card"])  # not to be picked again


@reducer("bid_placed")
def _bid_placed(s, d, ev):
    """The cards go face down in front of the seat: everyone sees how many, only it sees which."""
    bid = s["bid"]
    seat = d["seat"]
    cards = list(_private(ev, seat).get("cards") or [])
    _hide_out(s, seat, cards)
    commitments.commit(bid["commit"], seat, cards)
    bid["counts"][str(seat)] = d["count"]
    bid["draft"] = []
    bid["put_back"] = []
    bid["draft_steps"] = 0


@reducer("bids_revealed")
def _bids_revealed(s, d, ev):
    bid = s["bid"]
    bid["revealed"] = {k: list(v) for k, v in d["bids"].items()}
    bid["commit"] = None


@reducer("reinforced")
def _reinforced(s, d, ev):
    bid = s["bid"]["revealed"][str(d["seat"])]
    bid.remove(d["card"])
    s["discard"].append(d["card"])
    bid.extend(take_top(s["deck"], len(d["drawn"])))


@reducer("kala_added")
def _kala_added(s, d, ev):
    _show_out(s, d["seat"], [d["card"]])
    s["bid"]["revealed"][str(d["seat"])].append(d["card"])


@reducer("bid_won")
def _bid_won(s, d, ev):
    bid = s["bid"]
    winner = d["winner"]
    bid.update(winner=winner, totals=dict(d["totals"]), controller=winner)
    s["discard"].extend(bid["revealed"][str(winner)])
    for seat, cards in d["returned"].items():
        _show_in(s, int(seat), cards)
    for cards in d["overflow"].values():
        s["discard"].extend(cards)
    _open_window(s, winner, "sabotage")


@reducer("sabotaged")
def _sabotaged(s, d, ev):
    _respond(s, d)
    s["bid"]["saboteur"] = d["seat"]


@reducer("sabotage_paid")
def _sabotage_paid(s, d, ev):
    _show_out(s, d["seat"], d["cards"])
    s["discard"].extend(d["cards"])


@reducer("sabotage_refused")
def _sabotage_refused(s, d, ev):
    s["bid"]["controller"] = s["bid"]["saboteur"]


@reducer("clan_controlled")
def _clan_controlled(s, d, ev):
    s["clans"][d["seat"]].append(d["clan"])
    s["bid"] = None
