"""The house rules of the layout, checked on the source so a regression fails here, not in review.

* One composition root: adapters are constructed only in ``summarizer/app.py``, found by type (what a
  call constructs, through aliases, re-exports and classmethod constructors), not by name.
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

# The modules whose classes touch the world (a database, a cache server, the network, lock files):
# every class they define is an adapter, except the protocols, errors and plain values among them.
ADAPTER_MODULES = {
    "summarizer_cache.disk",
    "summarizer_cache._redis",
    "summarizer_cache.failsafe",
    "summarizer_engram.store",
    "summarizer_engram.client",
    "summarizer_engram.backend",
    "summarizer.semantic.llm",
    "summarizer.output.originals",
    "summarizer.evaluation.cellstore",
    "summarizer.session.marks",
    "summarizer.app",
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


def _from(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from ... import`` reads from, relative imports resolved against ``package``."""
    base = node.module or ""
    if not node.level:
        return base
    anchor = package.split(".")
    anchor = anchor[: len(anchor) - node.level + 1]
    return ".".join([*anchor, base] if base else anchor)


def _imports(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every module ``module`` imports (lazy ones included), with the line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = _from(node, package)
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


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and (owner := _dotted(node.value)):
        return f"{owner}.{node.attr}"
    return None


def _bindings(module: str, path: Path) -> dict[str, str]:
    """What each name of ``module`` refers to: imports (lazy ones included), its own top-level
    classes and functions, and top-level aliases (``Memory = SharedMemory``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    table: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                table[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom):
            base = _from(node, package)
            for alias in node.names:
                table[alias.asname or alias.name] = f"{base}.{alias.name}"
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            table[node.name] = f"{module}.{node.name}"
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], _dotted(node.value)
        if isinstance(target, ast.Name) and value is not None:
            head, _, rest = value.partition(".")
            table[target.id] = ".".join(filter(None, [table.get(head, head), rest]))
    return table


BINDINGS = {module: _bindings(module, path) for module, path in MODULES.items()}


def _canonical(dotted: str, seen: int = 0) -> str:
    """Where ``dotted`` is defined, following re-exports (``summarizer_cache.DiskCache`` is
    ``summarizer_cache.disk.DiskCache``) and aliases."""
    parts = dotted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in MODULES:
            target = BINDINGS[prefix].get(parts[i])
            if target and target != f"{prefix}.{parts[i]}" and seen < 20:
                return _canonical(".".join([target, *parts[i + 1 :]]), seen + 1)
            return dotted
    return dotted


def _is_value_or_port(node: ast.ClassDef) -> bool:
    """A protocol, an error or a plain value: defined in an adapter module, but not an adapter."""
    bases = {_dotted(b) or "" for b in node.bases}
    decorators = {_dotted(d.func if isinstance(d, ast.Call) else d) or "" for d in node.decorator_list}
    plain = {"Protocol", "BaseModel", "Exception"}
    return bool(
        {b.rpartition(".")[2] for b in bases} & plain
        or any(b.endswith(("Error", "NotStored")) for b in bases)
        or any(d.rpartition(".")[2] == "dataclass" for d in decorators)
    )


def _exported(tree: ast.Module) -> set[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(_dotted(t) == "__all__" for t in node.targets):
            return {e.value for e in ast.walk(node.value) if isinstance(e, ast.Constant)}  # type: ignore[misc]
    return None


def _adapters() -> set[str]:
    """Every public class of an adapter module that is not a port or a value, by full name, and
    the components' ``open_*`` factories (the root's own builders are what edges call)."""
    found = set()
    for module in ADAPTER_MODULES:
        tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
        exported = _exported(tree)
        for node in tree.body:
            public = getattr(node, "name", "_")
            if public.startswith("_") or (exported is not None and public not in exported):
                continue
            adapter_class = isinstance(node, ast.ClassDef) and not _is_value_or_port(node)
            factory = (
                isinstance(node, ast.FunctionDef)
                and node.name.startswith("open_")
                and module != "summarizer.app"
            )
            if adapter_class or factory:
                found.add(f"{module}.{public}")
    return found


ADAPTERS = _adapters()


def _constructions(module: str, path: Path) -> Iterator[tuple[str, int]]:
    """The adapters ``module`` builds: a call of an adapter class or factory, or of one of a
    class's constructors (``OriginalStore.configured(...)``), whatever name it goes by."""
    table = BINDINGS[module]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or (dotted := _dotted(node.func)) is None:
            continue
        head, _, rest = dotted.partition(".")
        if head in {"self", "cls"} or head not in table:
            continue
        target = _canonical(".".join(filter(None, [table[head], rest])))
        if target in ADAPTERS or target.rpartition(".")[0] in ADAPTERS:
            yield target, node.lineno


