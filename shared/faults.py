"""Fail points for fault-injection tests: ``point(name)`` kills the process at a named step.

Off unless ``FAULT_CRASH_AT`` names the point (comma-separated names allowed). Each named point
fires once per ``FAULT_ONCE_DIR`` (a directory shared by the processes of one test), so the
process that a supervisor restarts does not die again at the same place. The crash is
``os._exit``: no cleanup, no ``finally``, as close to ``kill -9`` as a process can do to itself.

The points: around a change's one append (``Matches._commit``) ``before-commit`` (nothing
written yet) and ``after-commit`` (the append and its side writes are, nothing after them);
``after-append`` (the request's change returned), ``after-create``, ``after-bot-enqueue``,
``before-intent-cleared`` and ``after-publish`` on the follow-ups' way (``services.rules``);
``compaction-after-write`` and ``compaction-after-switch`` in a compaction.
"""
from __future__ import annotations

import os
import sys

_ARMED = frozenset(x.strip() for x in os.environ.get("FAULT_CRASH_AT", "").split(",") if x.strip())


def point(name: str) -> None:
    if name not in _ARMED:
        return
    once = os.environ.get("FAULT_ONCE_DIR")
    if once:
        try:
            fd = os.open(os.path.join(once, f"fired-{name}"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.close(fd)
    print(f"fault injected: crashing at {name!r} (pid {os.getpid()})", file=sys.stderr, flush=True)
    os._exit(137)
