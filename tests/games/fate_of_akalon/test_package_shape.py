"""The package has the skeleton every game shares, and its modules import each other one way."""
import ast
from pathlib import Path

import shared.games.fate_of_akalon as package

ROOT = Path(package.__file__).parent
SKELETON = ["game", "content", "evolve", "moves", "flow", "views", "heuristic", "scoring"]


def _imports() -> dict[str, set[str]]:
    graph = {}
    for path in ROOT.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                deps |= {node.module} if node.module else {a.name for a in node.names}
        graph[path.stem] = deps
    return graph


def test_package_has_the_shared_skeleton():
    names = {p.stem for p in ROOT.glob("*.py")}
    assert set(SKELETON) <= names
    assert not names & {"events", "cards", "view", "reducers", "reducer"}


def test_package_has_no_import_cycles():
    graph = _imports()
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, " -> ".join(path + [module])
        if module in done:
            return
        for dep in graph.get(module, ()):
            visit(dep, path + [module])
        done.add(module)

    for module in graph:
        visit(module, [])
