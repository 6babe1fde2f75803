"""A pattern from ``lazy`` answers as the compiled pattern would, and compiles only when used."""

from __future__ import annotations

import marshal
import re
from pathlib import Path

import pytest

from summarizer.core import lazyre
from summarizer.core.lazyre import lazy

TEXTS = ["", "error: a.py:12: bad", "ERROR x\nwarning y", "no hit here", "a.py:1 a.py:2"]
SOURCES = [(r"(?P<file>\w+\.py):(?P<line>\d+)", 0), (r"^error", re.IGNORECASE | re.MULTILINE), (r"\s+", 0)]


@pytest.mark.parametrize(("source", "flags"), SOURCES)
def test_every_method_answers_as_the_compiled_pattern(source: str, flags: int) -> None:
    compiled, stand_in = re.compile(source, flags), lazy(source, flags)
    for text in TEXTS:
        assert [m.span() for m in stand_in.finditer(text)] == [m.span() for m in compiled.finditer(text)]
        for method in ("search", "match", "fullmatch"):
            ours, theirs = getattr(stand_in, method)(text), getattr(compiled, method)(text)
            assert (ours and ours.span()) == (theirs and theirs.span())
        assert stand_in.findall(text) == compiled.findall(text)
        assert stand_in.sub("#", text) == compiled.sub("#", text)
        assert stand_in.subn("#", text) == compiled.subn("#", text)
        assert stand_in.split(text) == compiled.split(text)
        ours_at, theirs_at = stand_in.search(text, 2, 9), compiled.search(text, 2, 9)
        assert (ours_at and ours_at.span()) == (theirs_at and theirs_at.span())
    assert (stand_in.pattern, stand_in.flags, stand_in.groups) == (
        compiled.pattern,
        compiled.flags,
        compiled.groups,
    )
    assert stand_in.groupindex == compiled.groupindex


def test_bytes_patterns_work_too() -> None:
    stand_in = lazy(rb"\d+")
    assert stand_in.findall(b"a1b22") == [b"1", b"22"]


def test_nothing_is_compiled_until_the_pattern_is_used() -> None:
    stand_in = lazy(r"(unclosed")  # compiling this raises: it must not happen at definition
    assert stand_in.pattern == "(unclosed"
    with pytest.raises(re.error):
        stand_in.search("x")


@pytest.fixture
def cache_state(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """A fresh cache state (the real one belongs to the process)."""
    state: dict[str, object] = {"file": None, "programs": None, "added": False}
    monkeypatch.setattr(lazyre, "_state", state)
    monkeypatch.setattr("atexit.register", lambda function: function)
    return state


def _package_patterns() -> list[tuple[str | bytes, int]]:
    """Every lazy pattern the compressing cold path defines (scrubber and output engine)."""
    import gc

    import summarizer.agents.cold_output
    import summarizer.output.compressor
    import summarizer.output.deliver  # noqa: F401

    found = {(p.pattern, p._args[1]) for p in gc.get_objects() if isinstance(p, lazyre._Lazy)}
    return sorted(found, key=repr)


def test_a_pattern_built_from_its_cached_program_equals_the_compiled_one(
    cache_state: dict[str, object], tmp_path: Path
) -> None:
    """`==` between patterns compares flags and the compiled program itself, byte for byte."""
    patterns = _package_patterns()
    assert len(patterns) > 100
    lazyre.use_cache(str(tmp_path))
    made = [lazyre._compile(source, flags) for source, flags in patterns]
    lazyre._save()
    cache_state.update(programs=None, added=False)  # as a new process would start
    again = [lazyre._compile(source, flags) for source, flags in patterns]
    assert cache_state["added"] is False  # every one came from the file
    for (source, flags), first, second in zip(patterns, made, again, strict=True):
        assert first == second == re.compile(source, flags), source
        assert (second.groupindex, second.groups) == (re.compile(source, flags).groupindex, second.groups)


def test_a_damaged_or_foreign_cache_is_ignored(cache_state: dict[str, object], tmp_path: Path) -> None:
    lazyre.use_cache(str(tmp_path))
    file = Path(str(cache_state["file"]))
    for content in (
        b"",
        b"garbage",
        marshal.dumps([1, 2]),
        marshal.dumps({("a+", 32): (1, [99, 99], 0, {}, ())}),
    ):
        file.write_bytes(content)
        cache_state.update(programs=None, added=False)
        assert lazyre._compile("a+", re.UNICODE) == re.compile("a+")
        assert lazyre._compile(r"(?P<x>\d+)", 0).findall("ab12") == ["12"]


def test_without_a_cache_nothing_is_written(cache_state: dict[str, object], tmp_path: Path) -> None:
    assert lazyre._compile(r"\w+", 0) == re.compile(r"\w+")
    lazyre._save()
    assert not list(tmp_path.rglob("regex-*"))


def test_a_record_init_compiled_once_is_read_back_from_the_cache(
    cache_state: dict[str, object], tmp_path: Path
) -> None:
    from summarizer.core import records

    lazyre.use_cache(str(tmp_path))

    @records.record(frozen=True)
    class Point:
        x: int
        y: int = 0

    lazyre._save()
    cache_state.update(programs=None, added=False)  # as a new process would start

    @records.record(frozen=True)
    class Again:
        x: int
        y: int = 0

    assert cache_state["added"] is False
    assert (Again(1), Again(1, 2), Again(x=3).y) == (Again(1, 0), Again(y=2, x=1), 0)
    assert Point.__init__.__code__ == Again.__init__.__code__
    source = "def __init__(self, x, y=_default1):\n    _set(self, 'x', x)\n    _set(self, 'y', y)"
    assert lazyre.compiled_source(source) == compile(source, "<record>", "exec")
