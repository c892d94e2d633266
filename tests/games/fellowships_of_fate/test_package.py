"""The package's shape: the common skeleton, no import cycles, and a NOTES.md clause table that
names real modules and real tests."""
import ast
import re
from pathlib import Path

import shared.games.fellowships_of_fate as package

PACKAGE = Path(package.__file__).parent
TESTS = Path(__file__).parent
SKELETON = ["game", "content", "evolve", "moves", "flow", "views", "heuristic", "scoring"]


def _imports(path: Path) -> set[str]:
    """Sibling modules a module imports (``from .x import`` / ``from . import x``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
    return out


def test_package_has_the_common_skeleton():
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    assert set(SKELETON) <= modules


def test_package_has_no_import_cycles():
    graph = {p.stem: _imports(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, f"import cycle: {' -> '.join(path + (module,))}"
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, path + (module,))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_notes_clause_table_names_real_modules_and_tests():
    notes = (PACKAGE / "NOTES.md").read_text()
    table = notes.split("## Clause table", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("|") and not line.startswith("|--")][1:]
    assert len(rows) > 40
    tests = {name for p in TESTS.glob("test_*.py")
             for name in re.findall(r"^def (test_\w+)", p.read_text(), re.MULTILINE)}
    modules = {p.name for p in PACKAGE.glob("*.py")} | {p.name for p in (PACKAGE / "data").glob("*.json")}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        named_modules = re.findall(r"`([\w.]+\.(?:py|json))`", cells[2])
        named_tests = re.findall(r"`(test_\w+)`", cells[3])
        assert named_modules and named_tests, row
        assert set(named_modules) <= modules, row
        assert set(named_tests) <= tests, row
