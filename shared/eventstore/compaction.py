"""Compaction of finished matches: the log as one compressed blob, the snapshots dropped.

A finished (or aborted) match never changes again, yet its stream keeps every record as JSON with
three 64-character hex digests (``prev_hash``, ``hash``, ``hidden_digest``) and a snapshot every
``SNAPSHOT_EVERY`` events: about 400 bytes of Redis memory per event. Compacted, the match keeps

* ``{m:M}:packed`` — the log in the compact form of ``shared.eventstore.packed`` (zlib, the
  derived digests recomputed on read), a few kilobytes;
* ``{m:M}:meta`` (with ``compacted`` set), ``{m:M}:seed`` and the audit cache, as before.

Every reader goes through ``EventStore.read``, which serves the stream while it exists and the
blob once it is gone (with a small per-process cache of decoded logs), so views at any version,
event pages, exports, audits and live streams answer exactly as before.

Crash safety: the steps are *write the blob*, *switch* (mark the meta ``compacted``), *delete the
stream, the snapshots and the deadlines*. A reader sees a complete log at every point (the blob
exists before the stream goes), and a compaction killed between two steps is finished by running
it again: every step is idempotent, and ``compact`` checks the blob reads back byte for byte
before writing it. Idempotency-Key answers are left alone: they expire on their own (24 h).
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import faults
from ..canonical import dumps
from ..envelope import TERMINAL
from .damage import DamagedLog
from .packed import MAGIC, CorruptLog, pack, unpack
from .store import EventStore, keys

# what Compactor.compact did
COMPACTED, ALREADY, ACTIVE, MISSING = "compacted", "already-compacted", "active", "missing"


class CompactionRefused(Exception):
    """The log cannot be compacted faithfully (it would not read back byte for byte)."""


@dataclass
class Compactor:
    store: EventStore

    def compact(self, match_id: str) -> str:
        """Compact one match if it is over. Returns ``COMPACTED``, ``ALREADY``, ``ACTIVE`` or
        ``MISSING``; raises ``CompactionRefused`` for a log that would not read back unchanged."""
        store, k = self.store, keys(match_id)
        meta = store.meta(match_id)
        if not meta:
            return MISSING
        if meta.get("status", "active") == "active":
            return ACTIVE
        try:
            records = store.read_stream(match_id)
            seed = store.seed(match_id)
        except DamagedLog as err:
            raise CompactionRefused(f"{match_id}: damaged log: {err.message}") from None
        if not records:  # the stream is gone: an earlier run got past writing the blob
            if not store.r.exists(k["packed"]):
                return MISSING
            self._switch_and_delete(match_id)
            return ALREADY
        if records[-1]["type"] not in TERMINAL:
            return ACTIVE
        blob = pack(records)
        self._check(match_id, meta, records, blob, seed)
        store.r.set(k["packed"], blob)
        faults.point("compaction-after-write")
        self._switch_and_delete(match_id)
        return COMPACTED

    def _switch_and_delete(self, match_id: str) -> None:
        k = keys(match_id)
        self.store.set_meta(match_id, compacted=MAGIC.decode())
        faults.point("compaction-after-switch")
        self.store.r.delete(k["log"], k["snaps"], k["deadlines"])

    @staticmethod
    def _check(match_id: str, meta: dict, records: list[dict], blob: bytes, seed: bytes) -> None:
        if len(records) != int(meta.get("version", -1)) or records[-1]["hash"] != meta.get("head_hash"):
            raise CompactionRefused(f"{match_id}: the stream does not end at the meta's head")
        try:
            back = unpack(blob, seed)
        except CorruptLog as err:
            raise CompactionRefused(f"{match_id}: {err}") from None
        if [dumps(r) for r in back] != [dumps(r) for r in records]:
            raise CompactionRefused(f"{match_id}: the compact log would not read back byte for byte")
