"""The export file of a match log (NDJSON, ``application/x-ndjson``): what the server writes for
``GET /v1/matches/{id}/export`` and what the offline verifier reads.

One JSON value per line, each in the canonical encoding (sorted keys, no spaces):

1. ``{"header": {"format": "tabletop-match-log", "format_version": 1, "match_id", "game", "engine",
   "status", "records", "head_hash", "seed_commitment"}}``
2. one line per stored record, verbatim — every field the hash chain covers: ``seq``, ``type``,
   ``data``, ``at``, ``engine``, ``hidden_digest``, ``prev_hash``, ``hash``, and the hidden parts
   ``cause``, ``private``, ``secret`` whose digest is HMAC-salted with the seed (see
   ``shared.eventstore.chain``);
3. optionally ``{"analysis": {...}}`` — the match's move-by-move analysis (``GET
   /v1/matches/{id}/analysis``'s document), when asked for (``?analysis=true``) and done. It is its
   own record type *outside* the hash chain: the chain, the seed and the replay do not cover it, and
   the verifier reads past it (``MatchLog.analysis``); it is a judgement of the log, not part of it;
4. ``{"trailer": {"records", "head_hash", "seed"}}`` — the seed revealed (hex).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from .canonical import encode, loads
from .envelope import CREATED, ENDED, TERMINAL
from .eventstore.damage import DamagedLog

FORMAT = "tabletop-match-log"
FORMAT_VERSION = 1
MEDIA_TYPE = "application/x-ndjson"


class FormatError(ValueError):
    """The file is not a match-log export; ``line`` is 1-based."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line, self.reason = line, reason


@dataclass
class MatchLog:
    header: dict
    records: list[dict]
    trailer: dict
    analysis: dict | None = None  # outside the hash chain: not verified, only carried

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.trailer["seed"])


def header_of(created: dict, last: dict, status: str) -> dict:
    """The header line's fields, from the log's first record (match.created) and its last."""
    d = created["data"]
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "match_id": d["match_id"], "game": d["game"],
            "engine": d["engine"], "status": status, "records": last["seq"], "head_hash": last["hash"],
            "seed_commitment": d["seed_commitment"]}


def write_lines(header: dict, records: Iterable[dict], seed: bytes, analysis: dict | None = None) -> Iterator[bytes]:
    """The export, line by line (records may be a lazy iterable: a long log is streamed); with
    ``analysis``, its line after the records."""
    yield encode({"header": header}) + b"\n"
    count, head = 0, None
    for rec in records:
        count, head = count + 1, rec["hash"]
        yield encode(rec) + b"\n"
    if analysis is not None:
        yield encode({"analysis": analysis}) + b"\n"
    yield encode({"trailer": {"records": count, "head_hash": head, "seed": seed.hex()}}) + b"\n"


class StillActive(Exception):
    """The match has not ended: its log still holds hidden information."""


def export_match(store, match_id: str, page: int = 1000, *, analysis: dict | None = None) -> Iterator[bytes]:
    """The export of a match in ``store`` (an ``EventStore``). Raises ``KeyError`` for an unknown
    match, ``StillActive`` before it has ended and ``DamagedLog`` for a log that cannot be read
    back whole — all before the first line: the whole log is read (``page`` records at a time)
    and checked to be complete before anything is written, so an export never stops half-way."""
    version, _head_hash, _marker, _has_seed, has_log = store.head_status(match_id)
    if version == 0:
        if has_log:
            raise DamagedLog(match_id, None, "the match's meta is missing (its log is there)")
        raise KeyError(match_id)
    tail = store.read(match_id, after=version - 1, until=version, limit=1)
    if tail and tail[0].get("seq") == version and tail[0]["type"] not in TERMINAL:
        raise StillActive(match_id)  # known at once, without reading the whole log
    records: list[dict] = []
    while len(records) < version:
        chunk = store.read(match_id, after=len(records), until=version, limit=page)
        for rec in chunk:
            if rec.get("seq") != len(records) + 1:
                break
            records.append(rec)
        else:
            if chunk:
                continue
        raise DamagedLog(match_id, len(records) + 1,
                         f"is missing from the log or out of place (the meta says {version} records)")
    first, last = records[0], records[-1]
    if first.get("type") != CREATED:
        raise DamagedLog(match_id, 1, "is not match.created")
    if last["type"] not in TERMINAL:
        raise StillActive(match_id)
    status = "finished" if last["type"] == ENDED else "aborted"
    seed = store.seed(match_id)  # DamagedLog when the meta is there and the seed is not
    try:
        header = header_of(first, last, status)
    except (KeyError, TypeError) as err:
        raise DamagedLog(match_id, 1, f"match.created lacks {err}") from None
    return write_lines(header, records, seed, analysis)


def parse(lines: Iterable[bytes | str]) -> MatchLog:
    """Read an export; raises ``FormatError`` naming the line for anything that is not one."""
    header, trailer, records, analysis = None, None, [], None
    number = 0
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if trailer is not None:
            raise FormatError(number, "content after the trailer")
        try:
            value = loads(raw)
        except ValueError as err:
            raise FormatError(number, f"not JSON ({err})") from None
        if not isinstance(value, dict):
            raise FormatError(number, "not a JSON object")
        if header is None:
            header = value.get("header")
            if not isinstance(header, dict) or header.get("format") != FORMAT:
                raise FormatError(number, f"the first line is not a {FORMAT} header")
            if header.get("format_version") != FORMAT_VERSION:
                raise FormatError(number, f"format version {header.get('format_version')!r} is not supported")
        elif "analysis" in value and "type" not in value:
            if analysis is not None or not isinstance(value["analysis"], dict):
                raise FormatError(number, "a second analysis line, or one that is not an object")
            analysis = value["analysis"]
        elif "trailer" in value:
            trailer = value["trailer"]
            if not isinstance(trailer, dict) or not isinstance(trailer.get("seed"), str):
                raise FormatError(number, "the trailer carries no seed")
            try:
                bytes.fromhex(trailer["seed"])
            except ValueError:
                raise FormatError(number, "the trailer's seed is not hex") from None
        else:
            if not isinstance(value.get("type"), str) or not isinstance(value.get("data"), dict):
                raise FormatError(number, "a record needs a string type and an object data")
            records.append(value)
    if header is None:
        raise FormatError(max(number, 1), "the file is empty")
    if trailer is None:
        raise FormatError(number + 1, "the trailer (with the seed) is missing: the file is cut short")
    if not records:
        raise FormatError(number, "the file holds no records")
    return MatchLog(header, records, trailer, analysis)
