"""Dense diagnostic reports: every row stays under its own file, and the budget still holds.

Fixtures are real tool outputs (tests/output/fixtures/README.md); the truth of each comes from the
tool's JSON mode, never from the text we compress.
"""

from __future__ import annotations

import json
import re

from summarizer.output.dense import CodeGroup, render_codes
from summarizer.output.grouping import expand
from summarizer.output.kept import estimate_tokens
from summarizer.output.rows import CodedRow
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


def _spans(text: str) -> dict[str, tuple[int, int, int]]:
    """Each folded rule code's (count, first line, last line) from its line in the rendering."""
    found = re.finditer(r"^([A-Z]+\d+) ×([\d,]+) \(lines? (\d+)(?:…(\d+))?\)", text, re.MULTILINE)
    return {m[1]: (int(m[2].replace(",", "")), int(m[3]), int(m[4] or m[3])) for m in found}


def test_rows_without_a_severity_fold_by_rule_code_within_the_target(run: Run) -> None:
    """``ruff check --select ALL`` prints no severity: every row is as much an error as any other.
    Past the target they fold by rule code: every code with its exact count and the output lines
    its rows sit in (each row restorable from there), and the first row whole as the first error.
    Truth: ``ruff check --output-format json``."""
    data = fixture_bytes("real_ruff_select_all.txt")
    truth = json.loads(fixture_bytes("real_ruff_select_all.json"))
    result = run(data, target=400)
    assert result.compressed_tokens <= 400
    spans = _spans(result.text)
    counts: dict[str, int] = {}
    for _, _, _, code, _ in truth:
        counts[code] = counts.get(code, 0) + 1
    assert {code: span[0] for code, span in spans.items()} == counts
    # Every violation's arrow line lies inside its code's span: reachable by `restore --lines`.
    lines = data.decode().split("\n")
    for path, row, column, code, _ in truth:
        arrow = _arrow_line(lines, path, row, column, code)
        first, last = spans[code][1:]
        assert first <= arrow <= last, (code, arrow)
    path, row, column, code, message = truth[0]
    assert result.first_error is not None
    assert result.first_error.text == f"{code} {message} --> {path}:{row}:{column}"
    kept = result.text.split("--- rows without a severity")[0]
    assert f"1: {code} {message}" in kept and f"--> {path}:{row}:{column}" in kept


def _arrow_line(lines: list[str], path: str, row: int, column: int, code: str) -> int:
    """The output line of a violation's ``--> path:row:column`` (under its code's message)."""
    return next(
        n
        for n, line in enumerate(lines, 1)
        if line.strip() == f"--> {path}:{row}:{column}" and lines[n - 2].startswith(f"{code} ")
    )


def test_rows_without_a_severity_stay_whole_when_they_fit(run: Run) -> None:
    """Within the target, nothing folds: every row is listed, its location right under its own
    message (a message printed before is printed again, never left to the row above)."""
    data = fixture_bytes("real_ruff_select_all.txt")
    truth = json.loads(fixture_bytes("real_ruff_select_all.json"))
    result = run(data, target=3000)
    assert "rows without a severity" not in result.text
    shown = dict(row.split(": ", 1) for row in result.text.splitlines() if re.match(r"\d+: ", row))
    lines = data.decode().split("\n")
    for path, row, column, code, message in truth:
        arrow = _arrow_line(lines, path, row, column, code)
        assert shown[str(arrow)].strip() == f"--> {path}:{row}:{column}"
        above = shown[str(arrow - 1)]
        assert above.startswith(f"{code} ") and message in above, (code, arrow)


def test_errors_stay_whole_and_their_notes_fold_when_the_errors_alone_overflow(run: Run) -> None:
    """``mypy --strict`` on a test suite: 237 errors (more than the target by themselves) with 80
    note lines under them. Every error keeps its location and message; the notes, the rest of the
    errors' blocks, are grouped like warnings. Truth: ``mypy -O json`` (notes are its hints)."""
    truth = json.loads(fixture_bytes("real_mypy_strict_notes.json"))
    result = run(fixture_bytes("real_mypy_strict_notes.txt"), target=3000)
    shown = expand(result.text)
    for path, line, severity, message, _, _ in truth:
        assert severity == "error"
        assert f"{path}:{line}: error: {message}" in shown
    notes = sum(hint.count("\n") + 1 for *_, hint in truth if hint)
    assert not [row for row in shown.splitlines() if ": note: " in row]
    assert f"warnings/notes: {notes} in " in result.text
    assert result.compressed_tokens * 2 < result.original_tokens  # was 68% of it with the notes listed


