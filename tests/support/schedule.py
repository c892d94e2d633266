"""The order in which ``make test`` deals its test files to the xdist workers: the longest first.

``make test`` runs ``pytest -n 2 --dist loadfile``: each file is one unit of work, dealt to
whichever worker runs short. Dealt in collection order (or in xdist's default order, by number
of tests), a long file dealt late keeps one worker busy while the other sits idle at the end.
Dealt longest first (longest-processing-time order), the short files fill in the gaps last.

``tests/durations.json`` holds each file's measured time (seconds, all phases of all its tests).
The collection keeps each file's tests in their own order; files are ranked by that time,
longest first; files the data does not know keep their collection order after the known ones.
Because xdist itself would reorder the files by their number of tests (``--loadscope-reorder``,
its default), that reordering is turned off whenever this order applies.

Regenerate the data from a junit xml of a whole run::

    .venv/bin/python -m pytest -n 2 --dist loadfile --junitxml=/tmp/suite.xml
    .venv/bin/python -m tests.support.schedule /tmp/suite.xml

The data only orders the files: a stale or missing entry makes the run slower, never different.
"""
from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DURATIONS = ROOT / "tests" / "durations.json"


def known_durations(path: Path = DURATIONS) -> dict[str, float]:
    """Each test file's measured seconds, by its path relative to the repository (empty if none)."""
    try:
        return {str(k): float(v) for k, v in json.loads(path.read_text())["files"].items()}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def longest_files_first(items: list[pytest.Item], durations: dict[str, float]) -> None:
    """Reorder ``items`` in place: whole files, longest known first, then the unknown ones in
    collection order; each file's own tests keep their order."""
    first_seen: dict[str, int] = {}
    for item in items:
        first_seen.setdefault(_file_of(item), len(first_seen))

    def rank(item: pytest.Item) -> tuple:
        f = _file_of(item)
        if f in durations:
            return (0, -durations[f], first_seen[f])
        return (1, 0.0, first_seen[f])

    items.sort(key=rank)  # stable: within a file, the collection's order


def file_seconds_from_junit(xml_path: Path, root: Path = ROOT) -> dict[str, float]:
    """Seconds per test file from a junit xml (pytest's ``testcase`` times, summed per file)."""
    totals: dict[str, float] = defaultdict(float)
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        path = case.get("file") or _path_of_classname(case.get("classname", ""), root)
        if path:
            totals[path] += float(case.get("time") or 0.0)
    return dict(totals)


def _path_of_classname(classname: str, root: Path) -> str | None:
    """``tests.a.test_b.TestC`` -> ``tests/a/test_b.py``: the longest dotted prefix that is a file."""
    parts = classname.split(".")
    for n in range(len(parts), 0, -1):
        candidate = Path(*parts[:n]).with_suffix(".py")
        if (root / candidate).is_file():
            return candidate.as_posix()
    return None


def write_durations(seconds: dict[str, float], path: Path = DURATIONS) -> None:
    files = {k: round(v, 1) for k, v in sorted(seconds.items(), key=lambda kv: (-kv[1], kv[0]))}
    path.write_text(json.dumps({"about": "seconds per test file; regenerate with "
                                         "`python -m tests.support.schedule JUNIT.xml` (tests/support/schedule.py)",
                                "files": files}, indent=1) + "\n")


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.support.schedule JUNIT.xml", file=sys.stderr)
        return 2
    seconds = file_seconds_from_junit(Path(argv[0]))
    if not seconds:
        print(f"no test cases found in {argv[0]}", file=sys.stderr)
        return 1
    write_durations(seconds)
    print(f"{DURATIONS.relative_to(ROOT)}: {len(seconds)} files, {sum(seconds.values()):.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
