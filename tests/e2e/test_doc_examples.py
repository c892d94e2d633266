"""The worked examples of docs/api.md run as written (issue 25): the test reads the document, takes
the Python client's example from it verbatim, and plays it to the end in every game against the
real stack, changing only the line that names the game. The document is the test's input, so the
two cannot drift."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from shared.engine import registry
from tests.support.stack import ROOT

pytestmark = pytest.mark.slow

API_DOC = ROOT / "docs" / "api.md"
GAME_LINE = re.compile(r'^GAME = "(?P<game>[a-z-]+)"(?P<comment>.*)$', re.M)
PLAYABLE = sorted(g.id for g in registry.all_games() if g.id != "duel")


def python_example() -> str:
    """The first Python block of the section "The Python client"."""
    text = API_DOC.read_text()
    section = text[text.index("## The Python client"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_example_names_a_game_the_server_offers():
    found = GAME_LINE.search(python_example())
    assert found, "the example has no GAME = \"...\" line"
    assert found["game"] in PLAYABLE


@pytest.mark.parametrize("game", PLAYABLE)
def test_the_python_client_example_plays_a_whole_match(stack, tmp_path, game):
    code = GAME_LINE.sub(f'GAME = "{game}"', python_example(), count=1)
    env = dict(os.environ, MATCHMAKING_URL=stack.mm, RULES_URL=stack.rules, SCORING_URL=stack.urls["scoring"],
               PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result, chain_valid = proc.stdout.strip().splitlines()[-2:]
    assert "ranks" in result and chain_valid == "True"
    assert (tmp_path / "match.ndjson").stat().st_size > 0
