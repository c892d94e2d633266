"""Simultaneous hidden commitments: face-down bids, secret formations.

Each listed seat commits one value; nobody sees another's value until all have committed and
the game reveals them. ``order`` (optional) makes commitments sequential but still hidden (bids
placed face down in turn order). The commitment is a plain dict in the game state; views show
others only *whether* a seat has committed (``public``).
"""
from __future__ import annotations

from typing import Any, Sequence


def open_commitment(seats: Sequence[int], *, ordered: bool = False, **context: Any) -> dict:
    return {"seats": list(seats), "ordered": ordered, "values": {}, **context}


def waiting(c: dict) -> list[int]:
    """Seats that still have to commit (only the next one when ordered)."""
    left = [s for s in c["seats"] if str(s) not in c["values"]]
    return left[:1] if c["ordered"] else left


def commit(c: dict, seat: int, value: Any) -> None:
    if seat not in waiting(c):
        raise ValueError(f"seat {seat} may not commit now")
    c["values"][str(seat)] = value


def complete(c: dict) -> bool:
    return all(str(s) in c["values"] for s in c["seats"])


def value(c: dict, seat: int) -> Any:
    return c["values"].get(str(seat))


def public(c: dict, viewer: int | None) -> dict:
    """The commitment as ``viewer`` sees it: who has committed, and only its own value."""
    out = {k: v for k, v in c.items() if k != "values"}
    out["committed"] = [s for s in c["seats"] if str(s) in c["values"]]
    if viewer is not None and str(viewer) in c["values"]:
        out["mine"] = c["values"][str(viewer)]
    return out
