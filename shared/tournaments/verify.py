"""Offline check of a tournament export (``GET /v1/tournaments/{id}/export``), run by
``scripts/verify FILE`` / ``make verify FILE=...`` when the file is a tournament's.

1. format — a header (kind tournament), the records, then per recorded match a ``match`` line
   (match id, head hash) and its exported log (``match-line``s);
2. chain  — the tournament log's hash chain, and the header's count and head hash;
3. matches — every match the log records is exported, verifies as a match export does (chain,
   seed, chance, replay) and ends at the head hash the tournament recorded;
4. standings — the results re-read from the match logs' own ``match.ended`` records give, folded
   with the tournament log, the same results, hence the same standings, as the log records.

Same exit statuses as for a match: 0 genuine, 1 not genuine, 2 unreadable, 3 cannot check (a
match names rules this checkout lacks).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..canonical import encode
from . import fold as f
from .chain import verify as verify_chain

ENDED = "match.ended"


def is_tournament_export(first_line: bytes | str) -> bool:
    try:
        return json.loads(first_line).get("kind") == "tournament"
    except (ValueError, AttributeError):
        return False


@dataclass
class TournamentReport:
    tournament_id: str | None = None
    verdict: str = "genuine"
    problem: str | None = None
    matches: int = 0
    standings: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"tournament_id": self.tournament_id, "verdict": self.verdict, "problem": self.problem,
                "matches": self.matches, "standings": self.standings}

    def lines(self) -> list[str]:
        out = [f"tournament {self.tournament_id}: {self.matches} matches", f"verdict: {self.verdict.upper()}"]
        if self.problem:
            out.append(f"problem: {self.problem}")
        for row in self.standings:
            out.append(f"  {row['rank']:>3}. {row['name']:<24} {row['points']:>6}  "
                       f"buchholz {row['tiebreaks']['buchholz']}  sb {row['tiebreaks']['sonneborn_berger']}")
        return out


def _fail(report: TournamentReport, why: str, verdict: str = "not genuine") -> TournamentReport:
    report.verdict, report.problem, report.standings = verdict, why, []
    return report


def verify_tournament(lines: Iterable[bytes | str], verify_match: Callable) -> TournamentReport:
    """Check a tournament export; ``verify_match(lines, head_hash=...)`` is the match verifier
    (``shared.verify.verify_lines``), returning a report with ``verdict`` and ``problem``."""
    report = TournamentReport()
    header, records, matches, current = None, [], {}, None
    for n, raw in enumerate(lines, start=1):
        if not str(raw).strip():
            continue
        try:
            item = json.loads(raw)
            kind = item["kind"]
        except (ValueError, KeyError, TypeError):
            return _fail(report, f"line {n}: not a tournament export line")
        if kind == "tournament" and header is None:
            header = item
        elif kind == "record" and header is not None:
            records.append(item["record"])
        elif kind == "match":
            current = item["match_id"]
            matches[current] = {"head_hash": item["head_hash"], "lines": []}
        elif kind == "match-line" and item.get("match_id") == current:
            matches[current]["lines"].append(encode(item["line"]))
        else:
            return _fail(report, f"line {n}: unexpected {kind!r} line")
    if header is None or not records:
        return _fail(report, "no tournament header or records")
    report.tournament_id = header.get("tournament_id")
    ok, why = verify_chain(records)
    if not ok:
        return _fail(report, f"tournament log: {why}")
    if header.get("records") != len(records) or header.get("head_hash") != records[-1]["hash"]:
        return _fail(report, "tournament log: the header's count or head hash does not match its records")
    state = f.fold(records)
    recomputed = {}
    for match_id, recorded in state["results"].items():
        if match_id not in matches:
            return _fail(report, f"match {match_id}: recorded by the tournament but not exported")
        if matches[match_id]["head_hash"] != recorded["head_hash"]:
            return _fail(report, f"match {match_id}: exported head hash differs from the tournament's record")
        mr = verify_match(matches[match_id]["lines"], head_hash=recorded["head_hash"])
        if mr.verdict != "genuine":
            return _fail(report, f"match {match_id}: {mr.problem.reason if mr.problem else mr.verdict}",
                         "cannot check" if mr.verdict == "cannot check" else "not genuine")
        ended = [json.loads(line) for line in matches[match_id]["lines"]]
        ended = [x for x in ended if x.get("type") == ENDED]
        outcome = ended[0]["data"]["outcome"] if ended else None
        ranks = outcome["ranks"] if outcome else recorded["ranks"]  # an aborted match: nobody scored
        if list(ranks) != list(recorded["ranks"]) or (outcome and outcome.get("teams") != recorded.get("teams")):
            return _fail(report, f"match {match_id}: the tournament recorded another result than the match log")
        recomputed[match_id] = {**recorded, "ranks": list(ranks)}
    report.matches = len(recomputed)
    report.standings = f.standings({**state, "results": recomputed})
    if encode(report.standings) != encode(f.standings(state)):
        return _fail(report, "the standings recomputed from the match logs differ from the tournament's")
    return report
