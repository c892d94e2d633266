"""Canonical JSON encoding and the hashes built on it.

Every hash in the system (event chain, hidden-part digests, seed commitment) is SHA-256 over
this encoding: UTF-8 JSON with sorted keys and no insignificant whitespace (orjson's
``OPT_SORT_KEYS``), so any client in any language can recompute it.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Any

import orjson

_SORTED = orjson.OPT_SORT_KEYS


def encode(value: Any) -> bytes:
    """The canonical bytes of a JSON value."""
    return orjson.dumps(value, option=_SORTED)


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def loads(raw: bytes | str) -> Any:
    return orjson.loads(raw)


def clone(value: Any) -> Any:
    """A deep copy of a JSON value (also proves the value is plain JSON)."""
    return orjson.loads(orjson.dumps(value))


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def hmac_hex(key: bytes, message: str) -> str:
    return hmac.new(key, message.encode(), hashlib.sha256).hexdigest()
