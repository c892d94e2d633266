"""The viewer's tournament words (static/shell/tournament_words.js) run in Node: a result of two
entrants (either winner, a draw), of a multiplayer table by places with ties, a match in play,
entrant names of bots and players, formats and points."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from services.rules.viewer import STATIC

HARNESS = r"""
import { entrantName, formatName, points, resultWords } from "./shell/tournament_words.js";
const names = { a: "Ada", b: "Ben", c: "Cid" };
const nameOf = (e) => names[e];
const cases = JSON.parse(process.argv[2]);
console.log(JSON.stringify({
  results: cases.map((m) => resultWords(m, nameOf)),
  names: ["bot:greedy #2", "bot:random #10", "ada", "", "bot:x"].map(entrantName),
  formats: ["swiss", "round-robin", "arena", "double-elimination"].map(formatName),
  points: [1.5, 3, 0, 2.3333, null].map(points),
}));
"""

CASES = [
    ({"entrants": ["a", "b"], "status": "finished", "result": {"ranks": [1, 2]}}, "Ada beat Ben"),
    ({"entrants": ["a", "b"], "status": "finished", "result": {"ranks": [2, 1]}}, "Ben beat Ada"),
    ({"entrants": ["a", "b"], "status": "finished", "result": {"ranks": [1, 1]}}, "Ada and Ben drew"),
    ({"entrants": ["a", "b", "c"], "status": "finished", "result": {"ranks": [2, 1, 3]}}, "1st Ben, 2nd Ada, 3rd Cid"),
    ({"entrants": ["a", "b", "c"], "status": "finished", "result": {"ranks": [2, 1, 2]}}, "1st Ben, 2nd Ada and Cid"),
    ({"entrants": ["a", "b"], "status": "active"}, "in play"),
]


def test_tournament_words(tmp_path):
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        pytest.skip("Node.js is not installed (apt-get install -y nodejs)")
    (tmp_path / "shell").mkdir()
    for name in ("words.js", "tournament_words.js"):  # pure, no DOM
        shutil.copy(STATIC / "shell" / name, tmp_path / "shell" / name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "harness.js").write_text(HARNESS)
    done = subprocess.run([node, "harness.js", json.dumps([m for m, _ in CASES])], check=False, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["results"] == [said for _, said in CASES]
    assert out["names"] == ["Greedy bot #2", "Random bot #10", "ada", "unknown entrant", "X bot"]
    assert out["formats"] == ["Swiss", "Round robin", "Arena", "Double elimination"]
    assert out["points"] == ["1.5", "3", "0", "2.33", "—"]
