"""The shape of a match's state and small queries on it.

State layout (plain JSON):

* ``phase`` — ``action`` (choose the turn action), ``discarding`` (options b/c in progress),
  ``post`` (Ambush/Raid/Rally/Scout after the action), ``respond`` (a reply window on an Action),
  ``battle``, ``swap`` (choose a Skirmish replacement), ``restock`` (battle step 9), ``over``;
  ``actor`` is the seat whose input is awaited, ``turn`` the seat whose turn it is.
* decks (index 0 = top): ``wdeck``/``wdisc`` (Warriors), ``fdeck``/``adisc`` (Fate deck, Action
  discards), ``land_pile``, ``ares_pile`` (Ares in play), ``ares_disc``.
* ``seats[s]``: ``hand`` (Warrior types, sorted), ``actions`` (sorted), ``reserve``, ``revealed``
  (Warriors of the hand shown by Scout), ``lands``, ``bonus`` (face-up bonus Warrior or null).
* ``discarding`` (option b/c: kind and count), ``chain`` (the Actions of a reply window),
  ``battle`` (see ``battle.py``): the sub-state of the phase in progress, or null;
  ``next_turn``/``restock_queue`` between a battle and the next turn; ``battled`` (this turn);
  ``target_points`` (option); ``result`` once the game is over.
"""
from __future__ import annotations

from bisect import insort


def opp(seat: int) -> int:
    return 1 - seat


def new_seat() -> dict:
    return {"hand": [], "actions": [], "reserve": [], "revealed": [], "lands": [], "bonus": None}


def add_sorted(cards: list, card: str) -> None:
    insort(cards, card)


def remove_one(cards: list, card: str) -> None:
    cards.remove(card)


def distinct(cards: list) -> list:
    """The distinct cards of a zone, sorted (one move per kind of card)."""
    return sorted(set(cards))


def is_over(state: dict) -> bool:
    return state.get("phase") == "over"
