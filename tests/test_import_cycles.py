"""No two citechunk modules import each other, directly or round a circle.

Every import statement of every module under ``src/citechunk`` counts, wherever it stands (top
level, inside a function, under ``TYPE_CHECKING``): a lazy or type-only import hides a circle,
it does not remove one. Imports of a package (its ``__init__``) are left out: a package
re-exports what its modules define, so its facade names every module beneath it.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(p): p for p in (SRC / "citechunk").rglob("*.py")}


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement names (a `from X import name` names X.name when that
    is a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    here = module.split(".")
    if MODULES[module].name != "__init__.py":
        here = here[:-1]
    if node.level:
        base = here[: len(here) - node.level + 1]
        target = ".".join([*base, *([node.module] if node.module else [])])
    else:
        target = node.module or ""
    return [f"{target}.{a.name}" if f"{target}.{a.name}" in MODULES else target for a in node.names]


def _module_of(name: str) -> str:
    """The citechunk module `name` is (or lies in), "" for another package's."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def import_graph() -> dict[str, set[str]]:
    """module -> the citechunk modules (packages aside) its import statements name."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in map(_module_of, _targets(module, node)):
                    if target and target != module and MODULES[target].name != "__init__.py":
                        deps.add(target)
        graph[module] = deps
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two or more modules (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        group.append(top)
                        if top == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_the_graph_holds_every_kind_of_import() -> None:
    graph = import_graph()
    assert sum(len(d) for d in graph.values()) > 300
    assert "citechunk.conversion.passcontext" in graph["citechunk.conversion.pipeline"]
    # a type-only import and a function-level import are edges too
    assert "citechunk.config" in graph["citechunk.conversion.passcontext"]
    assert "citechunk.conversion.pipeline" in graph["citechunk.cli.commands"]


def test_circles_are_found() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_round_a_circle() -> None:
    assert circles(import_graph()) == []
