"""Every process a benchmark run started, and stopping them all (``bench.run_all``).

Benchmarks start servers of their own — Redis, gunicorn (in sessions of their own, so a signal to
the benchmark's process group misses them), bot workers — and stop them in ``finally`` blocks that
a SIGKILL, or a SIGTERM without a handler, never runs. So the runner makes itself a *child
subreaper* (Linux ``PR_SET_CHILD_SUBREAPER``): a process orphaned anywhere below it is re-parented
to it rather than to init, and ``descendants`` finds all of them by walking ``/proc``'s parent
links; ``stop_all`` signals their process groups, waits, then SIGKILLs what is left.
"""
from __future__ import annotations

import ctypes
import os
import signal
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> bool:
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def become_subreaper() -> bool:
    """Orphans below this process come to it (Linux); whether that worked."""
    return _prctl(PR_SET_CHILD_SUBREAPER, 1)


def signal_on_parent_death(sig: int = signal.SIGINT):
    """A ``preexec_fn``: the child gets ``sig`` when its parent dies, however it dies (Linux).
    SIGINT, so that a Python benchmark's ``finally`` blocks still stop its servers."""
    def preexec() -> None:
        _prctl(PR_SET_PDEATHSIG, sig)
    return preexec


def _processes() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, process group, state) of every process visible in /proc."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        out[int(entry.name)] = (int(fields[1]), int(fields[2]), fields[0])
    return out


def descendants(root: int | None = None) -> dict[int, int]:
    """pid -> process group of every live (not zombie) process below ``root`` (this process)."""
    root = os.getpid() if root is None else root
    table = _processes()
    children: dict[int, list[int]] = {}
    for pid, (ppid, _pgid, _state) in table.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = {}, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        ppid, pgid, state = table[pid]
        if state not in ("Z", "X"):
            found[pid] = pgid
        todo += children.get(pid, [])
    return found


def reap() -> None:
    """Collect this process's exited children (orphans re-parented to it become its zombies).
    Call it only when no ``subprocess.Popen`` of this process is still to be waited for."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _signal(tree: dict[int, int], sig: int) -> None:
    own = os.getpgrp()
    for pgid in {g for g in tree.values() if g != own}:
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            pass
    for pid, pgid in tree.items():  # and each one, in case it is in our own group
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _wait_gone(deadline: float, root: int | None, reaping: bool) -> dict[int, int]:
    while True:
        if reaping:
            reap()
        tree = descendants(root)
        if not tree or time.monotonic() >= deadline:
            return tree
        time.sleep(0.05)


def settle(grace_s: float = 3.0, root: int | None = None) -> dict[int, int]:
    """Up to ``grace_s`` for the processes below ``root`` to finish exiting by themselves (a
    benchmark's servers that were told to stop, still shutting down on a busy machine); the ones
    still running after it."""
    return _wait_gone(time.monotonic() + grace_s, root, True)


def stop_all(sig: int = signal.SIGTERM, grace_s: float = 5.0, *, root: int | None = None,
             reaping: bool = True) -> set[int]:
    """Stop every process below ``root`` (this process): ``sig`` to each one's process group,
    up to ``grace_s`` to exit, then SIGKILL for the rest (again until none is left, for up to 5 s).
    Returns the pids found. ``reaping``: collect zombies meanwhile (see ``reap``)."""
    tree = descendants(root)
    if not tree:
        return set()
    seen = set(tree)
    _signal(tree, sig)
    tree = _wait_gone(time.monotonic() + grace_s, root, reaping)
    deadline = time.monotonic() + 5
    while tree and time.monotonic() < deadline:
        seen |= set(tree)
        _signal(tree, signal.SIGKILL)
        tree = _wait_gone(min(deadline, time.monotonic() + 0.5), root, reaping)
    return seen


def cpu_ms(pids: list[int]) -> float:
    """User and system CPU of these processes so far (ms)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
    return total * 1000 / os.sysconf("SC_CLK_TCK")
