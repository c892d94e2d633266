"""A match whose stored data cannot be read back: a record that does not parse, a compacted log
that is damaged, cut short or gone, a missing seed or meta.

Not the client's fault and not a bug of the server's code: the stored log itself is damaged. The
audit answers it as a verdict (``chain_valid`` false, the damage named in ``problems``); every
other read answers the problem ``urn:problem:damaged-log`` (docs/api.md, "A damaged log").
"""
from __future__ import annotations

from ..canonical import dumps, loads


class DamagedLog(Exception):
    """The stored log of ``match_id`` cannot be read back. ``seq``: the first record that cannot
    be read back intact, or None when the damage is not in one record (the seed, the meta) or
    cannot be placed in one (a compacted log whose records parse but do not re-seal)."""

    def __init__(self, match_id: str, seq: int | None, reason: str):
        self.match_id, self.seq, self.reason = match_id, seq, reason
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return f"record {self.seq}: {self.reason}" if self.seq is not None else self.reason

    def to_json(self) -> dict:
        return {"seq": self.seq, "reason": self.reason, "message": self.message}

    def marker(self) -> str:
        """What the match's meta keeps (``damaged``) once a read has met the damage."""
        return dumps({"seq": self.seq, "reason": self.reason})

    @classmethod
    def from_marker(cls, match_id: str, raw: str) -> "DamagedLog":
        try:
            got = loads(raw)
            return cls(match_id, got.get("seq"), got["reason"])
        except (ValueError, KeyError, TypeError, AttributeError):
            return cls(match_id, None, "the match is marked damaged")