def test_one_line_coded_rows_are_diagnostics_that_fold_by_code(run: Run) -> None:
    """``--output-format concise`` puts the code right after the location (``a.py:3:1: E501 ...``):
    a linter's row, not a grep hit. Past the target it folds by code like the full format, and the
    first row is the first error. Truth: ``ruff check --output-format json`` of the same files."""
    truth = json.loads(fixture_bytes("real_ruff_select_all.json"))
    result = run(fixture_bytes("real_ruff_select_all_concise.txt"), target=400)
    assert "· diagnostics ·" in result.text.splitlines()[0]
    assert result.compressed_tokens <= 400
    counts: dict[str, int] = {}
    for _, _, _, code, _ in truth:
        counts[code] = counts.get(code, 0) + 1
    assert {code: span[0] for code, span in _spans(result.text).items()} == counts
    path, row, column, code, message = truth[0]
    assert result.first_error is not None
    assert result.first_error.text == f"{path}:{row}:{column}: {code} {message}"


def test_code_lines_spend_the_budget_on_messages_then_on_the_smallest_codes_locations() -> None:
    """Counts and spans always; then messages in order of first appearance; then every location of
    the codes with the fewest rows first (the most codes complete), else their count per file."""
    big = CodeGroup(
        "Q000",
        [CodedRow("Q000", "Q000 Single quotes", "a.py", f"{n}:1", (n, n + 1)) for n in range(2, 90, 2)],
    )
    small = CodeGroup("F401", [CodedRow("F401", "F401 `os` imported but unused", "b.py", "3:8", (1, 2))])
    groups = [big, small]
    tight = render_codes(groups, 0, estimate_tokens)
    assert tight == ["Q000 ×44 (lines 2…89)", "F401 ×1 (lines 1…2)"]
    roomy = render_codes(groups, 60, estimate_tokens)
    assert roomy[0].startswith("Q000 ×44 (lines 2…89): Single quotes")
    assert roomy[1] == "F401 ×1 (lines 1…2): `os` imported but unused — b.py 3:8"
    assert "a.py 2:1 4:1" in render_codes(groups, 10**6, estimate_tokens)[0]


def test_rows_under_a_file_heading_name_their_file_once(run: Run) -> None:
    """pyright prints each ``/abs/file.py`` heading, then rows indented under it that repeat the
    path. The path is printed once, on the ``@ file`` line that replaces the heading; each error
    row's text after the path stays verbatim and expands back to the whole row. Truth:
    ``pyright --outputjson``."""
    truth = json.loads(fixture_bytes("real_pyright_headings.json"))
    result = run(fixture_bytes("real_pyright_headings.txt"), target=50)
    body = result.text.split("\n", 3)[3]
    for file in {row[0] for row in truth}:
        assert [line for line in body.splitlines() if file in line] == [f"@ {file}"]
    shown = set(re.findall(r"^\d+: (/\S+?):(\d+):(\d+) - error: ", expand(result.text), re.MULTILINE))
    errors = {(path, str(line), str(col)) for path, line, col, severity in truth if severity == "error"}
    assert shown == errors
    assert '…:13:11 - error: "undefined_name" is not defined (reportUndefinedVariable)' in body


def test_a_records_own_severity_line_decides_its_class(run: Run) -> None:
    """bandit prints each issue as a record: ``>> Issue: [B101:assert_used] ...``, then
    ``Severity: Low``, then ``Location: file:line:col`` and a numbered snippet. Low records are
    grouped by (file, code) with their counts and lines; Medium and High ones stay listed and the
    first of them is the first error; snippet lines (``12<TAB>assert cmd``) are never failure rows.
    Truth: ``bandit -f json``."""
    truth = json.loads(fixture_bytes("real_bandit_severity.json"))
    result = run(fixture_bytes("real_bandit_severity.txt"), target=1500)
    body, _, warnings = result.text.partition("--- warnings and notes by (file, code)")
    failing = [(path, line, col) for path, line, col, _, severity in truth if severity != "LOW"]
    listed = re.findall(r"^\d+:\s+Location: (\S+):(\d+):(\d+)$", body, re.MULTILINE)
    assert listed == [(path, str(line), str(col)) for path, line, col in failing]
    assert result.first_error is not None
    assert result.first_error.text.strip() == "Location: {}:{}:{}".format(*failing[0])
    groups = {
        (m[1], m[2]): [int(n) for n in m[4].split(", ")]
        for m in re.finditer(r"^(\S+) \[([^\]]+)\] ×(\d+): ([\d, ]+) \(", warnings, re.MULTILINE)
    }
    assert sorted(n for lines in groups.values() for n in lines) == sorted(
        line for _, line, _, _, severity in truth if severity == "LOW"
    )
    codes = {(path, line, code) for path, line, _, code, _ in truth}
    for (path, code), lines in groups.items():
        assert code == "severity low" or all((path, n, code) in codes for n in lines)
    assert groups[("tests/test_a.py", "B101")] == list(range(5, 20))
    assert not re.search(r"^\d+: (?:\[×\d+ like this[^\]]*\] )?\d+\t", body, re.MULTILINE)
