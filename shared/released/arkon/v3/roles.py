"""Role Cards (option ``roles``): each role is a hook the rules call at one moment, plus the
decision it asks.

* Iverion (``action_ability``): once per turn, as the last thing of an action phase, discard two
  same-named cards, look at the top three, put one on the bottom and the rest in hand. Not an
  action *card*, so there is no counter window (FAQ). The two discarded cards pay for the look:
  they never come back into it (a short deck is reshuffled before they are discarded).
* Kala (``after_reveal``): on her turn, after the reveal (and Reinforcements), add one card.
* Nara (``on_bid_control``): on her turn, after gaining a clan through a bid, may discard a
  clan in play of the same name (Savin matches nothing but itself; FAQ).
* Vale (``after_action_response``): after countering or responding to an action, may discard a
  card to draw one.
"""
from __future__ import annotations

from collections import Counter

from shared.engine import Tx

from .content import ROLES
from .decisions import answered, ask, each, kind
from .general_rules import discard, draw, ensure_deck
from .phases import NEXT_PHASE


def role_of(state: dict, seat: int) -> str | None:
    return state["roles"][seat] if state["roles"] else None


# ----- Iverion ---------------------------------------------------------------------------------
def iverion_moves(state: dict, seat: int) -> list[dict]:
    if role_of(state, seat) != "iverion" or state["iverion_used"]:
        return []
    need = ROLES["iverion"].params["discard_matching"]
    counts = Counter(state["hands"][seat])
    return [{"type": "iverion", "card": c} for c in sorted(counts) if counts[c] >= need]


def use_iverion(tx: Tx, seat: int, card: str) -> None:
    params = ROLES["iverion"].params
    s = tx.state
    # the deck is made ready for the look first, so that the cost goes onto the (new) discard
    # pile and cannot be shuffled back into the cards it pays to look at
    ensure_deck(tx, params["look"])
    discard(tx, seat, [card] * params["discard_matching"], "iverion")
    count = min(params["look"], len(s["deck"]))
    if count <= params["bottom"]:
        count = 0  # a lone card is already both the top and the bottom of the deck
    tx.emit("iverion_looked", {"seat": seat, "count": count}, private={seat: {"cards": s["deck"][:count]}})
    if count:
        ask(tx, seat, "iverion_bottom")
    else:
        end_iverion(tx)


def end_iverion(tx: Tx) -> None:
    """The ability "takes place at the end of a phase" (FAQ): the action phase ends with it."""
    tx.emit("phase", {"phase": NEXT_PHASE[tx.state["phase"]]})


def _bottom_moves(s, d):
    return each("bottom", s["look"]["cards"])


def _bottom_answer(tx, d, move):
    answered(tx)
    seat = d["seat"]
    to_hand = len(tx.state["look"]["cards"]) - 1
    tx.emit("bottomed", {"seat": seat, "to_hand": to_hand}, private={seat: {"card": move["card"]}})
    end_iverion(tx)


kind("iverion_bottom", _bottom_moves, _bottom_answer)


# ----- Kala ------------------------------------------------------------------------------------
def after_reveal(tx: Tx) -> None:
    s = tx.state
    bidder = s["bid"]["bidder"]
    if role_of(s, bidder) == "kala" and bidder == s["turn"] and s["hands"][bidder]:
        ask(tx, bidder, "kala")


def _kala_moves(s, d):
    return each("add", s["hands"][d["seat"]]) + [{"type": "decline"}]


def _kala_answer(tx, d, move):
    answered(tx)
    if move["type"] == "add":
        tx.emit("kala_added", {"seat": d["seat"], "card": move["card"]})


kind("kala", _kala_moves, _kala_answer)


# ----- Nara ------------------------------------------------------------------------------------
def nara_targets(state: dict, seat: int, clan: str) -> list[int]:
    """Owners of a clan card of the same name, other than the one just gained."""
    return [o for o, clans in enumerate(state["clans"]) if clans.count(clan) - (o == seat) > 0]


def on_bid_control(tx: Tx, seat: int, clan: str) -> None:
    s = tx.state
    if role_of(s, seat) == "nara" and seat == s["turn"] and nara_targets(s, seat, clan):
        ask(tx, seat, "nara", clan=clan)


def _nara_moves(s, d):
    owners = nara_targets(s, d["seat"], d["clan"])
    return [{"type": "destroy", "seat": o} for o in owners] + [{"type": "decline"}]


def _nara_answer(tx, d, move):
    answered(tx)
    if move["type"] == "destroy":
        tx.emit("clan_destroyed", {"owner": move["seat"], "clan": d["clan"], "by": "nara"})


kind("nara", _nara_moves, _nara_answer)


# ----- Vale ------------------------------------------------------------------------------------
def after_action_response(tx: Tx, seat: int) -> None:
    if role_of(tx.state, seat) == "vale" and tx.state["hands"][seat]:
        ask(tx, seat, "vale")


def _vale_moves(s, d):
    return each("discard", s["hands"][d["seat"]]) + [{"type": "decline"}]


def _vale_answer(tx, d, move):
    answered(tx)
    if move["type"] == "discard":
        discard(tx, d["seat"], [move["card"]], "vale")
        draw(tx, d["seat"], 1)


kind("vale", _vale_moves, _vale_answer)
