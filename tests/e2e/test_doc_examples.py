"""The worked examples of docs/api.md run as written (issue 25): the test reads the document, takes
the Python client's example from it verbatim, and plays it to the end in every game against the
real stack, changing only the line that names the game. The document is the test's input, so the
two cannot drift."""
from __future__ import annotations

import json
import os
import re
import secrets
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


# ----- the curl walkthrough ("A whole match, worked through") --------------------------------------
DOC_GAME = "battlefields-of-olympus"
ASSIGNED_FROM = {"TOKEN": "token", "ME": "player_id", "M": "match_id"}   # shell variable -> the answer's field
ASSIGNMENT = re.compile(r"^\s*(\w+)=\S+\s*$")
DOC_KEY = re.compile(r'"(\w+)":')


def walkthrough() -> list[tuple[str, str]]:
    """Every ``$ command`` of the walkthrough (continuation lines joined), with the answer the document shows."""
    text = API_DOC.read_text()
    section = text[text.index("## A whole match, worked through"):text.index("## The Python client")]
    steps = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            command = lines[i][2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            i += 1
            answer = []
            while i < len(lines) and not lines[i].startswith("$ "):
                answer.append(lines[i])
                i += 1
            steps.append((command, "\n".join(answer)))
    return steps


class Walk:
    """Runs the walkthrough's commands in bash against the stack, as a reader would type them."""

    def __init__(self, stack, workdir, game: str):
        self.stack, self.workdir, self.game = stack, workdir, game
        self.vars: dict[str, str] = {}
        self.answers: list[dict] = []
        self.last_move: str | None = None
        self.ports = {"localhost:8001": stack.mm, "localhost:8002": stack.rules,
                      "localhost:8003": stack.urls["scoring"]}

    def bash(self, command: str) -> subprocess.CompletedProcess:
        for local, url in self.ports.items():
            command = command.replace(local, url.removeprefix("http://"))
        command = command.replace("scripts/verify", str(ROOT / "scripts" / "verify"))
        return subprocess.run(["bash", "-c", command], cwd=self.workdir, env=dict(os.environ, **self.vars),
                              capture_output=True, text=True, timeout=120)

    def turn(self) -> dict:
        import requests
        return requests.get(f"{self.stack.rules}/v1/matches/{self.vars['M']}/turn",
                            headers={"Authorization": f"Bearer {self.vars['TOKEN']}"}, timeout=10).json()

    def my_turn(self) -> dict:
        from tests.support.stack import wait_for
        return wait_for(lambda: (t := self.turn())["moves"] and t, 120, what="this seat's turn")

    def with_move(self, command: str, stale: bool) -> str:
        """The move command with a legal move of this match (the document's was legal in its run)."""
        if not stale:
            turn = self.my_turn()
            self.last_move = json.dumps({"move": turn["moves"][0], "expected_version": turn["version"]})
        command = re.sub(r"-d '\{\"move\".*\}'", lambda _m: f"-d '{self.last_move}'", command)
        return command.replace("Idempotency-Key: ada-v11", f"Idempotency-Key: {secrets.token_hex(8)}")

    def run(self, command: str, shown: str) -> str:
        parts = command.split(";")
        if all(ASSIGNMENT.match(part) for part in parts):
            for name in (ASSIGNMENT.match(part)[1] for part in parts):
                self.vars[name] = next(a[ASSIGNED_FROM[name]] for a in reversed(self.answers) if ASSIGNED_FROM[name] in a)
            return ""
        if "/v1/players" in command:   # names are unique on a server: this run's own
            command = command.replace('"name": "ada"', f'"name": "ada-{secrets.token_hex(3)}"')
        if "/v1/tables" in command:
            fewest = registry.get(self.game).min_players
            bots = ", ".join(['{\\"bot\\": \\"random\\"}'] * (fewest - 1))
            command = command.replace(DOC_GAME, self.game).replace('{\\"bot\\": \\"random\\"}', bots)
        if "/moves" in command:
            command = self.with_move(command, stale="stale-version" in shown)
        if "/audit" in command:
            self.play_to_the_end()
        proc = self.bash(command)
        assert proc.returncode == 0 or ("--max-time" in command and proc.returncode == 28), (command, proc.stderr)
        out = proc.stdout
        if shown.startswith("{"):
            answer = json.loads(out)
            self.answers.append(answer)
            if self.game == DOC_GAME:
                missing = set(DOC_KEY.findall(shown)) - set(DOC_KEY.findall(out))
                assert not missing, f"{command}: the document shows {sorted(missing)}, the answer has none"
            if '"type": "urn:problem:' in shown:
                assert answer["type"] == re.search(r'"type": "([^"]+)"', shown).group(1)
        return out

    def play_to_the_end(self) -> None:
        """Step 5: repeat steps 2-3 (the documented turn and move commands) until the match is over."""
        turn_command = next(c for c, _ in walkthrough() if c.rstrip().endswith('/turn -H "Authorization: Bearer $TOKEN"'))
        move_command = next(c for c, s in walkthrough() if "/moves" in c and "stale-version" not in s)
        from tests.support.stack import wait_for
        for _ in range(20_000):
            turn = json.loads(self.bash(turn_command).stdout)
            if turn["status"] != "active":
                return
            if turn["moves"]:
                self.bash(self.with_move(move_command, stale=False))
            else:
                wait_for(lambda: self.turn()["version"] != turn["version"] or self.turn()["status"] != "active", 120,
                         what="the bot's move")
        raise AssertionError("the match did not end")


def test_the_walkthrough_is_the_documents_own_game_and_commands():
    steps = walkthrough()
    assert any(DOC_GAME in c for c, _ in steps) and len(steps) >= 10
    assert not any('"duel"' in c or "\\\"duel\\\"" in c for c, _ in steps)


@pytest.mark.parametrize("game", PLAYABLE)
def test_the_curl_walkthrough_runs_as_written_to_the_end(stack, tmp_path, game):
    walk = Walk(stack, tmp_path, game)
    outputs = [walk.run(command, shown) for command, shown in walkthrough()]
    assert outputs[-1].strip().endswith("GENUINE")
    audit = next(a for a in reversed(walk.answers) if "chain_valid" in a)
    assert audit["chain_valid"] and audit["replay_valid"] and audit["chance_valid"]
