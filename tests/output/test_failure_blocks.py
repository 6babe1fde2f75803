"""Failure blocks whose headline carries no error word and no file:line, on real tool output."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.output.conftest import FIXTURES, Run, fixture_bytes


def _frame(frame: ET.Element) -> str:
    """A frame as valgrind's text prints it (without the code address)."""
    if frame.findtext("file"):
        where = f"{frame.findtext('file')}:{frame.findtext('line')}"
    else:
        where = f"in {frame.findtext('obj')}"
    return f"{frame.findtext('fn')} ({where})"


def test_valgrind_records_keep_headline_location_and_continuation(run: Run) -> None:
    """A headline over frames is the failure: every record keeps it, its `at` frame and its
    first frame in the program's own source; the first error is the first record, not a
    progress line of the program under test."""
    truth = ET.parse(FIXTURES / "valgrind_memcheck.xml").getroot().findall("error")
    assert len(truth) == 3
    result = run(fixture_bytes("valgrind_memcheck.txt"), target=50)
    lines = fixture_bytes("valgrind_memcheck.txt").decode().splitlines()
    first_what = truth[0].findtext("what")
    assert result.first_error is not None
    headline = next(n for n, line in enumerate(lines, 1) if line.endswith(f" {first_what}"))
    assert result.first_error.line == headline
    for error in truth:
        frames = error.find("stack").findall("frame")  # type: ignore[union-attr]
        own = next(f for f in frames if f.findtext("file"))
        assert f"== {error.findtext('what')}" in result.text
        assert _frame(frames[0]) in result.text
        assert _frame(own) in result.text
    # The continuation under a headline (where the bad address lives) stays with the block.
    assert "is 0 bytes after a block of size 5 alloc'd" in result.text
