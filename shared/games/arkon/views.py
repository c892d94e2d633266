"""What a seat may see (``view``) and a full state consistent with it (``determinize``).

Hidden: other hands (except the cards everyone saw go into them: ``known``), the deck (its
order and contents), the cards of others' face-down bids (a seat sees who has placed a bid, how
many cards each placed face down — ``bid.counts`` — and its own bid), Iverion's look at the deck. A seat resolving Thievery sees
the target's hand (``peek``). A seat also sees what it alone remembers of other hands
(``remembered``: cards it gave, a hand it looked at, as long as they are surely still there).
``view`` is total: it also answers for the states between the
events of one move.
"""
from __future__ import annotations

from collections import Counter

from shared.canonical import clone
from shared.engine import commitments, pending
from shared.rng import Rng

from .content import deck_counts

PUBLIC = ("players", "options", "roles", "first", "turn", "phase", "put_up", "iverion_used",
          "discard", "clans", "known", "action", "window", "pending", "winners")


def _public_bid(state: dict, seat: int | None) -> dict | None:
    """Who has bid and how many cards; one's own bid; after the reveal, every bid."""
    bid = state["bid"]
    if bid is None:
        return None
    out = {k: v for k, v in bid.items() if k != "commit"}
    c = bid["commit"]
    out["commit"] = commitments.public(c, seat) if c else None
    return out


def peek_target(state: dict, seat: int | None) -> int | None:
    """The seat whose hand ``seat`` is looking at (Thievery), if any."""
    top = pending.top(state)
    if top and top["kind"] == "steal" and top["seat"] == seat:
        return top["target"]
    return None


def view(state: dict, seat: int | None) -> dict:
    v = {k: state[k] for k in PUBLIC}
    v["seat"] = seat
    v["hand"] = state["hands"][seat] if seat is not None else None
    v["hand_sizes"] = [len(h) for h in state["hands"]]
    v["remembered"] = state["remembered"][seat] if seat is not None else None
    v["deck_size"] = len(state["deck"])
    v["bid"] = _public_bid(state, seat)
    look = state["look"]
    v["look"] = None if look is None else {
        "seat": look["seat"], "size": len(look["cards"]),
        **({"cards": look["cards"]} if look["seat"] == seat else {}),
    }
    target = peek_target(state, seat)
    v["peek"] = None if target is None else {"seat": target, "hand": state["hands"][target]}
    return clone(v)


def sure(v: dict, seat: int, other: int) -> list[str]:
    """The cards ``seat`` knows to be in ``other``'s hand: the hand it is looking at (Thievery),
    else what everyone saw go in (``known``) together with what it alone remembers — a card
    counted as often as the larger of the two says (both are parts of the same hand)."""
    peek = v["peek"]
    if peek and peek["seat"] == other:
        return list(peek["hand"])
    known = v["known"][other]
    return list(known) + list((Counter(v["remembered"][other]) - Counter(known)).elements())


def _seen(v: dict, seat: int) -> list[str]:
    """Every card ``seat`` can place from its view (its hand and bid, the table, what it was
    shown, and the cards it knows to be in others' hands)."""
    bid, look = v["bid"], v["look"]
    seen: list[str] = list(v["hand"]) + list(v["discard"]) + [c for cl in v["clans"] for c in cl]
    if v["action"]:
        seen.append(v["action"]["card"])
    if bid:
        seen.append(bid["clan"])
        if bid["commit"]:
            seen += bid["commit"].get("mine", [])
        if bid["revealed"] is not None and bid["winner"] is None:
            seen += [c for cards in bid["revealed"].values() for c in cards]
    if look and "cards" in look:
        seen += look["cards"]
    seen += [c for i in range(v["players"]) if i != seat for c in sure(v, seat, i)]
    return seen


def determinize(v: dict, seat: int, rng: Rng) -> dict:
    """A full state: what ``seat`` knows from ``v``, the unknown cards shuffled into the hidden
    places (other hands, others' face-down bids, Iverion's look, the deck) at their known sizes."""
    s = clone({k: v[k] for k in PUBLIC})
    bid, look = v["bid"], v["look"]
    unknown = deck_counts(v["options"])
    unknown.subtract(_seen(v, seat))
    pool = rng.shuffled(list(unknown.elements()))

    def deal(n: int) -> list[str]:
        assert len(pool) >= n, "determinize: fewer unknown cards than hidden places"
        cards = pool[:n]
        del pool[:n]
        return cards

    hands = []
    for i, size in enumerate(v["hand_sizes"]):
        if i == seat:
            hands.append(list(v["hand"]))
        else:
            certain = sure(v, seat, i)
            hands.append(certain + deal(size - len(certain)))
    s["hands"] = hands
    # only this seat's memory can be known; the others' are guessed empty (nothing shows them)
    n = v["players"]
    s["remembered"] = [[list(cards) for cards in v["remembered"]] if i == seat else [[] for _ in range(n)]
                       for i in range(n)]
    s["bid"] = None if bid is None else _hidden_bid(bid, seat, deal)
    s["look"] = None if look is None else {
        "seat": look["seat"], "cards": list(look["cards"]) if "cards" in look else deal(look["size"]),
    }
    s["deck"] = deal(v["deck_size"])
    assert not pool, "determinize: card count mismatch"
    return s


def _hidden_bid(bid: dict, seat: int, deal) -> dict:
    """The open bid with others' face-down cards guessed at their public counts."""
    out = {k: clone(val) for k, val in bid.items() if k != "commit"}
    c = bid["commit"]
    out["commit"] = None
    if c:
        values = {str(s): list(c["mine"]) if s == seat else deal(bid["counts"][str(s)])
                  for s in c["committed"]}
        out["commit"] = {"seats": c["seats"], "ordered": c["ordered"], "values": values}
    return out
