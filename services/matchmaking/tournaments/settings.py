"""Tournament limits, from the environment."""
from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TournamentLimits:
    max_entrants: int = field(default_factory=lambda: int(os.environ.get("MAX_TOURNAMENT_ENTRANTS", 256)))
    max_open: int = field(default_factory=lambda: int(os.environ.get("MAX_OPEN_TOURNAMENTS", 3)))