def test_the_adapter_set_is_found_by_type() -> None:
    """The check knows the adapters without a list of names (a renamed import cannot hide one)."""
    assert {
        "summarizer.output.originals.OriginalStore",
        "summarizer.semantic.llm.LiteLLMCompleter",
        "summarizer_cache.disk.DiskCache",
        "summarizer_engram.store.Store",
        "summarizer_engram.backend.open_backend",
        "summarizer.session.marks.TopicLock",
    } <= ADAPTERS
    assert "summarizer.output.originals.OriginalNotStored" not in ADAPTERS


def test_adapters_are_built_only_in_the_composition_root() -> None:
    """The completer, the caches, the originals store, engram's Store/Client, the marks... are built
    only in app.py, whatever name the call uses (an alias, a re-export, a classmethod constructor)."""
    bad = []
    for module, path in MODULES.items():
        if module == "summarizer.app" or not module.startswith("summarizer."):
            continue
        for target, line in _constructions(module, path):
            if target.rpartition(".")[0] != module and target.split(".")[:-1] != module.split("."):
                bad.append(f"{path.relative_to(ROOT)}:{line} builds {target}")
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


def _statements(function: ast.FunctionDef) -> int:
    """Statements, not lines: the formatter's line breaks must not move the measure."""
    body = [b for b in function.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
    return sum(isinstance(n, ast.stmt) for b in body for n in ast.walk(b))


def _delegates(function: ast.FunctionDef, private: dict[str, ast.FunctionDef]) -> Iterator[ast.FunctionDef]:
    """The module's private functions ``function`` hands its work to, called or passed along
    (``handle_errors(_session)(...)``), and theirs in turn."""
    seen: set[str] = set()
    todo = [function]
    while todo:
        for node in ast.walk(todo.pop()):
            if isinstance(node, ast.Name) and node.id in private and node.id not in seen:
                seen.add(node.id)
                todo.append(private[node.id])
                yield private[node.id]


def test_cli_commands_are_thin() -> None:
    """Every click command is parse, one use-case call, render: at most 20 statements of body, and
    so is each private body in ``cli/`` it delegates to (a thin command over a fat helper is not thin)."""
    long = []
    for path in sorted([*(PACKAGE / "cli").glob("*.py"), *(PACKAGE / "agents").glob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        private = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("_")}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any(_is_command(d) for d in node.decorator_list):
                inside_cli = path.parent.name == "cli"
                for body in [node, *(_delegates(node, private) if inside_cli else ())]:
                    if _statements(body) > 20:
                        long.append(f"{path.relative_to(ROOT)}:{body.lineno} {node.name}: {body.name}")
    assert not long, "\n".join(long)


def test_the_tests_mirror_the_package() -> None:
    """Every folder of tests/ is named after a room of the package (or a component), so a test is
    found where its code is; a test of the whole tree sits at the top of tests/."""
    rooms = {p.parent.name for p in PACKAGE.glob("*/__init__.py")} | {"cache", "engram"}
    folders = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    assert folders <= rooms, f"tests/ folders with no room: {sorted(folders - rooms)}"
