"""Verify an exported match log offline: ``python -m shared.verify FILE`` (or ``scripts/verify FILE``).

``make verify FILE=...`` runs it too, but make's own exit status is 0 or 2 (make exits 2 whenever a
command fails); ``scripts/verify`` and this module exit with the statuses below.

No server and no Redis: the file alone, and the games' rules in this checkout. The checks, in
order, stop at the first problem, which names the record (its ``seq``; the file's line is seq+1):

1. format   — a header, the records, a trailer with the seed (``shared.export``);
2. chain    — seq 1..N in order, each ``prev_hash`` the previous ``hash``, each hash its content
              (an altered, dropped, added or reordered record); the trailer's count and head hash
              (a log cut short at the end); optionally a head hash you hold from elsewhere
              (``--head-hash``: a log rewritten and re-sealed from scratch);
3. seed     — the trailer's seed is the one committed to in ``match.created`` and revealed at the end;
              the hidden parts (cards, deck order, bids) match their seed-salted digests;
4. chance   — every opening, move and framework event re-derived from the seed (``shared.audit``):
              a re-dealt card or a rewritten move is caught even in a re-sealed chain;
5. replay   — the log folds through the game's rules to the outcome it records.

A tournament export (``GET /v1/tournaments/{id}/export``) is recognised by its first line and
checked by ``shared.tournaments.verify``: its own chain, every match log as above (at the head hash
the tournament recorded), and the standings recomputed from the match logs.

Exit status 0 only when every check passes, 1 when the log is not genuine, 2 when the file cannot
be read or downloaded, and 3 when the log names rules (a game at an engine version) that this
checkout does not have: then the chain and the seed are still checked, but chance and replay cannot
be, and the verdict is CANNOT CHECK — never NOT GENUINE.
``--json`` prints the report as JSON; ``--download [RULES_URL] MATCH_ID`` fetches the export with the
Python client (``tabletop_client``) first — from ``RULES_URL`` when given, else the environment's
``RULES_URL`` (or ``RULES_PORT``), else the stack ``make run`` recorded (``shared.stackfile``), else
``http://127.0.0.1:8002``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .audit import NOT_INSTALLED, Problem, check_chain, check_chance, check_replay, check_seed
from .export import FormatError, MatchLog, parse
from .tournaments.verify import is_tournament_export, verify_tournament

CHECKS = ("format", "chain", "seed", "chance", "replay")
GENUINE, NOT_GENUINE, CANNOT_CHECK = "genuine", "not genuine", "cannot check"
EXIT_STATUS = {GENUINE: 0, NOT_GENUINE: 1, CANNOT_CHECK: 3}


@dataclass
class Report:
    """Each check's verdict (True, False, or None when not reached) and the first problem."""

    checks: dict[str, bool | None] = field(default_factory=lambda: dict.fromkeys(CHECKS))
    problem: Problem | None = None
    match_id: str | None = None
    game: str | None = None
    records: int = 0
    status: str | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None and all(self.checks.values())

    @property
    def verdict(self) -> str:
        if self.ok:
            return GENUINE
        return CANNOT_CHECK if self.problem is not None and self.problem.check == NOT_INSTALLED else NOT_GENUINE

    def to_json(self) -> dict:
        return {"ok": self.ok, "verdict": self.verdict, "match_id": self.match_id, "game": self.game,
                "records": self.records, "status": self.status, "checks": self.checks,
                "problem": self.problem.to_json() if self.problem else None}

    def lines(self) -> list[str]:
        head = f"match {self.match_id} ({self.game}, {self.status}), {self.records} records"
        out = [head]
        for name in CHECKS:
            verdict = self.checks[name]
            out.append(f"  {name:<7} {'ok' if verdict else 'FAILED' if verdict is False else 'not checked'}")
        if self.verdict == CANNOT_CHECK:
            out.append(f"cannot check: {self.problem.reason}")
        elif self.problem:
            line = f" (line {self.problem.seq + 1} of the file)" if self.problem.seq is not None else ""
            out.append(f"first problem ({self.problem.check}): {self.problem}{line}")
        out.append(self.verdict.upper())
        return out


def _tail(log: MatchLog) -> Problem | None:
    """The trailer and header agree with the records: nothing cut off at the end."""
    records, trailer = log.records, log.trailer
    n = len(records)
    if trailer.get("records") != n or log.header.get("records") != n:
        claimed = trailer.get("records")
        if isinstance(claimed, int) and claimed > n:
            return Problem("chain", f"missing: the trailer says the log has {claimed} records", n + 1)
        return Problem("chain", f"the header and trailer say {log.header.get('records')} and {claimed} records, "
                                f"the file holds {n}")
    if trailer.get("head_hash") != records[-1]["hash"] or log.header.get("head_hash") != records[-1]["hash"]:
        return Problem("chain", "the head hash in the header or trailer is not the last record's hash", n)
    if log.header.get("match_id") != records[0]["data"].get("match_id"):
        return Problem("chain", "the header names another match than match.created", 1)
    return None


