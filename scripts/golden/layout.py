"""The golden corpus's file format, shared by the recorder (run on an old checkout) and the tests.

Self-contained on purpose (orjson and the standard library only, nothing of ``shared``): the
recorder imports it beside an old release, and the loader must not use the current code's hash
chain to rebuild an old log, or a changed chain would rebuild a changed log and prove nothing.

A stream entry of the match log is stored without the three hex digests of the hash chain
(``hidden_digest``, ``prev_hash``, ``hash`` — two thirds of a log's size), which are deterministic
from the records and the seed: the entry's JSON text keeps everything else byte for byte and each
digest is replaced by ``"#"``. ``restore_entries`` recomputes them with the chain as released in
format 1 (``shared.eventstore.chain`` at 2c4e00b) and the file's ``log_sha256`` (of the original
entries) proves the rebuilt text is byte for byte what the release stored.
"""
from __future__ import annotations

import hashlib
import hmac
import re

import orjson

GENESIS = "0" * 64
HIDDEN_KEYS = ("cause", "private", "secret")
BODY_KEYS = ("seq", "type", "data", "at", "engine", "hidden_digest", "prev_hash")
DIGEST_HEX = 12  # digests are the first 12 hex digits (48 bits) of a sha256

_TAIL = re.compile(r',"hidden_digest":(null|"[0-9a-f]{64}"),'
                   r'"prev_hash":"[0-9a-f]{64}","hash":"[0-9a-f]{64}"}$')


def encode(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _hidden_digest(record: dict, seed: bytes) -> str | None:
    parts = {k: record[k] for k in HIDDEN_KEYS if record.get(k) is not None}
    if not parts:
        return None
    salt = hmac.new(seed, f"hidden:{record['seq']}".encode(), hashlib.sha256).hexdigest()
    return hashlib.sha256(salt.encode() + encode(parts)).hexdigest()


def _hash(record: dict) -> str:
    return hashlib.sha256(encode({k: record.get(k) for k in BODY_KEYS})).hexdigest()


def log_sha256(texts: list[str]) -> str:
    """The digest of a log's entries (their JSON texts, in order, newline-terminated)."""
    h = hashlib.sha256()
    for t in texts:
        h.update(t.encode() + b"\n")
    return h.hexdigest()


def strip_entries(texts: list[str], seed: bytes) -> list[str]:
    """The entries without their chain digests; an entry that ``restore_entries`` would not give
    back byte for byte is kept whole (then every later one is kept whole too)."""
    out, prev, whole = [], GENESIS, False
    for text in texts:
        stripped = None if whole else _strip(text)
        if stripped is not None and _restore_one(stripped, seed, prev)[0] == text:
            out.append(stripped)
        else:
            whole = True
            out.append(text)
        prev = orjson.loads(text).get("hash")
    return out


def _strip(text: str) -> str | None:
    m = _TAIL.search(text)
    if m is None:
        return None
    hidden = "null" if m.group(1) == "null" else '"#"'
    return text[:m.start()] + f',"hidden_digest":{hidden},"prev_hash":"#","hash":"#"}}'


def _restore_one(text: str, seed: bytes, prev: str) -> tuple[str, str]:
    if not text.endswith(',"prev_hash":"#","hash":"#"}'):
        return text, orjson.loads(text)["hash"]
    record = orjson.loads(text)
    digest = _hidden_digest(record, seed)
    if (record.get("hidden_digest") == "#") != (digest is not None):
        raise ValueError(f"entry {record.get('seq')}: hidden parts and their digest marker disagree")
    record["hidden_digest"], record["prev_hash"] = digest, prev
    h = _hash(record)
    head = text[: -len(',"hidden_digest":"#","prev_hash":"#","hash":"#"}')] if digest else \
        text[: -len(',"hidden_digest":null,"prev_hash":"#","hash":"#"}')]
    hidden = f'"{digest}"' if digest else "null"
    return head + f',"hidden_digest":{hidden},"prev_hash":"{prev}","hash":"{h}"}}', h


def restore_entries(texts: list[str], seed: bytes) -> list[str]:
    """The entries' original JSON texts, chain digests recomputed."""
    out, prev = [], GENESIS
    for text in texts:
        full, prev = _restore_one(text, seed, prev)
        out.append(full)
    return out


# What a legal-moves answer's digest covers: the fields every release answered. ``undoing`` (the
# positions of the moves that only undo a step, added after the first corpora were recorded) is a
# function of the moves and the engine version, and is pinned by tests/engine/test_undoing.py.
LEGAL_MOVES_DIGESTED = ("version", "seat", "moves")


def legal_moves_digested(answer: dict) -> dict:
    """The part of a legal-moves answer the corpus keeps a digest of."""
    return {k: answer[k] for k in LEGAL_MOVES_DIGESTED}
