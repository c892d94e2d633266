"""Freeze a released rules version: copy one game's package, as a commit of main had it, into
``shared/released/<package>/v<version>/``.

    python -m scripts.freeze_release --commit 961d398 --game arkon --version 2

The copy is the package's files byte for byte, with two mechanical changes only:

* imports that climb out of the package (``from ...engine import``) name ``shared`` instead, since
  the copy sits one level deeper than the original;
* ``__init__.py`` is replaced by the glue that registers the frozen class under its old version
  (``shared.released.install``) instead of the original's ``register(Game())``.

Nothing else of the copy may ever be edited (docs/releases.md): a frozen version is the code that
ran in the field. The original ``__init__.py`` is kept beside it as ``ORIGINAL_INIT.py.txt``.
"""
from __future__ import annotations

import argparse
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELEASED = ROOT / "shared" / "released"

GLUE = '''"""{title} rules, engine version "{version}", frozen from commit {commit} (see docs/releases.md).

Everything in this package except this file is that commit's ``shared/games/{package}/``, byte for
byte but for imports that climb out of the package; do not edit it: a change to these rules is a new
engine version.
"""
from shared.released import install

from .game import {cls}

GAME = install({cls}, version="{version}", release="{commit}")
'''


def _git(*args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True).stdout


def _files(commit: str, package: str) -> list[str]:
    out = _git("ls-tree", "-r", "--name-only", commit, f"shared/games/{package}/")
    return [line for line in out.decode().splitlines() if line]


def _climb_out(source: str) -> str:
    """``from ...x import`` (out of ``shared/games/<package>/``) -> ``from shared.x import``."""
    return re.sub(r"^(\s*)from \.\.\.(\w)", r"\1from shared.\2", source, flags=re.M)


def _game_class(init_source: str) -> str:
    match = re.search(r"from \.game import (\w+)", init_source)
    if not match:
        raise SystemExit("the package's __init__ does not import its Game class from .game")
    return match.group(1)


def freeze(commit: str, package: str, version: str, title: str) -> Path:
    commit = _git("rev-parse", "--short=7", commit).decode().strip()
    target = RELEASED / package / f"v{version}"
    if target.exists():
        raise SystemExit(f"{target} exists: a frozen version is never rewritten")
    files = _files(commit, package)
    if not files:
        raise SystemExit(f"commit {commit} has no shared/games/{package}/")
    for path in files:
        rel = Path(path).relative_to(f"shared/games/{package}")
        if "__pycache__" in rel.parts:
            continue
        data = _git("show", f"{commit}:{path}")
        out = target / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        if rel == Path("__init__.py"):
            (target / "ORIGINAL_INIT.py.txt").write_bytes(data)
            data = GLUE.format(title=title, version=version, commit=commit, package=package,
                               cls=_game_class(data.decode())).encode()
        elif rel.suffix == ".py":
            data = _climb_out(data.decode()).encode()
        out.write_bytes(data)
    for parent in (RELEASED / package,):
        init = parent / "__init__.py"
        if not init.exists():
            init.write_text(f'"""The frozen rules versions of {title}."""\n')
    return target


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commit", required=True, help="the commit whose rules ran in the field")
    ap.add_argument("--game", required=True, help="the package under shared/games, e.g. arkon")
    ap.add_argument("--version", required=True, help="the engine version those rules carry")
    ap.add_argument("--title", help="the game's title (for the docstrings)")
    args = ap.parse_args()
    title = args.title or args.game.replace("_", " ").capitalize()
    print(freeze(args.commit, args.game, args.version, title))


if __name__ == "__main__":
    main()
