"""Helpers for benchmarks: timing, medians, machine-readable output."""
from __future__ import annotations

import json
import platform
import statistics
import sys
from pathlib import Path

REDIS_CONF = Path(__file__).resolve().parent.parent / "deploy" / "redis.conf"


def emit(**fields) -> dict:
    """Print one JSON line (the machine-readable result) and return it."""
    fields.setdefault("python", platform.python_version())
    print(json.dumps(fields), flush=True)
    return fields


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def percentile(xs, p):
    if not xs:
        return float("nan")
    s = sorted(xs)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def argv_int(name: str, default: int) -> int:
    for arg in sys.argv[1:]:
        if arg.startswith(f"--{name}="):
            return int(arg.split("=", 1)[1])
    return default


def durability(conf: Path = REDIS_CONF) -> dict:
    """The durability settings of a redis.conf (``deploy/redis.conf``): its appendonly and appendfsync."""
    out = {}
    for line in conf.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("appendonly", "appendfsync"):
            out[parts[0]] = parts[1]
    return out
