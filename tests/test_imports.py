"""The import graph inside workbench/ has no cycles, counting module-level and function-level
imports alike (read from the source, so a lazy import inside a function counts too)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "workbench"
# Edges outside the native searches that still close a cycle, for the branch that owns them to cut
# (solvers/__init__.py imports runner lazily, and runner imports the package): delete when it does.
KNOWN = {("workbench.solvers", "workbench.solvers.runner")}


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The workbench modules that `name` imports anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for a in node.names:       # `from package import module` imports the module
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in known else base)
    return {m for m in found if m in known and m != name}


def import_graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: {t for t in _imports(name, path, known) if (name, t) not in KNOWN} for name, path in known.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, or None (depth-first search with colours)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in state and (found := visit(t)):
                return found
        state[m] = 2
        stack.pop()
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_graph_sees_lazy_and_relative_imports():
    graph = import_graph()
    assert "workbench.search.outcome" in graph["workbench.puzzles.squares.search"]
    assert "workbench.puzzles.squares.kernel" in graph["workbench.puzzles.squares.beam"]
    assert "workbench.puzzles.percolation.transfer" in graph["workbench.puzzles.percolation.recursion"]


def test_no_import_cycles_inside_workbench():
    assert _cycle(import_graph()) is None, " -> ".join(_cycle(import_graph()) or [])


def test_the_shared_search_helpers_import_no_puzzle():
    graph = import_graph()
    for name, deps in graph.items():
        if name.startswith("workbench.search"):
            assert all(d.startswith("workbench.search") for d in deps), (name, deps)
