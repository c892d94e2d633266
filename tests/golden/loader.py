"""Put a golden-corpus match back into a Redis, in the current store's layout.

A corpus file holds every key of the match as its release stored them (``scripts/golden``). Keys
the current store still reads the same way are written back verbatim; a key whose layout changed
since is converted here, and each conversion is named in the returned notes (each is a data
migration that a deployment holding that release's matches needs too):

* ``{m:M}:idem`` — until 2c4e00b one hash ``<seat>:<key>`` -> the first answer (no expiry); since
  961d398 one string per key, ``{m:M}:idem:<seat>:<key>`` = ``done <fingerprint> <answer>`` with
  a 24 h expiry, the fingerprint being the sha256 of the canonical ``{"move",
  "expected_version"}`` of the request, which the old layout did not keep: it is rebuilt from the
  log (the answer's first event names its version; that record's ``cause`` holds the move).
"""
from __future__ import annotations

import base64
import gzip
import json
from pathlib import Path

import redis

from scripts.golden import layout


def read(path: str | Path) -> dict:
    with gzip.open(path, "rb") as f:
        return json.loads(f.read())


def _bytes(value) -> bytes:
    if isinstance(value, dict):
        return base64.b64decode(value["base64"])
    return value.encode()


def put_back(client: redis.Redis, doc: dict) -> list[str]:
    """Write the match of ``doc`` into ``client``; returns the conversions made (empty when the
    stored layout is the current one). Raises ``ValueError`` for a key the current store does not
    know and no conversion handles, and when the rebuilt log is not byte for byte the original."""
    from shared.eventstore import store

    match_id = doc["match_id"]
    tag = f"{{m:{match_id}}}"
    raw = doc["raw"]
    seed = bytes.fromhex(raw[f"{tag}:seed"]["value"])
    current = {name: f"{tag}:{name}" for name in store.keys(match_id)}
    notes: list[str] = []
    pipe = client.pipeline(transaction=False)
    for key, entry in raw.items():
        if not key.startswith(tag + ":"):
            raise ValueError(f"{key}: not a key of match {match_id}")
        suffix = key[len(tag) + 1:]
        kind, value = entry["type"], entry["value"]
        if suffix == "idem" and kind == "hash":
            notes.append(_convert_idem_hash(pipe, doc, value))
            continue
        if suffix == "log":
            texts = [fields["e"] for _id, fields in value]
            if entry.get("chain_digests"):
                texts = layout.restore_entries(texts, seed)
            if layout.log_sha256(texts) != entry["log_sha256"]:
                raise ValueError(f"{key}: the rebuilt log is not the one the release stored")
            for (entry_id, fields), text in zip(value, texts):
                pipe.xadd(key, dict(fields, e=text), id=entry_id)
            continue
        if suffix not in current and not (suffix.startswith("idem:") and hasattr(store, "idempotency_key")):
            raise ValueError(f"{key}: the current store has no key {suffix!r} (it knows {sorted(current)})")
        if kind == "string":
            pipe.set(key, _bytes(value), ex=entry.get("ttl_s") or None)
        elif kind == "hash":
            pipe.hset(key, mapping={k: _bytes(v) for k, v in value.items()})
        elif kind == "zset":
            pipe.zadd(key, {_bytes(m): s for m, s in value})
        else:
            raise ValueError(f"{key}: type {kind} not handled by the loader")
    pipe.execute()
    return notes


def _convert_idem_hash(pipe, doc: dict, fields: dict) -> str:
    """The 2c4e00b idempotency hash as the current per-key strings."""
    from shared.eventstore import store
    from shared.matches import request_fingerprint

    match_id = doc["match_id"]
    log = doc["raw"][f"{{m:{match_id}}}:log"]["value"]
    seed = bytes.fromhex(doc["raw"][f"{{m:{match_id}}}:seed"]["value"])
    texts = [f["e"] for _id, f in log]
    records = [json.loads(t) for t in layout.restore_entries(texts, seed)]
    for field, answer in fields.items():
        first_seq = json.loads(answer)["events"][0]["seq"]
        cause = records[first_seq - 1]["cause"]
        fingerprint = request_fingerprint(cause["move"], first_seq - 1)
        pipe.set(store.idempotency_key(match_id, field), f"done {fingerprint} {answer}",
                 ex=store.IDEMPOTENCY_TTL_S)
    return (f"{{m:{match_id}}}:idem: a hash of {len(fields)} answers (2c4e00b) became one string per "
            f"Idempotency-Key ({{m:{match_id}}}:idem:<seat>:<key> = 'done <fingerprint> <answer>', "
            f"24 h expiry)")
