"""Regular expressions compiled on first use, and from a cache of compiled programs, for the cold path.

``re.compile`` of this package's patterns at import time cost about 1.5x ``python -c pass`` in
CPU on every ``summarizer output``, and most of those patterns are not used by a given input: the
secret scrubber's rules run only on a line holding one of their trigger strings, the output
engine's tool rules only on outputs of that tool. :func:`lazy` returns a stand-in that compiles
its pattern the first time a method or attribute is asked for, then keeps the compiled pattern's
bound methods as its own attributes, so a call costs what a call on the compiled pattern costs.

The stand-in is typed as the ``re.Pattern`` it becomes and answers every attribute of one. It is
not an instance of ``re.Pattern``: pass ``.pattern`` (its source) where a function of ``re``
wants a pattern.

The patterns a compressing ``summarizer output`` does use still took about 20 ms to compile: the
parser and compiler of ``re`` are Python, only the matcher is C. With :func:`use_cache` (the cold
paths call it with the cache directory), the compiled program of each pattern (what ``re``'s
compiler hands to the C matcher, ``_sre.compile``) is kept in ``regex-<python>.marshal`` there,
keyed by the pattern's source and flags, and the next process hands it to ``_sre.compile``
directly. The file is named after the exact interpreter (version, build and ``_sre`` magic), the
C matcher validates every program it is given, and anything unexpected (an unreadable or foreign
file, an interpreter without these internals) falls back to ``re.compile``:
``tests/core/test_lazyre.py`` checks that a pattern built from the cache equals the one
``re.compile`` builds, program included.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # the C matcher behind re (loaded with it)
import os
import re
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, AnyStr

    # What _sre.compile takes after the source: flags, program, groups, groupindex, indexgroup.
    _Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]

__all__ = ["compiled_source", "lazy", "use_cache"]

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")


class _Lazy:
    """A pattern source and flags until first use; then the compiled pattern's methods."""

    def __init__(self, source: Any, flags: int) -> None:
        self._args: tuple[Any, int] = (source, flags)
        self.pattern = source

    def __getattr__(self, name: str) -> Any:
        # Only reached for what is not set yet: the first use of anything but `pattern`.
        compiled = _compile(*self._args)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        self.flags, self.groups, self.groupindex = compiled.flags, compiled.groups, compiled.groupindex
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(source, flags)``, done the first time the pattern is used."""
    return _Lazy(source, flags)  # type: ignore[return-value]


# The package has about 200 patterns: a cap keeps patterns made at run time from growing the file.
_MAX_PROGRAMS = 2000
# The cache file, and its programs by (source, flags) once read.
_state: dict[str, Any] = {"file": None, "programs": None, "added": False}


def use_cache(folder: str) -> None:
    """Keep compiled programs in ``folder`` from now on (read at the first compile, written at exit)."""
    if _state["file"] is not None:
        return
    import atexit
    import zlib

    # The exact interpreter: a program is only valid for the matcher of the build that made it.
    build = zlib.crc32(f"{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}".encode())
    _state["file"] = os.path.join(folder, f"regex-{sys.implementation.cache_tag}-{build:08x}.marshal")
    atexit.register(_save)


def _programs() -> dict[tuple[Any, int], _Program]:
    programs: dict[tuple[Any, int], _Program] | None = _state["programs"]
    if programs is None:
        programs = {}
        try:
            import marshal

            with open(_state["file"], "rb") as handle:
                data = handle.read()  # marshal.load(handle) reads item by item: 20x slower
            loaded = marshal.loads(data)
            if isinstance(loaded, dict):
                programs = loaded
        except (OSError, EOFError, ValueError, TypeError):
            programs = {}  # none yet, or unreadable: this process compiles and writes a new one
        _state["programs"] = programs
    return programs


def _compile(source: Any, flags: int) -> re.Pattern[Any]:
    if _state["file"] is None or flags & re.DEBUG:
        return re.compile(source, flags)
    flags = int(flags)
    programs = _programs()
    known = programs.get((source, flags))
    if known is not None:
        try:
            built: re.Pattern[Any] = _sre_compile(source, *known)
            return built
        except Exception:
            del programs[(source, flags)]
    try:
        program = _program(source, flags)
    except (AttributeError, TypeError):  # an interpreter whose re internals differ: no cache
        return re.compile(source, flags)
    if len(programs) < _MAX_PROGRAMS:
        programs[(source, flags)] = program
        _state["added"] = True
    made: re.Pattern[Any] = _sre_compile(source, *program)
    return made


def _sre_compile(source: Any, *program: Any) -> Any:
    """The C matcher's constructor (what ``re.compile`` ends with); it validates the program."""
    return _sre.compile(source, *program)


def compiled_source(source: str) -> Any:
    """``compile(source)`` for ``exec``, kept in the same cache as the patterns' programs (the
    ``__init__`` of each record, :mod:`summarizer.core.records`: 30 compiles were about 3 ms)."""
    if _state["file"] is None:
        return compile(source, "<record>", "exec")
    programs: dict[Any, Any] = _programs()
    code = programs.get(("code", source))
    if code is None:
        code = compile(source, "<record>", "exec")
        if len(programs) < _MAX_PROGRAMS:
            programs[("code", source)] = code
            _state["added"] = True
    return code


def _program(source: Any, flags: int) -> _Program:
    """What ``re._compiler.compile`` hands to ``_sre.compile`` for ``source``, after the source."""
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(source, flags)
    code = _compiler._code(parsed, flags)
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    program = [int(op) for op in code]  # opcodes are int subclasses, which marshal refuses
    return (int(flags | parsed.state.flags), program, parsed.state.groups - 1, groupindex, tuple(indexgroup))


def _save() -> None:
    """Write the programs back when this process compiled new ones (atomically; errors ignored)."""
    if not _state["added"]:
        return
    import marshal

    path: str = _state["file"]
    partial = f"{path}.{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(partial, "wb") as handle:
            handle.write(marshal.dumps(_state["programs"]))
        os.replace(partial, path)
    except (OSError, ValueError):
        import contextlib

        with contextlib.suppress(OSError):
            os.unlink(partial)
