"""The cards the Fellowships of Fate and Arkon renderers draw from a state (``[data-card]``
elements, by content id, as often as drawn) — for a seat's view, a spectator's, and a finished
match's open state. Registered in ``viewer_cards.CARDS``; a card the view hides is never listed,
so comparing with the page proves none is drawn."""
from __future__ import annotations


def _list(value) -> list:
    """The entries of a list, or none for a hidden part ({"count": n})."""
    return list(value) if isinstance(value, list) else []


def fof_cards(s: dict) -> list[str]:
    """The field; per player the journal card and what lies under it, the play area (members,
    Level 1 relics), the hand and standby area where seen (else the members known to be in the
    hand), and the fellowship in formation where seen."""
    out = [c for c in s["field"] if c]
    for p in s["seats"]:
        out += [f"journal_{p['colour']}"] + list(p["journal"]) + [m["id"] for m in p["play"]]
        out += [r["id"] for r in p["relics"]]
        out += _list(p["hand"]) if isinstance(p["hand"], list) else list(p["known_hand"])
        out += _list(p["standby"])
        if s["phase"] == "formation" and "draft" in p:  # engine 2's step-by-step formation
            out += _list(p["draft"])
    return out


def arkon_cards(s: dict) -> list[str]:
    """The top of the discard pile, the action card in play, the bid (the clan up; each bid
    revealed, one's own face-down bid, every bid of a finished match; the bid being gathered where
    seen), the cards seen with Thievery or Iverion, and per player the clans in play and the hand
    where seen (else the cards everyone saw go into it and what the viewer remembers of it)."""
    open_ = isinstance(s.get("hands"), list)
    viewer = None if open_ else s.get("seat")
    out = list(s["discard"][-1:])
    if s["action"]:
        out.append(s["action"]["card"])
    bid = s["bid"]
    if bid:
        out.append(bid["clan"])
        commit = bid.get("commit") or {}
        if bid.get("revealed") is not None:
            for cards in bid["revealed"].values():
                out += cards
        elif open_ and commit.get("values"):
            for cards in commit["values"].values():
                out += cards
        elif viewer is not None and commit.get("mine") is not None and str(viewer) in (bid.get("counts") or {}):
            out += commit["mine"]
        draft = bid.get("draft")
        if draft:
            out += draft
    if not open_ and s.get("peek"):
        out += s["peek"]["hand"]
    if s.get("look") and isinstance(s["look"].get("cards"), list):
        out += s["look"]["cards"]
    for seat in range(s["players"]):
        out += s["clans"][seat]
        if open_:
            out += s["hands"][seat]
        elif seat == viewer:
            out += list(s["hand"] or [])
        else:
            out += s["known"][seat] + (list(s["remembered"][seat]) if s.get("remembered") and viewer is not None else [])
    return out


CARDS = {"fellowships-of-fate": fof_cards, "arkon": arkon_cards}
