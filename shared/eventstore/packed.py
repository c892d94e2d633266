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
    """A compact log that does not re-seal to its head hash (or is not one at all). ``seq``: the
    first record that cannot be read back (1 when nothing can be), or None when every record
    parses but the chain does not end at the stored head hash (the changed record cannot be told)."""

    def __init__(self, reason: str, seq: int | None = 1):
        super().__init__(reason if seq is None else f"record {seq}: {reason}")
        self.reason, self.seq = reason, seq


CHUNK = 4096  # compressed bytes inflated at a time: what comes before a damaged byte still reads


def _inflate(body: bytes) -> tuple[bytes, str | None]:
    """What the zlib data inflates to, and why it stops short (None when it is whole)."""
    inflater, out = zlib.decompressobj(), []
    for start in range(0, len(body), CHUNK):
        try:
            out.append(inflater.decompress(body[start:start + CHUNK]))
        except zlib.error as err:
            return b"".join(out), f"the compressed data is damaged ({err})"
    if not inflater.eof:
        return b"".join(out), "the compressed data is cut short"
    if inflater.unused_data:
        return b"".join(out), "data follows the end of the compressed log"
    return b"".join(out), None


def pack(records: list[dict]) -> bytes:
    """The compact form of a whole log (records 1..n, in order)."""
    header = {"records": len(records), "head_hash": records[-1]["hash"] if records else GENESIS}
    lines = [encode(header)]
    lines += [dumps({k: v for k, v in rec.items() if k not in DERIVED}).encode() for rec in records]
    return MAGIC + zlib.compress(b"\n".join(lines), LEVEL)


def unpack(blob: bytes, seed: bytes, *, check_head: bool = True) -> list[dict]:
    """The records of a compact log, re-sealed into the hash chain; raises ``CorruptLog`` naming
    the first record that cannot be read back when the blob is damaged, cut short or not a compact
    log, or when the chain does not end at the stored head hash."""
    if not blob.startswith(MAGIC):
        raise CorruptLog("not a compact match log (wrong magic header): no record can be read")
    data, broken = _inflate(blob[len(MAGIC):])
    lines = data.split(b"\n")
    if broken is not None:
        lines = lines[:-1]  # the last line may be cut: only lines ended by a newline are whole
    try:
        header = loads(lines[0]) if lines else None
        if not isinstance(header, dict) or not isinstance(header.get("records"), int):
            raise ValueError("no header")
    except ValueError:
        raise CorruptLog(f"the compact log's header cannot be read ({broken or 'not JSON'})") from None
    records, prev = [], GENESIS
    for seq, line in enumerate(lines[1:], start=1):
        try:
            rec = loads(line)
            if not isinstance(rec, dict):
                raise ValueError("not a JSON object")
        except ValueError as err:
            raise CorruptLog(f"does not parse ({err})", seq) from None
        rec["seq"] = seq
        seal(rec, prev, seed)
        prev = rec["hash"]
        records.append(rec)
    if broken is not None:
        raise CorruptLog(broken, len(records) + 1)
    if len(records) < header["records"]:
        raise CorruptLog(f"is missing: the compact log holds {len(records)} of {header['records']} records",
                         len(records) + 1)
    if len(records) > header["records"]:
        raise CorruptLog(f"is one too many: the compact log says it holds {header['records']} records",
                         header["records"] + 1)
    if check_head and prev != header.get("head_hash"):
        raise CorruptLog(f"the compact log does not re-seal to its head hash {header.get('head_hash')}: "
                         "a record in it was changed", None)
    return records


def packed_lines(blob: bytes, seed: bytes) -> list[str]:
    """``unpack``, each record as the very JSON the stream held (what ``EventStore.read`` parses)."""
    return [dumps(rec) for rec in unpack(blob, seed)]
