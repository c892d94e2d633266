"""RQ jobs of the rules service (run by its own worker on the ``rules`` queue)."""
from __future__ import annotations

from functools import lru_cache

from shared.config import load

from .runtime import Runtime


@lru_cache(maxsize=1)
def runtime() -> Runtime:
    return Runtime.build(load())


def check_deadline(match_id: str, seat: int, since_version: int) -> bool:
    rt = runtime()
    with rt.followups.changing(match_id) as intent:
        handed = rt.deadlines.check(match_id, seat, since_version)
    if not handed:
        rt.followups.cancel(intent)
        return False
    rt.matches.forget(match_id)
    rt.followups.after_change(rt.matches.state(match_id), [intent], moved=seat)
    return True
