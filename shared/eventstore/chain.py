"""The hash chain over a match's log.

Each stored record carries ``prev_hash`` and ``hash``:

    hidden_digest = sha256(salt || canonical({"cause"?, "private"?, "secret"?}))   (or null)
    salt          = HMAC-SHA256(seed, "hidden:<seq>") as hex
    hash          = sha256(canonical({"seq", "type", "data", "at", "engine",
                                      "hidden_digest", "prev_hash"}))

The digest lets a viewer of the *redacted* log verify the chain, and, once the seed is revealed at
the end, verify the hidden parts too; the salt stops anyone from guessing a hidden card by hashing
every candidate while the match is on.
"""
from __future__ import annotations

from ..canonical import encode, hmac_hex, sha256_hex

GENESIS = "0" * 64
HIDDEN_KEYS = ("cause", "private", "secret")
BODY_KEYS = ("seq", "type", "data", "at", "engine", "hidden_digest", "prev_hash")


def hidden_of(record: dict) -> dict | None:
    parts = {k: record[k] for k in HIDDEN_KEYS if record.get(k) is not None}
    return parts or None


def hidden_digest(record: dict, seed: bytes) -> str | None:
    parts = hidden_of(record)
    if parts is None:
        return None
    salt = hmac_hex(seed, f"hidden:{record['seq']}")
    return sha256_hex(salt.encode() + encode(parts))


def hash_record(record: dict) -> str:
    return sha256_hex(encode({k: record.get(k) for k in BODY_KEYS}))


def seal(record: dict, prev_hash: str, seed: bytes) -> dict:
    """Fill in ``hidden_digest``, ``prev_hash`` and ``hash`` of a new record."""
    record["hidden_digest"] = hidden_digest(record, seed)
    record["prev_hash"] = prev_hash
    record["hash"] = hash_record(record)
    return record


def first_break(records: list[dict], seed: bytes | None = None) -> tuple[int, str] | None:
    """The position (1-based) of the first record that breaks the chain, and why; None if intact.
    With the seed, hidden parts are checked against their digests too."""
    prev = GENESIS
    for i, rec in enumerate(records, start=1):
        if rec.get("seq") != i:
            return i, f"has seq {rec.get('seq')}, expected {i} (a record dropped, added or moved)"
        if rec.get("prev_hash") != prev:
            return i, "prev_hash does not match the previous hash"
        if hash_record(rec) != rec.get("hash"):
            return i, "hash does not match its contents"
        if seed is not None and hidden_digest(rec, seed) != rec.get("hidden_digest"):
            return i, "hidden parts do not match their digest"
        prev = rec["hash"]
    return None


def verify_chain(records: list[dict], seed: bytes | None = None) -> tuple[bool, str | None]:
    """(valid, reason). With the seed, hidden parts are checked against their digests too."""
    broken = first_break(records, seed)
    if broken is None:
        return True, None
    return False, f"record {broken[0]}: {broken[1]}"
