"""Replay a golden-corpus match through the current ``Matches`` and list what it serves differently.

The same questions the recorder (``scripts/golden/record.py``) asked the release, asked of this
checkout, compared digest by digest. ``differences`` returns every difference found, earliest
version first within each kind, so a failure can name the first one.
"""
from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass

import redis

from shared.canonical import encode
from shared.matches import Matches

from scripts.golden import layout


def digest(value) -> str:
    return hashlib.sha256(encode(value)).hexdigest()[: layout.DIGEST_HEX]


def served_view(m: Matches, match_id: str, viewer, head: dict, at=None) -> dict:
    """What ``GET /view`` serves (the rules endpoint adds the head's seats)."""
    out = m.view(match_id, viewer, at, head=head)
    out["seats"] = Matches.seats_out(head)
    return out


class ReplayRedis(redis.Redis):
    """A Redis client for replaying a finished match nothing else writes to: each read command's
    answer is kept (and handed out as a fresh copy) until the next write through this client. The
    store and ``Matches`` run unchanged on it, whatever keys and commands they use; stepping
    every viewer through thousands of versions then costs few Redis round trips."""

    READS = frozenset({"XRANGE", "XREVRANGE", "ZRANGE", "ZREVRANGE", "ZRANGEBYSCORE", "ZREVRANGEBYSCORE",
                       "HGET", "HMGET", "HGETALL", "GET", "MGET", "EXISTS", "TYPE", "XLEN", "ZCARD"})

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._answers: dict[str, bytes] = {}

    def execute_command(self, *args, **options):
        name = str(args[0]).upper()
        if name not in self.READS:
            self._answers.clear()
            return super().execute_command(*args, **options)
        key = repr((args, sorted(options.items())))
        kept = self._answers.get(key)
        if kept is None:
            kept = self._answers[key] = pickle.dumps(super().execute_command(*args, **options))
        return pickle.loads(kept)


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


def views_after_end(m: Matches, match_id: str, viewers: list, final: dict, failed: set | None = None) -> list[str]:
    """Per version v, the digest of ``[view(at=v) of each viewer]`` once the match is over.

    Asked one viewer at a time from the first version to the last, so that ``Matches`` steps its
    state forward by one event each time (its cache of the last earlier state read) instead of
    folding the log again for every viewer; the list's digest is built incrementally (the
    canonical JSON of a list is ``[`` + its items joined by ``,`` + ``]``)."""
    n = final["version"]
    hashers = [hashlib.sha256(b"[") for _ in range(n)]
    for i, w in enumerate(viewers):
        for v in range(1, n + 1):
            try:
                text = encode(served_view(m, match_id, w, final, at=v))
            except Exception as err:
                text = encode(f"{type(err).__name__}: {err}")
                if failed is not None:
                    failed.add(v)
            hashers[v - 1].update((b"," if i else b"") + text)
    return [h.hexdigest()[: layout.DIGEST_HEX] if h.update(b"]") is None else "" for h in hashers]


def differences(m: Matches, doc: dict) -> list[Difference]:
    d = doc["digests"]
    match_id = doc["match_id"]
    out: list[Difference] = []

    def check(version, what, viewer, expected, fn):
        if expected is None:  # the release answered 500 here (see ``unserved``): now it must answer
            try:
                fn()
            except Exception as err:
                out.append(Difference(version, f"{what} (a 500 in the release; served now)", viewer,
                                      "an answer", f"{type(err).__name__}: {err}"))
            return
        got = _answer(fn)
        if got != expected:
            out.append(Difference(version, what, viewer, expected, got))

    try:
        final = m.state(match_id)
    except Exception as err:
        return [Difference(None, "state (the fold of the log)", None, "a state",
                           f"{type(err).__name__}: {err}")]
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
            out.append(Difference(v, "state (the fold of the log)", None, "a state",
                                  f"{type(err).__name__}: {err}"))
            return out
        check(v, "to_act", None, d["to_act"][v - 1], lambda: Matches.to_act(st))
        for w, expected in zip(viewers, d["view_live"][v - 1]):
            check(v, "view (live: served when this version was the head)", viewer_name(w), expected,
                  lambda: digest(served_view(m, match_id, w, st)))
        if v in samples:
            key = str(v)
            for s, expected in zip(seats, d["legal_moves"][key]):
                check(v, "legal moves", viewer_name(s), expected,
                      lambda: digest(layout.legal_moves_digested(m.legal_moves(match_id, s, head=st))))
            for w, expected in zip(viewers, d["events"][key]):
                check(v, "redacted event log", viewer_name(w), expected,
                      lambda: digest(m.events(match_id, w, after=0, limit=v, head=st)))
            check(v, "summary", None, d["summary_at"][key], lambda: digest(m.summary(st)))
    failed: set = set()
    for v, got in enumerate(views_after_end(m, match_id, viewers, final, failed), start=1):
        expected = d["view_after_end"][v - 1]
        if expected is None and v in failed:
            out.append(Difference(v, "views after the end (a 500 in the release; served now)", None,
                                  "an answer", "an exception"))
        elif expected is not None and got != expected:
            out.append(Difference(v, "views after the end (view at=v of every viewer, together)", None,
                                  expected, got))
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
