"""The compact form of a finished match's log: one zlib blob, the derived digests left out.

``MAGIC`` + zlib of JSON lines: a header ``{"records", "head_hash"}`` and each record as the
stream holds it (same key order) without ``seq``, ``prev_hash``, ``hash`` and ``hidden_digest``.
Those are deterministic, so ``unpack`` recomputes them (``chain.seal`` with the match's seed) and
checks that the chain ends at the stored head hash: the records read back are the stored ones,
byte for byte.
"""
from __future__ import annotations

import zlib

from ..canonical import dumps, encode, loads
from .chain import GENESIS, seal

MAGIC = b"TTz1"                                       # the compact form's format, version 1
DERIVED = ("seq", "prev_hash", "hash", "hidden_digest")  # recomputed on read, not stored
LEVEL = 9


class CorruptLog(Exception):
    """A compact log that does not re-seal to its head hash (or is not one at all)."""


def pack(records: list[dict]) -> bytes:
    """The compact form of a whole log (records 1..n, in order)."""
    header = {"records": len(records), "head_hash": records[-1]["hash"] if records else GENESIS}
    lines = [encode(header)]
    lines += [dumps({k: v for k, v in rec.items() if k not in DERIVED}).encode() for rec in records]
    return MAGIC + zlib.compress(b"\n".join(lines), LEVEL)


def unpack(blob: bytes, seed: bytes) -> list[dict]:
    """The records of a compact log, re-sealed into the hash chain; raises ``CorruptLog`` when the
    chain does not end at the stored head hash."""
    if not blob.startswith(MAGIC):
        raise CorruptLog("not a compact match log")
    try:
        header, *lines = zlib.decompress(blob[len(MAGIC):]).split(b"\n")
        header = loads(header)
    except (zlib.error, ValueError) as err:
        raise CorruptLog(f"unreadable compact log: {err}") from None
    records, prev = [], GENESIS
    for seq, line in enumerate(lines, start=1):
        rec = loads(line)
        rec["seq"] = seq
        seal(rec, prev, seed)
        prev = rec["hash"]
        records.append(rec)
    if len(records) != header["records"] or prev != header["head_hash"]:
        raise CorruptLog(f"the compact log does not re-seal to its head hash {header['head_hash']}")
    return records


def packed_lines(blob: bytes, seed: bytes) -> list[str]:
    """``unpack``, each record as the very JSON the stream held (what ``EventStore.read`` parses)."""
    return [dumps(rec) for rec in unpack(blob, seed)]
