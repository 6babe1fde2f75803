"""A pattern from ``lazy`` answers as the compiled pattern would, and compiles only when used."""

from __future__ import annotations

import re

import pytest

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
