"""Schema migrations of every area at once: ``python -m deploy.migrate`` (``make migrate``).

Every process also migrates the areas it uses when it starts (``shared.migrations.ensure``: the
first to start takes the area's lock, the others wait), so nothing needs to run this before an
upgrade; it is there for operators who would rather migrate before starting the new release (an
init container, a deploy step), and ``--status`` prints each area's version and migration log. The Redis: the environment's
(``REDIS_URL``...), else that of the stack ``make run`` recorded (``shared.stackfile``).
"""
from __future__ import annotations

import argparse
import json
import logging

from shared import migrations, stackfile
from shared.auth import auth_migrations
from shared.config import load, store_client


def areas() -> dict[str, list]:
    """Every area and its migrations, in the order they run."""
    from services.matchmaking.migrations import MIGRATIONS as MATCHMAKING
    from services.rules.migrations import MIGRATIONS as RULES
    from services.scoring.migrations import MIGRATIONS as SCORING

    return {"auth": auth_migrations(), "matchmaking": MATCHMAKING, "rules": RULES, "scoring": SCORING}


def status(client) -> dict:
    return {area: {"version": migrations.current_version(client, area), "newest": migrations.target(steps),
                   "log": migrations.history(client, area)} for area, steps in areas().items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m deploy.migrate", description=__doc__.splitlines()[0])
    ap.add_argument("--status", action="store_true", help="print each area's schema version and log; change nothing")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    stackfile.use("make migrate")  # the stack `make run` recorded, unless the environment names a Redis
    client = store_client(load())
    if not args.status:
        for area, steps in areas().items():
            migrations.ensure(client, area, steps)
    print(json.dumps(status(client), indent=1, sort_keys=True, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
