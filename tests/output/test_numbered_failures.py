"""Numbered failure sections (JUnit 4, PHPUnit, minitest): every failure's whole block is kept,
its name is in the header, the runner's tally counts the run, and the first error is the first
failure under the runner's announcement. Truth comes from each runner's machine-readable report."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from summarizer.output.grouping import expand
from tests.output.conftest import FIXTURES, Run, fixture_bytes


def _first(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("first error"))


def test_junit4_keeps_every_failure_heading_message_and_the_tally(run: Run) -> None:
    """JUnitCore prints ``1) test(Class)`` and the exception unindented under it: the heading opens
    a block that runs to the next heading, so the exception line (an ``AssertionError`` or a
    ``ComparisonFailure``, whose name holds no error word on a boundary) stays."""
    truth = (FIXTURES / "real_junit4_failures.truth").read_text().splitlines()
    run_count, failures = int(truth[0].split()[1]), [row.split("\t") for row in truth[1:]]
    result = run(fixture_bytes("real_junit4_failures.txt"), target=60)
    text = expand(result.text)
    for header, exception, message in failures:
        assert header in _failing_line(text)
        assert f"{exception}: {message}" in text
    assert (result.failed_tests, result.passed_tests) == (len(failures), run_count - len(failures))
    assert "Tests run: 10,  Failures: 3" in text


def test_junit4_first_error_is_the_first_failure_not_a_passing_tests_stderr(run: Run) -> None:
    """A passing test printed "Exception found ..." before the run's failures: the runner's
    ``There were 3 failures:`` says where the failures are."""
    result = run(fixture_bytes("real_junit4_failures.txt"), target=60)
    assert "Exception found" not in _first(result.text)
    assert "parseComma(CalcTest)" in _first(result.text)
    assert "cannot convert 3,5" in _first(result.text)


def test_phpunit_debug_keeps_every_failure_and_its_expected_actual_diff(run: Run) -> None:
    """PHPUnit's ``--- Expected`` / ``+++ Actual`` diff is the failure's message: every ``-``/``+``
    line of every failure (the JUnit XML's failure bodies) stays, with each failing test's name."""
    suite = ET.parse(FIXTURES / "real_phpunit_debug_failures.xml").getroot()
    failed = [case for case in suite.iter("testcase") if len(case)]
    result = run(fixture_bytes("real_phpunit_debug_failures.txt"), target=60)
    text = expand(result.text)
    for case in failed:
        assert f"{case.get('class')}::{case.get('name')}" in _failing_line(text)
        body = case[0].text or ""
        for line in body.splitlines()[1:]:
            if line.strip():
                assert line in text, line
    total = int(suite[0].get("tests") or 0)
    assert (result.failed_tests, result.passed_tests) == (len(failed), total - len(failed))
    # The --debug progress rows name tests; the first error is the first failure's message.
    assert "InvalidArgumentException: Cannot register two routes" in _first(result.text)


def test_minitest_keeps_each_diff_and_names_the_tests(run: Run) -> None:
    """minitest's ``1) Failure:`` names no test: the line under it does, and the unified diff under
    that is the failure's message (every line of the reporter's message stays)."""
    truth = json.loads((FIXTURES / "real_minitest_diff_failures.json").read_text())
    result = run(fixture_bytes("real_minitest_diff_failures.txt"), target=60)
    text = expand(result.text)
    names = _failing_line(text)
    for failure in truth["failures"]:
        assert failure["name"] in names
        for line in failure["message"].splitlines():
            if line.strip() and not line.startswith("    "):  # an error's backtrace: frames
                assert line in text, line
    failed = len(truth["failures"])
    assert (result.failed_tests, result.passed_tests) == (failed, truth["runs"] - failed)
    assert "Failure" not in names.split(":", 1)[1].split(" · ")


def test_a_numbered_line_with_no_announcement_is_no_failing_test(run: Run) -> None:
    """A numbered list at the line start (a shell ``case`` branch, a plan) is not a test report:
    without the runner's ``There were N failures:`` it names no failing test."""
    steps = [f"step {i}: copying assets/file{i}.css" for i in range(40)]
    lines = [*steps, "1) rebuild the index", "2) rerun"]
    result = run("\n".join(lines).encode(), target=40)
    assert not re.search(r"^failing tests", result.text, re.M)


def _failing_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("failing tests"))


def test_a_suite_title_with_an_error_word_is_no_failure(run: Run) -> None:
    """node's ``▶ Command.error()`` and mocha's ``describe('error')`` are headings whose tests (the
    rows under them) pass: never a kept failure row, never the first error; the failing test is."""
    suite = ET.parse(FIXTURES / "real_node_spec_suites.xml").getroot()
    failed = [case.get("name") for case in suite.iter("testcase") if case.find("failure") is not None]
    result = run(fixture_bytes("real_node_spec_suites.txt"), target=60)
    assert failed == ["reads decimals"]
    assert "✖ reads decimals" in _first(result.text)
    assert not re.search(
        r"^\d+: .*(?:Command\.error\(\)|error handling|when an error occurs)", result.text, re.M
    )

    report = json.loads((FIXTURES / "real_mocha_spec_suites.json").read_text())
    result = run(fixture_bytes("real_mocha_spec_suites.txt"), target=60)
    assert [f["title"] for f in report["failures"]] == ["should read decimals"]
    assert "AssertionError" in _first(result.text)
    assert not re.search(r"^\d+: +error$", result.text, re.M)
    for line in ("-4.5", "+4"):  # the failure's expected/actual diff
        assert re.search(rf"^\d+[:|] +{re.escape(line)}$", result.text, re.M)


def test_a_linters_quoted_source_is_no_failing_test_and_its_level_decides(run: Run) -> None:
    """shellcheck quotes the source under ``In a.sh line N:`` (and under ``Did you mean:``): a shell
    ``case`` branch ``1) COLOR=...;;`` there is code, not a numbered failure; a ``(info)`` note whose
    message says "exits with error" is no error. The first error is the one ``-f json`` calls error."""
    report = json.loads((FIXTURES / "real_shellcheck_case_branches.json").read_text())
    first = next(c for c in report if c["level"] == "error")
    result = run(fixture_bytes("real_shellcheck_case_branches.txt"), target=80)
    assert not re.search(r"^failing tests", result.text, re.M)
    assert f"SC{first['code']} (error)" in _first(result.text)
    assert not re.search(r"^\d+: +\d\) COLOR=", result.text, re.M)
    text = expand(result.text)
    for item in report:
        if item["level"] in ("error", "warning"):
            assert f"SC{item['code']} ({item['level']}): {item['message']}" in text


def test_vitest_names_each_failure_once_from_its_own_summary(run: Run) -> None:
    """vitest prints a failure as a ``× suite > test`` row and again as ``FAIL  file > suite > test``:
    one test, named once (with its file); the counts are vitest's, and said to be."""
    truth = json.loads((FIXTURES / "real_vitest_default_fail.json").read_text())
    result = run(fixture_bytes("real_vitest_default_fail.txt"), target=60)
    line = _failing_line(result.text)
    assert line.startswith(f"failing tests ({truth['numFailedTests']}, from vitest's summary)")
    names = line.split("): ", 1)[1].split(" · ")
    assert len(names) == len(truth["failed"])
    assert all(any(name.endswith(failed) for name in names) for failed in truth["failed"])
    assert (result.failed_tests, result.passed_tests) == (truth["numFailedTests"], truth["numPassedTests"])
