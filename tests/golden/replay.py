"""Replay a golden-corpus match through the current ``Matches`` and list what it serves differently.

The same questions the recorder (``scripts/golden/record.py``) asked the release, asked of this
checkout, compared digest by digest. ``differences`` returns every difference found, earliest
version first within each kind, so a failure can name the first one.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from shared.canonical import dumps, encode, loads
from shared.eventstore.store import EventStore
from shared.matches import Matches

from scripts.golden import layout


def digest(value) -> str:
    return hashlib.sha256(encode(value)).hexdigest()[: layout.DIGEST_HEX]


def served_view(m: Matches, match_id: str, viewer, head: dict, at=None) -> dict:
    """What ``GET /view`` serves (the rules endpoint adds the head's seats)."""
    out = m.view(match_id, viewer, at, head=head)
    out["seats"] = Matches.seats_out(head)
    return out


class ReadOnceStore(EventStore):
    """The store of a finished match that nothing writes to: the log, the head and the snapshots
    are read from Redis once (through ``EventStore``) and then answered from memory, each read
    decoding its records afresh, as from Redis. ``Matches`` runs unchanged on it; stepping a
    viewer through thousands of versions then costs no Redis round trips."""

    def __init__(self, client, match_id: str):
        super().__init__(client)
        self._lines = [dumps(r) for r in super().read(match_id)]
        self._head = super().head(match_id)
        self._snaps = {v: dumps(s) for v, s in super().snapshots(match_id).items()}

    def head(self, match_id):
        return self._head

    def version(self, match_id):
        return self._head[0]

    def read(self, match_id, after=0, until=None, limit=None):
        stop = len(self._lines) if until is None else min(until, len(self._lines))
        if limit is not None:
            stop = min(stop, after + limit)
        return [loads(line) for line in self._lines[max(after, 0):stop]]

    def latest_snapshot(self, match_id, at_most):
        found = [v for v in self._snaps if v <= at_most]
        return (max(found), loads(self._snaps[max(found)])) if found else None

    def snapshots(self, match_id):
        return {v: loads(s) for v, s in self._snaps.items()}


def viewer_name(viewer) -> str:
    return "the spectator" if viewer is None else f"seat {viewer}"


@dataclass
class Difference:
    version: int | None
    what: str          # which digest: "view (live)", "legal moves", "audit", ...
    viewer: str | None
    expected: object
    got: object

    def __str__(self) -> str:
        where = f"version {self.version}" if self.version is not None else "at the end"
        who = f", {self.viewer}" if self.viewer else ""
        return f"{where}{who}: {self.what}: the release served {self.expected!r}, this checkout {self.got!r}"


def _answer(fn):
    try:
        return fn()
    except Exception as err:  # an exception is an answer too (the release's was not)
        return f"{type(err).__name__}: {err}"


def differences(m: Matches, doc: dict) -> list[Difference]:
    d = doc["digests"]
    match_id = doc["match_id"]
    out: list[Difference] = []

    def check(version, what, viewer, expected, fn):
        if expected is None:  # the release could not serve it (see ``unserved``)
            return
        got = _answer(fn)
        if got != expected:
            out.append(Difference(version, what, viewer, expected, got))

    try:
        final = m.state(match_id)
    except Exception as err:
        return [Difference(None, "state (the fold of the log)", None, "a state", f"{type(err).__name__}: {err}")]
    if final["version"] != d["versions"]:
        out.append(Difference(None, "head version", None, d["versions"], final["version"]))
        return out
    viewers = d["viewers"]
    seats = [w for w in viewers if w is not None]
    samples = set(d["sampled_versions"])
    for v in range(1, d["versions"] + 1):
        try:
            st = m.state(match_id, at=v)
        except Exception as err:
            out.append(Difference(v, "state (the fold of the log)", None, "a state", f"{type(err).__name__}: {err}"))
            return out
        check(v, "to_act", None, d["to_act"][v - 1], lambda: Matches.to_act(st))
        for w, expected in zip(viewers, d["view_live"][v - 1]):
            check(v, "view (live: served when this version was the head)", viewer_name(w), expected,
                  lambda: digest(served_view(m, match_id, w, st)))
        check(v, "views after the end (view at=v of every viewer, together)", None, d["view_after_end"][v - 1],
              lambda: digest([served_view(m, match_id, w, final, at=v) for w in viewers]))
        if v in samples:
            key = str(v)
            for s, expected in zip(seats, d["legal_moves"][key]):
                check(v, "legal moves", viewer_name(s), expected, lambda: digest(m.legal_moves(match_id, s, head=st)))
            for w, expected in zip(viewers, d["events"][key]):
                check(v, "redacted event log", viewer_name(w), expected,
                      lambda: digest(m.events(match_id, w, after=0, limit=v, head=st)))
            check(v, "summary", None, d["summary_at"][key], lambda: digest(m.summary(st)))
    check(None, "summary", None, d["summary"], lambda: digest(m.summary(final)))
    n = d["versions"]
    for w, expected in zip(viewers, d["events_after_end"]):
        check(None, "event log after the end", viewer_name(w), expected,
              lambda: digest(m.events(match_id, w, after=0, limit=n + 1, head=final)))
    audit = _answer(lambda: m.audit(match_id))
    if digest(audit) != d["audit"]:
        out.append(Difference(None, "audit", None, d["audit_value"], audit))
    for idem in doc["idempotent"]:
        def retry(idem=idem):
            done = m.submit(match_id, idem["seat"], idem["move"], idem["expected_version"], idem["key"],
                            as_bot=idem["as_bot"])
            return digest(done.body()) if done.replayed else "not a replay: the move was taken again"
        check(idem["expected_version"], f"the stored answer to Idempotency-Key {idem['key']!r}",
              viewer_name(idem["seat"]), idem["answer"], retry)
    return out


def report(doc: dict, found: list[Difference], limit: int = 12) -> str:
    label = f"{doc['release'][:7]} {doc['game']} engine {doc['engine']}, {doc['players']} players" + (
        f", variant {doc['variant']}" if doc.get("variant") else "")
    first = min(found, key=lambda x: (x.version is None, x.version or 0))
    kinds: dict[str, int] = {}
    for f in found:
        kinds[f.what] = kinds.get(f.what, 0) + 1
    lines = [f"{label}: {len(found)} differences from what the release served.",
             f"FIRST DIFFERENCE: {first}", "by kind: " + "; ".join(f"{k} x{n}" for k, n in kinds.items())]
    lines += [f"  {f}" for f in found[:limit]]
    return "\n".join(lines)
