"""A tournament log's records: the record format and hash chain of a match's log
(``shared.eventstore.chain``: seq, type, data, at, engine, hidden_digest, prev_hash, hash). A
tournament has no hidden parts, so ``hidden_digest`` is null and no seed is needed."""
from __future__ import annotations

from ..eventstore.chain import GENESIS, seal, verify_chain

ENGINE = "tournament/1"


def build_records(prev: list[dict], events: list[dict], at: float) -> list[dict]:
    """Seal ``events`` ({"type", "data"}) as the records following ``prev``."""
    head = prev[-1]["hash"] if prev else GENESIS
    out = []
    for i, ev in enumerate(events, start=len(prev) + 1):
        rec = seal({"seq": i, "type": ev["type"], "data": ev["data"], "at": round(at, 3), "engine": ENGINE},
                   head, b"")
        head = rec["hash"]
        out.append(rec)
    return out


def verify(records: list[dict]) -> tuple[bool, str | None]:
    """(valid, reason) of a tournament log's chain."""
    return verify_chain(records)
