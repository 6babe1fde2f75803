"""Dense diagnostic reports: every row stays under its own file, and the budget still holds.

Fixtures are real tool outputs (tests/output/fixtures/README.md); the truth of each comes from the
tool's JSON mode, never from the text we compress.
"""

from __future__ import annotations

import json
import re

from tests.output.conftest import Run, fixture_bytes


def test_eslint_rows_stay_under_their_own_file_heading(run: Run) -> None:
    """Stylish names each file once, above rows that carry no file: the same row text
    (``  3:1  error  Unexpected var ...``) under two headings is two errors, each shown under its
    own heading, never folded into the other file's ``[×N]``. Truth: ``eslint -f json``."""
    truth = json.loads(fixture_bytes("real_eslint_lib_headings.json"))
    errors = {(path, line, column) for path, line, column, severity, _ in truth if severity == 2}
    result = run(fixture_bytes("real_eslint_lib_headings.txt"), target=3000)
    shown: set[tuple[str, int, int]] = set()
    heading = ""
    for row in result.text.splitlines():
        number, _, text = row.partition(": ")
        if not number.isdigit():
            continue
        if text.startswith("/"):
            heading = text.split()[0]
        elif (cell := re.match(r"\s+(\d+):(\d+)\s+error\s", text)) is not None:
            assert "[×" not in text, row  # one row, one error
            shown.add((heading, int(cell.group(1)), int(cell.group(2))))
    assert shown == errors


def test_eslints_first_error_is_its_first_row(run: Run) -> None:
    """The first row under the first file heading is the first error, not a start-up banner."""
    truth = json.loads(fixture_bytes("real_eslint_lib_headings.json"))
    path, line, column, _, _ = next(row for row in truth if row[3] == 2)
    result = run(fixture_bytes("real_eslint_lib_headings.txt"), target=3000)
    assert result.first_error is not None
    assert re.match(rf"\s+{line}:{column}\s+error\s", result.first_error.text)
    assert result.first_error.line == 3  # the row under the heading of ``path``
    assert f"2: {path}" in result.text.splitlines()
