"""Role cards (option ``roles``): each role is a hook the rules call at one moment.

* Iverion (``action_ability``): once per turn, as the last thing of an action phase, discard two
  same-named cards, look at the top three, put one on the bottom and the rest in hand. Not an
  action *card*, so there is no counter window (FAQ).
* Kala (``after_reveal``): on her turn, after the reveal (and Reinforcements), add one card.
* Nara (``on_bid_control``): on her turn, after gaining a clan through a bid, may discard a
  clan in play of the same name (Savin matches nothing but itself; FAQ).
* Vale (``after_action_response``): after countering or responding to an action, may discard a
  card to draw one.
"""
from __future__ import annotations

from collections import Counter

from shared.engine import Tx

from .cards import ROLES
from .phases import NEXT_PHASE
from .primitives import ask, discard, ensure_deck


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
    discard(tx, seat, [card] * params["discard_matching"], "iverion")
    ensure_deck(tx, params["look"])
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


# ----- Kala ------------------------------------------------------------------------------------
def after_reveal(tx: Tx) -> None:
    s = tx.state
    bidder = s["bid"]["bidder"]
    if role_of(s, bidder) == "kala" and bidder == s["turn"] and s["hands"][bidder]:
        ask(tx, bidder, "kala")


# ----- Nara ------------------------------------------------------------------------------------
def nara_targets(state: dict, seat: int, clan: str) -> list[int]:
    """Owners of a clan card of the same name, other than the one just gained."""
    return [o for o, clans in enumerate(state["clans"]) if clans.count(clan) - (o == seat) > 0]


def on_bid_control(tx: Tx, seat: int, clan: str) -> None:
    s = tx.state
    if role_of(s, seat) == "nara" and seat == s["turn"] and nara_targets(s, seat, clan):
        ask(tx, seat, "nara", clan=clan)


# ----- Vale ------------------------------------------------------------------------------------
def after_action_response(tx: Tx, seat: int) -> None:
    if role_of(tx.state, seat) == "vale" and tx.state["hands"][seat]:
        ask(tx, seat, "vale")
