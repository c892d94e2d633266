"""No import cycles among the project's modules (issue 24, "a house without circles").

The graph is a static analysis of every ``import`` statement of the project's packages (grimp
parses each module's source; networkx finds the cycles). What counts as an import of module A
by module B:

* every import statement in B, wherever it stands: at module level, and also inside a function.
  A function-local import is the usual way to hide a cycle from the interpreter, not a way to
  remove it (the two modules still need each other), so it counts;
* imports under ``if TYPE_CHECKING:`` count too: the types of one module named in another are a
  dependency of the design, and a cycle through them is still a cycle;
* imports of anything outside the project (an optional dependency imported inside a function,
  the standard library) are not in the graph at all;
* ``importlib.import_module(name)`` is not an import statement: that is plugin discovery (the
  game registry loading the game packages it is told about), and it is not counted.

``KNOWN`` lists the imports allowed to close a cycle, each with why and until when. An entry that
no longer closes a cycle fails the test, so the list can only shrink.
"""
from __future__ import annotations

import itertools
import textwrap
from pathlib import Path

import grimp
import networkx as nx

PACKAGES = ("shared", "services", "deploy", "scripts", "bench", "tabletop_client")

# (importer, imported) -> why this import may still close a cycle
KNOWN: dict[tuple[str, str], str] = {
    # A frozen release is a byte-for-byte copy of the code that ran in the field and is never
    # edited (docs/releases.md); its powers.py imports actions.py inside a function (commit 2c4e00b).
    # The live package (shared/games/rise_of_tribes) has no such cycle.
    ("shared.released.rise_of_tribes.v1.powers", "shared.released.rise_of_tribes.v1.actions"):
        "frozen code: never edited",
}


def import_graph(*packages: str) -> tuple[grimp.ImportGraph, nx.DiGraph]:
    """grimp's graph of ``packages`` (no cache written) and the same imports as a networkx graph."""
    graph = grimp.build_graph(*packages, cache_dir=None)
    edges = nx.DiGraph()
    edges.add_nodes_from(graph.modules)
    for module in graph.modules:
        edges.add_edges_from((module, imported) for imported in graph.find_modules_directly_imported_by(module))
    return graph, edges


def cycles(edges: nx.DiGraph, allowed=(), shown: int = 3) -> list[list[str]]:
    """Some cycles of each tangle (strongly connected set of modules) left once the ``allowed``
    imports are taken out: empty when there is none."""
    rest = edges.copy()
    rest.remove_edges_from(allowed)
    found = [[m, m] for m in nx.nodes_with_selfloops(rest)]
    for tangle in nx.strongly_connected_components(rest):
        if len(tangle) > 1:
            some = itertools.islice(nx.simple_cycles(rest.subgraph(tangle)), shown)
            found += [closed(cycle) for cycle in some]
    return sorted(found)


def closed(cycle: list[str]) -> list[str]:
    """The cycle from its first module by name back to it (the same cycle reads the same in every run)."""
    start = cycle.index(min(cycle))
    return cycle[start:] + cycle[:start + 1]


def describe(graph: grimp.ImportGraph, cycle: list[str]) -> str:
    """A cycle as its imports, each with the line that makes it."""
    lines = [" -> ".join(cycle)]
    for importer, imported in itertools.pairwise(cycle):
        for detail in graph.get_import_details(importer=importer, imported=imported)[:1]:
            lines.append(f"    {importer}:{detail['line_number']}: {detail['line_contents']}")
    return "\n".join(lines)


def test_the_project_has_no_import_cycle():
    graph, edges = import_graph(*PACKAGES)
    found = cycles(edges, KNOWN)
    assert not found, "import cycles:\n" + "\n".join(describe(graph, c) for c in found)


def test_every_known_cycle_is_still_a_cycle():
    """An entry of ``KNOWN`` whose import is gone, or no longer closes a cycle, must be deleted."""
    _, edges = import_graph(*PACKAGES)
    stale = [edge for edge in KNOWN if not edges.has_edge(*edge) or not nx.has_path(edges, edge[1], edge[0])]
    assert not stale, f"these imports no longer close a cycle; delete them from KNOWN: {stale}"


def write_package(root: Path, name: str, modules: dict[str, str]) -> None:
    (root / name).mkdir()
    (root / name / "__init__.py").write_text("")
    for module, source in modules.items():
        (root / name / f"{module}.py").write_text(textwrap.dedent(source))


def test_a_cycle_through_a_function_local_or_type_checking_import_is_found(tmp_path, monkeypatch):
    """The analysis sees what the test claims it counts (and what it does not)."""
    write_package(tmp_path, "circles", {
        "low": """
            def late():
                from . import high  # hidden from the interpreter, not from the test
                return high
        """,
        "high": "from .low import late\n",
        "typed": """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from .annotated import Thing
        """,
        "annotated": "from . import typed\n",
        "optional": """
            def speedup():
                import some_optional_dependency  # not a project module: not in the graph
        """,
        "plugins": """
            import importlib
            def load():
                return importlib.import_module("circles.plugged")  # discovery, not an import statement
        """,
        "plugged": "from . import plugins\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    graph, edges = import_graph("circles")
    found = cycles(edges)
    assert found == [["circles.annotated", "circles.typed", "circles.annotated"],
                     ["circles.high", "circles.low", "circles.high"]], found
    assert "circles.low:3: from . import high" in describe(graph, found[1])
    assert cycles(edges, [("circles.low", "circles.high"), ("circles.typed", "circles.annotated")]) == []
