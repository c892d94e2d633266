"""What a seat may see (``view``) and a full state consistent with it (``determinize``).

Hidden: other hands (except the cards everyone saw go into them: ``known``), the deck (its
order and contents), face-down bid cards of others (a seat sees who has bid, how many cards each
placed face down, and its own cards), Iverion's look at the deck. A seat resolving Thievery sees
the target's hand (``peek``).
"""
from __future__ import annotations

from shared.canonical import clone
from shared.engine import commitments, pending
from shared.rng import Rng

from .cards import deck_counts

PUBLIC = ("players", "options", "roles", "first", "turn", "phase", "put_up", "iverion_used",
          "discard", "clans", "known", "action", "window", "pending", "winners")


def _drafting(bid: dict) -> int | None:
    c = bid["commit"]
    waiting = commitments.waiting(c) if c else []
    return waiting[0] if waiting else None


def _public_bid(bid: dict | None, seat: int | None) -> dict | None:
    """Who has bid; one's own bid (and draft); after the reveal, every bid."""
    if bid is None:
        return None
    out = {k: v for k, v in bid.items() if k not in ("commit", "draft")}
    c = bid["commit"]
    out["commit"] = commitments.public(c, seat) if c else None
    if seat is not None and _drafting(bid) == seat:
        out["draft"] = list(bid["draft"])
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
    v["deck_size"] = len(state["deck"])
    v["bid"] = _public_bid(state["bid"], seat)
    look = state["look"]
    v["look"] = None if look is None else {
        "seat": look["seat"], "size": len(look["cards"]),
        **({"cards": look["cards"]} if look["seat"] == seat else {}),
    }
    target = peek_target(state, seat)
    v["peek"] = None if target is None else {"seat": target, "hand": state["hands"][target]}
    return clone(v)


def determinize(v: dict, seat: int, rng: Rng) -> dict:
    """A full state: what ``seat`` knows from ``v``, the unknown cards shuffled into the hidden
    places (other hands, others' face-down bids, Iverion's look, the deck) at their known sizes."""
    s = clone({k: v[k] for k in PUBLIC})
    bid, look, peek = v["bid"], v["look"], v["peek"]
    unknown = deck_counts(v["options"])
    seen: list[str] = list(v["hand"]) + list(v["discard"]) + [c for cl in v["clans"] for c in cl]
    if v["action"]:
        seen.append(v["action"]["card"])
    if bid:
        seen.append(bid["clan"])
        if bid["revealed"] is not None and bid["winner"] is None:
            seen += [c for cards in bid["revealed"].values() for c in cards]
    if look and "cards" in look:
        seen += look["cards"]
    if peek:
        seen += peek["hand"]
    seen += [c for i, cards in enumerate(v["known"]) if i != seat and not (peek and peek["seat"] == i)
              for c in cards]
    unknown.subtract(seen)
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
        elif peek and peek["seat"] == i:
            hands.append(list(peek["hand"]))
        else:
            hands.append(list(v["known"][i]) + deal(size - len(v["known"][i])))
    s["hands"] = hands
    s["bid"] = None if bid is None else _hidden_bid(bid, seat, hands, rng)
    s["look"] = None if look is None else {
        "seat": look["seat"], "cards": list(look["cards"]) if "cards" in look else deal(look["size"]),
    }
    s["deck"] = deal(v["deck_size"])
    assert not pool, "determinize: card count mismatch"
    return s


def _hidden_bid(bid: dict, seat: int, hands: list[list[str]], rng: Rng) -> dict:
    """The open bid with others' face-down cards guessed: any part of their (guessed) hands —
    the cards stay in hand until the reveal and nobody knows how many were bid."""
    out = {k: clone(v) for k, v in bid.items() if k not in ("commit", "draft")}
    c = bid["commit"]
    out["draft"] = []
    out["commit"] = None
    if c:
        values = {}
        for s in c["committed"]:
            hand = hands[s]
            values[str(s)] = list(c["mine"]) if s == seat else rng.sample(hand, rng.randbelow(len(hand) + 1))
        out["commit"] = {"seats": c["seats"], "ordered": c["ordered"], "values": values}
        drafting = commitments.waiting(out["commit"])
        if drafting:
            d = drafting[0]
            if d == seat:
                out["draft"] = list(bid["draft"])
            else:
                done = sorted(hands[d])[: bid["step"]]
                out["draft"] = [card for card in done if rng.randbelow(2)]
    return out
