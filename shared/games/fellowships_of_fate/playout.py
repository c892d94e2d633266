"""The move a search playout makes: random where the choice is a matter of plan (which member,
which ability), but never a move nobody would make.

* Formation: one ``form`` move, any of them at random.
* Resolving an icon: carry it out rather than ``skip`` it; of the cards an Overcome or a sun icon
  may take, the one with the most VP (Mythical Beast counts as a card of ``BEAST_VP``).
"""
from __future__ import annotations

from .content import content

BEAST_VP = 3  # a fifth member this round and a tenth for the later ones


def card_vp(card: str) -> int:
    adventure = content().adventures[card]
    return BEAST_VP if adventure.member is not None else (adventure.vp or 0)


def playout_move(state: dict, seat: int, moves: list[dict], rng) -> dict:
    kind = moves[0]["type"]
    if kind == "obtain":
        return max(moves[:-1], key=lambda m: card_vp(m["card"]))
    if kind in ("form", "play", "activate"):
        return moves[rng.randbelow(len(moves))]
    if kind == "gain" and len(moves) > 2:  # a wild icon: any token
        return moves[rng.randbelow(len(moves) - 1)]
    return moves[0]  # the one way to carry the icon out (skip is always listed last)