def verify_log(log: MatchLog, *, head_hash: str | None = None) -> Report:
    records = log.records
    report = Report(match_id=log.header.get("match_id"), game=log.header.get("game"), records=len(records),
                    status=log.header.get("status"))
    report.checks["format"] = True
    steps = [
        ("chain", lambda: check_chain(records) or _tail(log) or (
            Problem("chain", "the head hash is not the one given with --head-hash", len(records))
            if head_hash is not None and records[-1]["hash"] != head_hash else None)),
        ("seed", lambda: check_seed(records, log.seed) or check_chain(records, log.seed)),
        ("chance", lambda: check_chance(records, log.seed)),
        ("replay", lambda: check_replay(records)),
    ]
    for name, run in steps:
        try:
            problem = run()
        except Exception as err:  # malformed content in an otherwise well-formed file
            problem = Problem(name, f"cannot be checked: {type(err).__name__}: {err}")
        if problem is not None and problem.check == NOT_INSTALLED:
            report.problem = problem  # this check and the rest stay "not checked"
            return report
        if problem is not None:
            report.checks[name] = False
            report.problem = Problem(name, problem.reason, problem.seq)
            return report
        report.checks[name] = True
    return report


def verify_lines(lines, *, head_hash: str | None = None) -> Report:
    """Verify an export given as lines (bytes or str)."""
    try:
        log = parse(lines)
    except FormatError as err:
        report = Report()
        report.checks["format"] = False
        report.problem = Problem("format", f"line {err.line}: {err.reason}")
        return report
    return verify_log(log, head_hash=head_hash)


def verify_file(path: str | Path, *, head_hash: str | None = None) -> Report:
    with open(path, "rb") as f:
        return verify_lines(f, head_hash=head_hash)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m shared.verify", description=__doc__.splitlines()[0],
        usage="%(prog)s [-h] [--head-hash H] [--json] (FILE | --download [RULES_URL] MATCH_ID [FILE])")
    ap.add_argument("file", nargs="?", help="an export (GET /v1/matches/{id}/export)")
    ap.add_argument("--download", nargs="+", metavar="ARG",
                    help="[RULES_URL] MATCH_ID: download the match's export first (to FILE, or match-<id>.ndjson); "
                         "without RULES_URL: $RULES_URL, $RULES_PORT, the stack `make run` recorded, or :8002")
    ap.add_argument("--head-hash", help="the head hash you hold from elsewhere (the match page, a player)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    if args.download:
        from tabletop_client import ApiProblem, Tabletop, Unavailable

        values = list(args.download)  # argparse gives a FILE after them to --download too
        url = values.pop(0) if "://" in values[0] else None
        if not values or len(values) > 2 or (len(values) == 2 and args.file):
            ap.error("--download takes [RULES_URL] MATCH_ID, then optionally FILE")
        match_id = values.pop(0)
        args.file = args.file or (values[0] if values else None)
        if url is None:
            from . import stackfile

            stackfile.use("verify --download", store=False, services=("RULES",))
            url = os.environ["RULES_URL"]
        args.file = args.file or f"match-{match_id}.ndjson"
        try:
            Tabletop(rules_url=url).download_export(match_id, args.file)
        except (ApiProblem, Unavailable) as err:
            print(f"cannot download the export of {match_id}: {err}", file=sys.stderr)
            return 2
        print(f"downloaded {args.file}")
    if not args.file:
        ap.error("name the export FILE (or --download [RULES_URL] MATCH_ID)")
    from .engine import registry

    registry.load_all()
    try:
        with open(args.file, "rb") as fh:
            first = fh.readline()
        if is_tournament_export(first):  # a tournament: its log, every match log, the standings
            with open(args.file, "rb") as fh:
                report = verify_tournament(fh, verify_lines)
        else:
            report = verify_file(args.file, head_hash=args.head_hash)
    except OSError as err:
        print(f"cannot read {args.file}: {err}", file=sys.stderr)
        return 2
    print(json.dumps(report.to_json(), indent=2) if args.json else "\n".join(report.lines()))
    return EXIT_STATUS[report.verdict]


if __name__ == "__main__":
    sys.exit(main())
