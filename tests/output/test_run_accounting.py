"""The header's accounting of real test runs: every failing test named (subtests too), the runner's
counts, and the first failure's own error line, never a progress row, a log line of the next test
or a stack line. Truth comes from the runners' machine side (fixtures/real_runs_truth.json)."""

from __future__ import annotations

import json

import pytest

from summarizer.output.runners import run_counts
from tests.output.conftest import FIXTURES, Run, fixture_bytes

TRUTH = json.loads((FIXTURES / "real_runs_truth.json").read_text())


def _line(text: str, start: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(start))


@pytest.mark.parametrize(
    "fixture",
    [
        "real_pytest9_subtests_v.txt",
        "real_pytest9_subtests_q.txt",
        "real_go_test_v_logs.txt",
        "real_unittest_v_docstrings.txt",
        "real_tape_assertions.txt",
        "real_ctest_output_on_failure.txt",
    ],
)
def test_counts_names_and_first_failure_are_the_runners(run: Run, fixture: str) -> None:
    """pytest 9 subtests, go -v, unittest -v with docstrings, tape, ctest: counts, every name, first error."""
    truth = TRUTH[fixture]
    result = run(fixture_bytes(fixture), target=300, exit_code=1)
    assert (result.failed_tests, result.passed_tests) == (truth["failed"], truth["passed"])
    assert f"failing tests ({truth['failed']}" in result.text
    assert f"passing tests: {truth['passed']}" in result.text
    # Each failing test (a subtest with its message and parameters) is named in the header's list.
    listed = [name.replace("::", ".") for name in result.failing_tests]
    for name in truth["failing"]:
        assert any(name in n for n in listed), name
    assert result.first_error is not None
    assert truth["first_failure"] in result.first_error.text
    assert truth["first_failure"] in _line(result.text, "first error")


def test_pytest9_subtest_progress_row_leads_to_its_own_section(run: Run) -> None:
    """``id SUBFAILED[window] (size=4)`` is the first row to fail: the E line of the section headed
    ``test_windows [window] (size=4)`` is the first error, not the parent's "contains 3 failed subtests"."""
    result = run(fixture_bytes("real_pytest9_subtests_v.txt"), target=300, exit_code=1)
    assert "in test_windows [window] (size=4): E " in _line(result.text, "first error")


def test_go_verbose_names_the_test_whose_log_precedes_its_verdict(run: Run) -> None:
    """go test -v prints a test's log lines, then its ``--- FAIL``: the first error is TestJoin's own log
    line (not a passing test's ``t.Logf``, not TestClip's lines under TestJoin's verdict), named TestJoin."""
    result = run(fixture_bytes("real_go_test_v_logs.txt"), target=300, exit_code=1)
    first = _line(result.text, "first error")
    assert first.startswith("first error (line 67) in TestJoin:")
    assert "=== RUN" not in first


def test_unittest_docstring_rows_are_progress_and_descriptions(run: Run) -> None:
    """A docstring's ``... FAIL`` row only says a test failed, and the docstring printed again under
    ``FAIL:`` describes it: neither is the failure, even when it says "error"."""
    result = run(fixture_bytes("real_unittest_v_docstrings.txt"), target=300, exit_code=1)
    assert result.first_error is not None
    assert result.first_error.text == "AssertionError: 10001 != 10000"
    assert "in test_cents_0100 (" in _line(result.text, "first error")


def test_tap_rows_without_a_dash_are_counted_and_passes_are_not_failures(run: Run) -> None:
    """tape writes ``ok 14 Should throw RangeError`` (no dash): a pass, whatever its name says; the
    ``not ok`` row, not its stack's ``Error: <name>`` line, is the first error."""
    result = run(fixture_bytes("real_tape_assertions.txt"), target=300, exit_code=1)
    assert result.first_error is not None
    assert result.first_error.text == "not ok 29 depth of a.b.c.d.e is 5"
    assert not any("Should throw" in c.text or "Should not throw" in c.text for c in result.coordinates)
    assert "from TAP's summary" in result.text


def test_tap_rows_are_counted_without_the_closing_comments() -> None:
    """A TAP stream cut before ``# tests``/``# fail`` (or prove's) still counts its ``not ok`` rows."""
    counts = run_counts(["not ok 3 defaults to a depth of 5", "not ok 9 - keeps order", "ok 4 fine"])
    assert counts is not None
    assert (counts.failed, counts.passed, counts.runner) == (2, None, "TAP")


def test_ctest_durations_and_list_headings_are_no_verdicts(run: Run) -> None:
    """ctest's ``***Failed    0.01 sec`` row heads its test's output (the number is a duration, not
    a tally), and ``The following tests FAILED:`` only heads a list: the test's output is the first error."""
    result = run(fixture_bytes("real_ctest_output_on_failure.txt"), target=200, exit_code=8)
    assert _line(result.text, "first error").startswith("first error (line 10) in unit_4: check.c:7:")


def test_setup_steps_that_say_ok_are_not_passing_tests(run: Run) -> None:
    """initdb's ``creating subdirectories ... ok`` is a step done, not a test: nothing is counted and
    the output is not collapsed as an all-pass test run."""
    result = run(fixture_bytes("real_initdb_steps.txt"), target=100)
    assert result.passed_tests == 0
    assert "passing tests" not in result.text
    assert "all tests passed" not in result.text


def test_warning_count_is_the_compilers(run: Run) -> None:
    """``In file included from x.c:1:`` trails are folded with the warnings but are none of them: the
    header's count is gcc's own (its JSON diagnostics)."""
    truth = TRUTH["real_gcc_include_warnings.txt"]["diagnostics"]
    warned = truth.get("warning", 0) + truth.get("note", 0)
    result = run(fixture_bytes("real_gcc_include_warnings.txt"), target=200, exit_code=1)
    assert f"warnings/notes: {warned} in " in result.text
    assert f"{warned} warnings/notes in " in result.text or f"warnings/notes: {warned}" in result.text


def test_a_warning_heading_its_location_is_printed_once(run: Run) -> None:
    """cargo's ``warning: unexpected cfg condition value`` heads its ``-->`` location: one row, not two."""
    result = run(fixture_bytes("real_cargo_test_cfg_warning.txt"), target=150, exit_code=101)
    rows = [line for line in result.text.splitlines() if "unexpected `cfg` condition value" in line]
    assert len(rows) == 1
