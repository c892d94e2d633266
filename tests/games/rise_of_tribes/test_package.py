"""The package's shape (issue 12): the skeleton every game shares, and no import cycles."""
import ast
from pathlib import Path

import shared.games.rise_of_tribes as package

ROOT = Path(package.__file__).parent
SKELETON = ["game.py", "content.py", "evolve.py", "moves.py", "flow.py", "views.py", "heuristic.py", "scoring.py"]


def _local_imports(path: Path) -> set[str]:
    """Sibling modules ``path`` imports (``from .x import``, ``from . import x``), anywhere in it."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = {p.stem for p in ROOT.glob("*.py")}
    return {p.stem: _local_imports(p) & modules for p in ROOT.glob("*.py")}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_package_has_the_shared_skeleton():
    assert all((ROOT / name).exists() for name in SKELETON)
    assert not (ROOT / "reducer.py").exists() and not (ROOT / "decisions.py").exists()


def test_package_has_no_import_cycles():
    assert find_cycle(import_graph()) is None, find_cycle(import_graph())


def test_cycle_finder_finds_a_cycle():
    assert find_cycle({"actions": {"powers"}, "powers": {"actions"}}) == ["actions", "powers", "actions"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_notes_clause_table_names_real_tests_and_modules():
    """NOTES.md opens with the clause table; every module and test it names exists, and every
    rule test of the suite (``test_rule_*``, ``test_example_*``, ``test_power_*``,
    ``test_event_*``) appears in it."""
    import re

    notes = (ROOT / "NOTES.md").read_text()
    table = notes[notes.index("## Clause table"):notes.index("## Modules")]
    named_tests = set(re.findall(r"`(test_[a-z0-9_]+)`", table)) - {"test_notes_clause_table_names_real_tests_and_modules"}
    named_modules = set(re.findall(r"`([a-z_0-9]+\.py)`", table))
    here = Path(__file__).parent
    defined = set()
    for path in here.glob("test_*.py"):
        defined.update(re.findall(r"^def (test_[a-z0-9_]+)", path.read_text(), re.MULTILINE))
    assert named_tests and named_tests <= defined, sorted(named_tests - defined)
    assert named_modules and all((ROOT / m).exists() for m in named_modules), named_modules
    rules = {t for t in defined if t.startswith(("test_rule_", "test_example_", "test_power_", "test_event_"))}
    assert rules <= named_tests, sorted(rules - named_tests)
