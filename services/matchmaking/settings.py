"""Matchmaking's abuse limits and lifetimes, from the environment."""
from __future__ import annotations

import os
from dataclasses import dataclass, field


def _float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


@dataclass(frozen=True)
class Limits:
    invite_ttl_s: float = field(default_factory=lambda: _float("INVITE_TTL_S", 600))
    table_idle_s: float = field(default_factory=lambda: _float("TABLE_IDLE_S", 3600))
    max_open_tables: int = field(default_factory=lambda: int(_float("MAX_OPEN_TABLES", 5)))
    max_live_tickets: int = field(default_factory=lambda: int(_float("MAX_LIVE_TICKETS", 3)))
