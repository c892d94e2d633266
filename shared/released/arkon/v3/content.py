"""Arkon's content, loaded from ``data/``: cards, roles and the rule numbers.

This module holds no card content itself; a publisher can swap in official counts and values
by editing ``data/cards.json`` alone.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

DATA = Path(__file__).parent / "data"

#: Effect primitives the interpreter in ``card_texts.py`` knows; decision ops must come last.
EFFECT_OPS = {"draw", "cycle", "take_clan", "give_random", "destroy_clan", "swap_clans",
              "exchange_random_per_clan", "steal"}
DECISION_OPS = {"cycle", "steal"}
TARGETS = {"none", "opponent", "opponent_clan", "any_clan"}
RESPONSE_WINDOWS = {"action", "won_bid"}


@dataclass(frozen=True)
class Card:
    """One card design (the deck holds ``copies`` of it; zones hold its ``id``)."""

    id: str
    name: str
    kind: str  # "clan" | "action" | "response"
    influence: int
    copies: int
    clan: str | None = None  # clan type; "any" for a wild clan (Savin)
    passive: int = 0  # influence added to every bid of its controller while in play
    target: str = "none"
    effect: tuple = ()
    response: dict | None = None  # {"to": "action" | "won_bid", "does": ..., "cost"?}
    on_reveal: dict | None = None
    promo: bool = False
    text: str = ""

    @property
    def is_clan(self) -> bool:
        return self.kind == "clan"

    @property
    def playable_as_action(self) -> bool:
        return bool(self.effect)

    @property
    def wild(self) -> bool:
        return self.clan == "any"


@dataclass(frozen=True)
class Role:
    id: str
    name: str
    hook: str
    params: dict = field(default_factory=dict)


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text())


def _card(raw: dict) -> Card:
    card = Card(
        id=raw["id"], name=raw["name"], kind=raw["kind"], influence=raw["influence"],
        copies=raw["copies"], clan=raw.get("clan"), passive=raw.get("passive", 0),
        target=raw.get("target", "none"), effect=tuple(raw.get("effect") or ()),
        response=raw.get("response"), on_reveal=raw.get("on_reveal"),
        promo=raw.get("promo", False), text=raw.get("text", ""),
    )
    _check(card)
    return card


def _check(card: Card) -> None:
    """Content errors fail at import, not in the middle of a match."""
    assert 0 <= card.influence <= 8, card.id
    assert card.target in TARGETS, card.id
    ops = [step["op"] for step in card.effect]
    assert set(ops) <= EFFECT_OPS, card.id
    assert all(op not in DECISION_OPS for op in ops[:-1]), f"{card.id}: a decision op must be last"
    if card.response:
        assert card.response["to"] in RESPONSE_WINDOWS, card.id


_cards_raw = _load("cards.json")
CLAN_TYPES: tuple[str, ...] = tuple(_cards_raw["clan_types"])
CARDS: dict[str, Card] = {c.id: c for c in map(_card, _cards_raw["cards"])}
ROLES: dict[str, Role] = {
    r["id"]: Role(id=r["id"], name=r["name"], hook=r["hook"], params=r.get("params", {}))
    for r in _load("roles.json")["roles"]
}
RULES: dict = _load("rules.json")
HAND_LIMIT: int = RULES["hand_limit"]
WIN_CLANS: int = RULES["win_clans"]


def deck_list(options: dict) -> list[str]:
    """Every card of a match's deck, in a canonical (unshuffled) order."""
    used = [c for c in CARDS.values() if options.get("promo_cards") or not c.promo]
    return [c.id for c in used for _ in range(c.copies)]


def deck_counts(options: dict) -> Counter:
    return Counter(deck_list(options))


def influence(cards) -> int:
    return sum(CARDS[c].influence for c in cards)


def without(cards, taken) -> list[str]:
    """The cards left (sorted) once ``taken`` (a part of ``cards``, duplicates counted) is out."""
    rest = Counter(cards)
    rest.subtract(taken)
    return sorted(rest.elements())


def role_ids() -> list[str]:
    return list(ROLES)
