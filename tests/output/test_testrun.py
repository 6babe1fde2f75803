"""A pytest run's failures, tight: ids, file:line, the E lines and the assertion; the source folded."""

from __future__ import annotations

import io
import re
from pathlib import Path

from summarizer.output import OriginalStore, OutputOptions, compress
from summarizer.output.grouping import expand
from tests.output.conftest import fixture_bytes

RAW = fixture_bytes("real_pytest_plain_ids.txt").decode()


def _render(tmp_path: Path, text: str) -> str:
    return compress(io.BytesIO(text.encode()), OriginalStore(tmp_path / "o"), OutputOptions()).text


def test_every_failure_keeps_its_id_location_e_lines_and_assertion(tmp_path: Path) -> None:
    """What the agent needs of each failure survives: ids (pytest's own summary is the truth),
    every distinct E line, every file:line location, every `>` line."""
    text = expand(_render(tmp_path, RAW))
    ids = [m.group(1) for m in re.finditer(r"^(?:FAILED|ERROR) (.+?)(?= - |$)", RAW, re.M)]
    assert len(ids) == 8 and all(i in text for i in ids)
    for line in RAW.splitlines():
        if line.startswith(("E   ", ">   ")) or re.match(r"^[\w/]+\.py:\d+: \w", line):
            assert line.strip() in text, line


def test_the_test_source_and_the_short_summary_are_folded(tmp_path: Path) -> None:
    """The four-space source pytest prints, fixture values and the FAILED rows are not shown; the
    footer says so; a source line saying `log.warning` or `assert` is never a failure row."""
    text = _render(tmp_path, RAW)
    body = [row for row in text.splitlines() if re.match(r"^\d+[:|~] ", row)]
    assert not [row for row in body if re.match(r"^\d+[:|~]  {4}", row)]
    assert not [row for row in body if re.match(r"^\d+: FAILED ", row)]
    assert "lines of test source" in text and "8 short-summary rows (ids in the header)" in text
    assert "___ test_rounding ___" in text and "_____ test_rounding" not in text


def test_the_first_error_is_an_e_line_not_the_tests_source(tmp_path: Path) -> None:
    """A test's own `assert not result.exception` above the failing line is source, not the error."""
    block = (
        "F.\n=================================== FAILURES ===================================\n"
        "_________________________________ test_help __________________________________\n\n"
        "runner = <click.testing.CliRunner object at 0x7fd573705f50>\n\n"
        "    def test_help(runner):\n"
        "        result = runner.invoke(cli, ['--help'])\n"
        "        assert not result.exception\n"
        ">       assert 'Usage: cli' in result.output\n"
        "E       AssertionError: assert 'Usage: cli' in 'Usage:  cli'\n\n"
        "tests/test_help.py:9: AssertionError\n"
        "=========================== short test summary info ============================\n"
        "FAILED tests/test_help.py::test_help - AssertionError: assert 'Usage: cli' in...\n"
        "1 failed, 1 passed in 0.12s\n"
    )
    store = OriginalStore(tmp_path / "o")
    result = compress(io.BytesIO(block.encode()), store, OutputOptions(target_tokens=60, floor_tokens=0))
    assert result.first_error is not None and result.first_error.text.startswith("E       AssertionError")
    assert "assert not result.exception" not in result.text
    assert "tests/test_help.py::test_help" in result.text and "tests/test_help.py:9" in result.text
