"""The rules service's modules import one another without a circle (issue #24: deadlines and
follow-ups imported each other; firing a deadline, which needs both, is ``timeouts``). Every
import counts, also one made only for type checking or inside a function."""
from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "services" / "rules"
PACKAGE = "services.rules"


def imports_of(path: Path) -> set[str]:
    """The modules of ``services.rules`` that the file at ``path`` imports (relative or absolute)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = node.module
                names = [base] if base else [a.name for a in node.names]
            elif node.module and node.module.startswith(PACKAGE + "."):
                names = [node.module[len(PACKAGE) + 1:]]
            else:
                continue
            found.update(n.split(".")[0] for n in names if n)
        elif isinstance(node, ast.Import):
            found.update(a.name[len(PACKAGE) + 1:].split(".")[0] for a in node.names
                         if a.name.startswith(PACKAGE + "."))
    return found


def graph() -> dict[str, set[str]]:
    modules = {p.stem: p for p in RULES.glob("*.py") if p.stem != "__init__"}
    return {name: imports_of(path) & set(modules) for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every circle found by a depth-first walk (each reported once, from its first module)."""
    found, state, stack = [], {}, []

    def visit(node: str) -> None:
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == "open":
                found.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_the_walk_finds_a_circle_when_there_is_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_rules_service_imports_itself_back():
    edges = graph()
    assert {"deadlines", "followups", "timeouts"} <= set(edges)
    assert "followups" not in edges["deadlines"]
    assert cycles(edges) == []
