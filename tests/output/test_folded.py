"""Small reports as their own lines less the source snippets or the test source: the folded form."""

from __future__ import annotations

import io
import re
from pathlib import Path

from summarizer.output import OriginalStore, OutputOptions, compress
from tests.output.conftest import fixture_bytes

ZOO_GCC = Path(__file__).parents[2] / "evals" / "zoo" / "cases" / "gcc_c_errors" / "output.txt"


def _compress(tmp_path: Path, data: bytes, store: OriginalStore | None = None):  # type: ignore[no-untyped-def]
    return compress(io.BytesIO(data), store or OriginalStore(tmp_path / "o"), OutputOptions())


def test_a_linter_report_keeps_every_location_and_message_without_its_snippets(tmp_path: Path) -> None:
    """ruff's full format: the code lines, the arrows, help and summary stay verbatim; the gutter,
    carets and fix diffs go; restore gives them back byte for byte."""
    raw = fixture_bytes("real_ruff_full_small.txt")
    store = OriginalStore(tmp_path / "o")
    result = _compress(tmp_path, raw, store)
    assert not result.passthrough
    text = result.text
    kept = [
        line for line in raw.decode().splitlines() if re.match(r"^\s*-->|^[A-Z]+\d+ |^help:|^Found ", line)
    ]
    assert len(kept) == 7 and all(line in text.splitlines() for line in kept)
    assert not re.search(r"^\s*\d*\s*\|", text, re.M) and "^^^" not in text
    assert text.startswith("[summarizer output · ") and "folded (source snippets)" in text.splitlines()[0]
    assert b"".join(store.iter_bytes(result.restore_id)) == raw
    assert result.compressed_tokens < result.original_tokens * 0.5


def test_a_folded_form_that_saves_less_than_a_quarter_is_not_used(tmp_path: Path) -> None:
    """mypy's pretty report is mostly messages: folding its snippets saves too little to be worth a
    header, so it passes through unchanged."""
    raw = fixture_bytes("real_mypy_pretty_small.txt")
    result = _compress(tmp_path, raw)
    assert result.passthrough and result.text == raw.decode()


def test_a_small_pytest_report_keeps_the_failure_and_folds_the_source(tmp_path: Path) -> None:
    """pytest -x -q with one failure: the test's id, its `>` and E lines, its file:line and the
    summary stay; the test's source and the progress rows go."""
    raw = fixture_bytes("real_pytest_x_q_small.txt").decode()
    text = _compress(tmp_path, raw.encode()).text
    for line in raw.splitlines():
        if line.startswith(("E   ", ">   ", "FAILED ", "tests/test_arguments.py:361")):
            assert line in text.splitlines()
    assert "1 failed, 33 passed" in text and "___ test_subcommand_help ___" in text
    assert "def test_subcommand_help(runner):" not in text and "....." not in text


def test_the_header_names_the_first_error_when_it_is_not_among_the_first_rows(tmp_path: Path) -> None:
    """gcc: the first rows are `In function` and a warning; the header names the first error."""
    result = _compress(tmp_path, ZOO_GCC.read_bytes())
    lines = result.text.splitlines()
    assert lines[0].startswith("[summarizer output · ") and "folded (source snippets)" in lines[0]
    assert lines[1].startswith("first error (line ") and "undeclared_total" in lines[1]
