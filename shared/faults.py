"""Fail points for fault-injection tests: ``point(name)`` kills the process at a named step.

Off unless ``FAULT_CRASH_AT`` names the point (comma-separated names allowed). Each named point
fires once per ``FAULT_ONCE_DIR`` (a directory shared by the processes of one test), so the
process that a supervisor restarts does not die again at the same place. The crash is
``os._exit``: no cleanup, no ``finally``, as close to ``kill -9`` as a process can do to itself.
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
