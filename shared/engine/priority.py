"""Priority windows: a chance to respond that passes around the table.

A window opens after some trigger (an action card, a won bid). Starting with the player to the
left of ``source`` it visits each other seat clockwise; each may respond or pass. The first
response closes the window (``respond``); when everyone has passed it closes by itself
(``pass_``). The window is a plain dict kept in the game state.
"""
from __future__ import annotations

from typing import Any, Iterable


def clockwise_from(start: int, players: int) -> list[int]:
    """All seats in clockwise order beginning with ``start``."""
    return [(start + i) % players for i in range(players)]


def open_window(source: int, players: int, *, skip: Iterable[int] = (), **context: Any) -> dict:
    """A window for ``source``'s trigger: the other seats, from its left, clockwise."""
    skipped = set(skip) | {source}
    order = [s for s in clockwise_from((source + 1) % players, players) if s not in skipped]
    return {"source": source, "order": order, "pos": 0, "responder": None, **context}


def current(window: dict) -> int | None:
    """The seat whose turn it is to respond or pass, or None when the window is closed."""
    if is_closed(window):
        return None
    return window["order"][window["pos"]]


def is_closed(window: dict) -> bool:
    return window["responder"] is not None or window["pos"] >= len(window["order"])


def pass_(window: dict) -> None:
    if is_closed(window):
        raise ValueError("the window is closed")
    window["pos"] += 1


def respond(window: dict, seat: int) -> None:
    """``seat`` responds; nobody later in the order may."""
    if current(window) != seat:
        raise ValueError(f"seat {seat} does not hold priority")
    window["responder"] = seat
