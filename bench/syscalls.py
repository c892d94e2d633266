"""Counting and slowing the durable writes of running processes, with strace (``/usr/bin/strace``).

* ``SyncCounter``: attaches ``strace -f`` to processes for a window and counts their ``fsync``,
  ``fdatasync``, ``sync_file_range`` and ``syncfs`` calls, per process group that the caller names
  (the store Redis, the queue Redis, every other process of the stack). Attached, a process stops
  at each of its system calls: counts only, never timings, are read while it is attached.
* ``slow_fsync_binary``: a wrapper that starts a program under ``strace --seccomp-bpf`` with
  strace's own fault injection (``-e inject=fdatasync,fsync:delay_exit=US``), so every fsync of that
  program returns after an added delay, as on a cloud volume, while its other system calls are not
  traced at all (the seccomp filter lets them through without a stop).

Why strace for the delay: it is packaged (Debian's ``strace``), maintained, already what counts the
calls, and its ``inject=...:delay_exit=`` holds exactly the calls named and nothing else. The other
candidates do not fit here: ``dm-delay`` needs device-mapper (no ``/dev/mapper`` on these
machines); libfiu (Debian's ``fiu-utils``) makes calls fail, it cannot delay them; the FUSE fault
filesystems with a slow-down (unreliablefs, charybdefs) are in neither Debian nor PyPI, and a
passthrough FUSE filesystem of our own would slow every write, not only the fsyncs.
"""
from __future__ import annotations

import re
import shutil
import signal
import stat
import subprocess
import time
from collections import Counter
from pathlib import Path

SYNC_CALLS = ("fsync", "fdatasync", "sync_file_range", "syncfs")
_LINE = re.compile(r"^(\d+)\s+(" + "|".join(SYNC_CALLS) + r")\(")


def strace() -> str:
    found = shutil.which("strace") or "/usr/bin/strace"
    if not Path(found).exists():
        raise RuntimeError("strace is needed (apt-get install strace)")
    return found


def threads_of(pid: int) -> list[int]:
    try:
        return [int(t.name) for t in Path(f"/proc/{pid}/task").iterdir()]
    except OSError:
        return [pid]


class SyncCounter:
    """``with SyncCounter({"store": [pid], "queue": [pid], "other": pids}, workdir) as c: ...``,
    then ``c.counts``: group -> syscall -> calls made inside the block."""

    def __init__(self, groups: dict[str, list[int]], workdir: Path, attach_timeout_s: float = 20):
        self.groups = groups
        self.workdir = Path(workdir)
        self.attach_timeout_s = attach_timeout_s
        self.counts: dict[str, Counter] = {g: Counter() for g in groups}
        self.counts.setdefault("other", Counter())
        self._proc: subprocess.Popen | None = None

    def __enter__(self) -> SyncCounter:
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.log = self.workdir / f"strace-{time.monotonic_ns()}.log"
        self.err = self.workdir / f"strace-{time.monotonic_ns()}.err"
        pids = sorted({p for ps in self.groups.values() for p in ps if Path(f"/proc/{p}").exists()})
        self.tid_group = {t: g for g, ps in self.groups.items() for p in ps for t in threads_of(p)}
        args = [strace(), "-f", "-e", "signal=none", "-e", f"trace={','.join(SYNC_CALLS)}", "-o", str(self.log)]
        for pid in pids:
            args += ["-p", str(pid)]
        self._err = open(self.err, "w")
        self._proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self._err)
        deadline = time.monotonic() + self.attach_timeout_s
        while self.err.read_text().count(" attached") < len(pids):  # "Process N attached [with M threads]"
            if self._proc.poll() is not None or time.monotonic() > deadline:
                self._stop()
                raise RuntimeError(f"strace did not attach to {len(pids)} processes: {self.err.read_text()[-2000:]}")
            time.sleep(0.05)
        return self

    def _stop(self) -> None:
        if self._proc and self._proc.poll() is None:
            self._proc.send_signal(signal.SIGINT)  # strace detaches from every process and exits
            try:
                self._proc.wait(30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        self._err.close()

    def __exit__(self, *exc) -> None:
        self._stop()
        for line in self.log.read_text(errors="replace").splitlines():
            m = _LINE.match(line)
            if m:
                self.counts[self.tid_group.get(int(m.group(1)), "other")][m.group(2)] += 1
        self.log.unlink(missing_ok=True)
        self.err.unlink(missing_ok=True)

    def total(self, group: str) -> int:
        return sum(self.counts.get(group, Counter()).values())


def slow_fsync_binary(program: str, delay_us: int, directory: Path) -> Path:
    """An executable that runs ``program`` (with the arguments it is given) under strace, every
    ``fsync`` and ``fdatasync`` of it delayed by ``delay_us`` microseconds on its way back.
    strace, signalled, detaches and exits without its tracee: stop the program itself too
    (``bench.children.descendants`` of the wrapper's pid)."""
    path = Path(directory) / f"slow-fsync-{delay_us}us"
    path.write_text("#!/bin/sh\n"
                    f"exec {strace()} -f --seccomp-bpf -qq -e signal=none -e trace=fsync,fdatasync "
                    f"-e inject=fsync,fdatasync:delay_exit={int(delay_us)} -o /dev/null -- {program} \"$@\"\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path
