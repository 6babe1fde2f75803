"""The house rules of the layout, checked on the source so a regression fails here, not in review.

* One composition root: adapter classes are constructed only in ``summarizer/app.py``.
* One concurrency path: ``asyncio.run`` appears only in CLI command modules.
* Layers: kernel <- features <- root <- edges, with no arrow back up. The MCP server never imports
  the CLI; the CLI reaches the MCP server only through the ``summarizer mcp`` command that serves it.
* No import cycle between modules (lazy imports inside functions count: they are still arrows).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "summarizer"
COMPONENTS = (ROOT / "cache" / "summarizer_cache", ROOT / "engram" / "summarizer_engram")

ADAPTERS = {
    "LiteLLMCompleter",
    "DiskCache",
    "RedisCache",
    "OriginalStore",
    "Store",
    "Client",
    "FileMarks",
    "TopicLock",
    "ResultsCache",
    "RedisResultsCache",
    "FailSafeCache",
    "open_backend",
}

# The layers are the folders: ``core/`` is the kernel, ``cli/``, ``mcp/`` and ``agents/`` (the
# processes agents start: ``run``, the hooks, the cold ``output``) are the edges, every other folder is a
# feature. Loose modules at the top are the root (``app``), the launcher (an edge) and the public face.
KERNEL_FOLDER = "core"
EDGE_FOLDERS = {"cli", "mcp", "agents"}
TOP_MODULES = {"app": "root", "launcher": "edge", "__init__": "public", "testing": "public"}


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        yield ".".join(p for p in parts if p != "__init__"), path
    for folder in COMPONENTS:
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder.parent).with_suffix("").parts
            yield ".".join(p for p in parts if p != "__init__"), path


MODULES = dict(_modules())


def _imports(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every module ``module`` imports (lazy ones included), with the line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base, node.lineno
            for alias in node.names:  # `from summarizer.session import usecase` imports a module
                if f"{base}.{alias.name}" in MODULES:
                    yield f"{base}.{alias.name}", node.lineno


def _own(name: str) -> str | None:
    """The project module ``name`` refers to (a symbol import resolves to its module), or None."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _layer(module: str) -> str:
    """The layer of ``module``, read from where it sits in the tree."""
    if module.startswith("summarizer_"):
        return "component"
    if module == "summarizer":
        return "public"
    room = module.split(".")[1]
    if (PACKAGE / room).is_dir():
        if room == KERNEL_FOLDER:
            return "kernel"
        return "edge" if room in EDGE_FOLDERS else "feature"
    if room not in TOP_MODULES:
        raise AssertionError(f"{module} is a loose module: put it in a folder, or name its layer here")
    return TOP_MODULES[room]


# what each layer may import from the project
ALLOWED = {
    "kernel": {"kernel"},
    "component": {"kernel", "feature", "component"},  # the cache implements summarizer.semantic.ports
    "feature": {"kernel", "feature", "component"},
    "root": {"kernel", "feature", "component"},
    "edge": {"kernel", "feature", "component", "root", "edge", "public"},
    "public": {"kernel", "feature", "component", "root", "public"},
}


def test_every_module_belongs_to_a_layer() -> None:
    """A new room must be placed in the layering on purpose."""
    for module in MODULES:
        _layer(module)


def test_no_import_points_back_up_the_layers() -> None:
    """kernel <- features <- root <- edges: features never reach the root or an edge, and so on."""
    bad = []
    for module, path in MODULES.items():
        for name, line in _imports(module, path):
            target = _own(name)
            if target is None or target == module:
                continue
            if _layer(target) not in ALLOWED[_layer(module)]:
                bad.append(f"{path.relative_to(ROOT)}:{line} {module} -> {target}")
    assert not bad, "\n".join(bad)


def test_the_mcp_server_and_the_cli_do_not_lean_on_each_other() -> None:
    """The MCP server never imports the CLI; only the `summarizer mcp` command imports the server."""
    bad = []
    for module, path in MODULES.items():
        for name, line in _imports(module, path):
            target = _own(name) or ""
            server_uses_cli = module.startswith("summarizer.mcp") and target.startswith("summarizer.cli")
            cli_uses_server = (
                module.startswith("summarizer.cli")
                and module != "summarizer.cli.mcp"
                and target == "summarizer.mcp.server"
            )
            if server_uses_cli or cli_uses_server:
                bad.append(f"{path.relative_to(ROOT)}:{line} {module} -> {target}")
    assert not bad, "\n".join(bad)


def test_the_mcp_sdk_is_used_through_its_public_api() -> None:
    """No private SDK module (``mcp.shared._context_streams``) and no private attribute of an SDK
    object (``server._lowlevel_server``): an SDK upgrade may change either without notice."""
    bad = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, line in _imports(module, path):
            if name.split(".")[0] in {"mcp", "mcp_types"} and any(p.startswith("_") for p in name.split(".")):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
        if not module.startswith("summarizer.mcp"):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"})
            ):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} reads .{node.attr}")
    assert not bad, "\n".join(bad)


def test_there_is_no_import_cycle() -> None:
    """No module reaches itself through imports (lazy imports count)."""
    graph = {
        module: {t for name, _ in _imports(module, path) if (t := _own(name)) and t != module}
        for module, path in MODULES.items()
    }
    # A package's __init__ re-exporting its modules is not a design arrow: skip edges into packages
    # from their own submodules' perspective by ignoring package-init -> child edges.
    for module in graph:
        if MODULES[module].name == "__init__.py":
            graph[module] = {t for t in graph[module] if not t.startswith(module + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            pytest.fail("import cycle: " + " -> ".join(cycle))


def _calls(path: Path) -> Iterator[tuple[str, int]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                yield func.id, node.lineno
            elif isinstance(func, ast.Attribute):
                owner = func.value.id if isinstance(func.value, ast.Name) else ""
                yield f"{owner}.{func.attr}" if owner else func.attr, node.lineno


def test_adapters_are_built_only_in_the_composition_root() -> None:
    """LiteLLMCompleter, the caches, the originals store, engram's Store/Client... only in app.py."""
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "app.py":
            continue
        for name, line in _calls(path):
            if name.rpartition(".")[2] in ADAPTERS and name.rpartition(".")[0] not in {"self", "cls"}:
                bad.append(f"{path.relative_to(ROOT)}:{line} {name}(...)")
    assert not bad, "\n".join(bad)


def test_asyncio_run_appears_only_in_cli_commands() -> None:
    """The core is async; each CLI command runs one event loop at the edge."""
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if (PACKAGE / "cli") in path.parents:
            continue
        for name, line in _calls(path):
            if name == "asyncio.run":
                bad.append(f"{path.relative_to(ROOT)}:{line}")
    assert not bad, "\n".join(bad)


def _is_command(decorator: ast.expr) -> bool:
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("command", "group")


def test_cli_commands_are_thin() -> None:
    """Every click command is parse, one use-case call, render: at most 20 statements of body."""
    long = []
    for path in sorted([*(PACKAGE / "cli").glob("*.py"), *(PACKAGE / "agents").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(_is_command(d) for d in node.decorator_list):
                body = [
                    b
                    for b in node.body
                    if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))
                ]  # docstring
                # statements, not lines: the formatter's line breaks must not move the measure
                if sum(isinstance(n, ast.stmt) for b in body for n in ast.walk(b)) > 20:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not long, "\n".join(long)
