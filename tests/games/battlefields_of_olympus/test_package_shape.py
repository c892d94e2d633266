"""The package has the skeleton every game shares, and its modules import without cycles."""
import ast
from pathlib import Path

import shared.games.battlefields_of_olympus as package

PACKAGE = Path(package.__file__).parent
SKELETON = {"game", "content", "evolve", "moves", "flow", "views", "heuristic", "scoring"}


def _imports() -> dict:
    graph = {}
    for path in PACKAGE.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        graph[path.stem] = names
    return graph


def test_package_has_the_shared_skeleton():
    assert SKELETON <= {p.stem for p in PACKAGE.glob("*.py")}


def test_package_modules_import_without_cycles():
    graph, done = _imports(), set()

    def visit(name, path):
        assert name not in path, f"import cycle: {' -> '.join(path + [name])}"
        if name in done:
            return
        for other in graph.get(name, ()):
            visit(other, path + [name])
        done.add(name)

    for name in graph:
        visit(name, [])
