"""Firing turn deadlines: a seat whose deadline passed is handed to a bot, and the change's
follow-ups run (``Deadlines`` keeps the clocks, ``Followups`` what follows a change; this module
is the one place that needs both, so neither imports the other)."""
from __future__ import annotations

import time

from shared import metrics

from .deadlines import DUE, RECLAIM_AFTER_S, Deadlines
from .followups import Followups


def fire_due(deadlines: Deadlines, followups: Followups, limit: int = 100) -> int:
    """Hand over every seat whose deadline passed; returns how many deadlines were looked at."""
    due = deadlines.due.claim(time.time(), RECLAIM_AFTER_S, limit)
    for entry in due:
        match_id, seat, version = entry.split("|")
        with followups.changing(match_id) as intent:
            handed = deadlines.check(match_id, int(seat), int(version))
        if handed:
            deadlines.matches.forget(match_id)
            followups.after_change(deadlines.matches.state(match_id), [intent], moved=int(seat))
        else:
            followups.cancel(intent)
        deadlines.r.zrem(DUE, entry)
        metrics.DEADLINES_FIRED.labels("handed_over" if handed else "moot").inc()
    return len(due)
