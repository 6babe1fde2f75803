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


def test_an_announced_message_after_an_error_stays_with_it(run: Run) -> None:
    """pip's resolver error: the paragraph after it that says what conflicts ("The conflict is
    caused by:" and its indented lines) is the error's message, kept whatever the budget."""
    planted = ["requests==2.31.0", "urllib3==2.2.0", "botocore==1.31.0"]
    result = run(fixture_bytes("pip_resolver_conflict.txt"), target=150)
    assert result.first_error is not None and result.first_error.text.startswith("ERROR: Cannot install")
    lines = [line for line in result.text.splitlines() if "depends on" in line or "requested" in line]
    for pin in planted:
        name, version = pin.split("==")
        assert any(f"{name} {version} depends on" in line or pin in line for line in lines), pin
    assert any(line.endswith("The conflict is caused by:") for line in result.text.splitlines())


def test_a_diff_keeps_every_file_and_hunk_header_and_invents_no_error(run: Run) -> None:
    """A diff is content: every file header and every hunk header (the same text in two files
    too) is kept; an error word in an added line is no failure."""
    names = fixture_bytes("git_diff_errors.names").decode().split()
    result = run(fixture_bytes("git_diff_errors.txt"), target=60)
    assert result.first_error is None
    assert not result.coordinates
    for name in names:
        assert f"diff --git a/{name} b/{name}" in result.text
    hunks = [line for line in result.text.splitlines() if ": @@ -" in line]
    assert len(hunks) == 2 * len(names)  # two edits planted far apart in each file
    assert sum("@@ -1,5 +1,5 @@" in line for line in hunks) == 2


def test_plain_access_lines_fail_by_status_and_a_quoted_source_line_is_no_error(run: Run) -> None:
    """`GET /users/97 504`: a plain-text access line fails by its status field, like a combined or
    JSON one. Node quotes the throwing source line with a caret under it before the error: that
    line is source text, never a failure of its own."""
    planted = (97, 194)
    data = fixture_bytes("node_access_crash.txt")
    lines = data.decode().splitlines()
    result = run(data, target=200)
    for user in planted:
        assert any(line.endswith(f"GET /users/{user} 504") for line in result.text.splitlines())
    first = next(n for n, line in enumerate(lines, 1) if line.endswith(f"/users/{planted[0]} 504"))
    assert result.first_error is not None and result.first_error.line == first
    quoted = next(n for n, line in enumerate(lines, 1) if line.startswith("function lastProfile"))
    assert lines[quoted].strip() == "^"
    assert all(c.kind not in ("error", "exception") for c in result.coordinates if c.line == quoted)
    assert any(c.text.startswith("TypeError: no profile") and c.kind == "error" for c in result.coordinates)
