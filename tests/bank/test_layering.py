"""The bank's modules import each other without a circle (TYPE_CHECKING and lazy imports included)."""

from __future__ import annotations

import ast
from pathlib import Path

import summarizer.bank

PACKAGE = Path(summarizer.bank.__file__).parent


def _edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for path in PACKAGE.glob("*.py"):
        name = path.stem
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("summarizer.bank."):
                    targets.add(node.module.split(".")[2])
                elif node.module == "summarizer.bank" and name != "__init__":
                    targets.update(
                        alias.name for alias in node.names if (PACKAGE / f"{alias.name}.py").exists()
                    )
        edges[name] = targets - {name}
    return edges


def test_no_import_circle_inside_the_bank() -> None:
    """Depth-first search over every import between bank modules finds no cycle."""
    edges = _edges()
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            assert state.get(nxt) != 1, " -> ".join([*path, node, nxt])
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [])
