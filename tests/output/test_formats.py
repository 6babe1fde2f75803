"""Each format family: the coordinates that matter survive a forced compression."""

from __future__ import annotations

import pytest

from tests.output.conftest import Run, fixture_bytes


@pytest.mark.parametrize(
    ("name", "needles"),
    [
        (
            "pytest_fail.txt",
            [
                "test_demo.py::test_key_error",
                "KeyError: 'b'",
                "test_demo.py::test_compare",
                "test_demo.py:6: KeyError",
                "2 failed, 40 passed",
            ],
        ),
        ("unittest_fail.txt", ["FAIL: test_b", "AssertionError: 2 != 3", "FAILED (failures=1)"]),
        (
            "python_traceback.txt",
            ['tb.py", line 4, in <module>', 'tb.py", line 3, in load', "json.decoder.JSONDecodeError"],
        ),
        (
            "rustc_errors.txt",
            [
                "error[E0425]: cannot find value `undefined_name`",
                "--> bad.rs:3:13",
                "error[E0308]: mismatched types",
                "--> bad.rs:2:18",
            ],
        ),
        ("gcc_make.txt", ["bad.c:2:", "error:", "make: ***"]),
        (
            "javac_errors.txt",
            ["Bad.java:1: error: incompatible types", "Bad.java:1: error: cannot find symbol"],
        ),
        ("java_trace.txt", ["java.lang.IllegalStateException: boom at depth", "at Boom.main(Boom.java:1)"]),
        ("node_tap_fail.txt", ["not ok 21 - totals match", "41 !== 42", "a.test.mjs:4:35", "# fail 1"]),
        ("node_error.txt", ["TypeError: Cannot read properties of null (reading 'x')", "err.js:1:20"]),
        ("node_spec_fail.txt", ["✖ totals match", "41 !== 42", "a.test.mjs:4:35", "ℹ fail 1"]),
    ],
)
def test_real_tool_output_keeps_its_failure_coordinates(run: Run, name: str, needles: list[str]) -> None:
    """Compressed far below its size, the real tool's failure lines, locations and counts remain."""
    result = run(fixture_bytes(name))
    assert not result.passthrough
    for needle in needles:
        assert needle in result.text, needle


def test_passing_tests_are_counted_not_listed(run: Run) -> None:
    """pytest -v PASSED lines become a count; no test name is listed."""
    result = run(fixture_bytes("pytest_verbose_pass.txt"))
    assert result.passed_tests == 40
    assert "40 passed" in result.text
    assert result.text.count("PASSED") <= 2  # at most a sample or pattern line, not 40


def test_announced_tests_are_not_counted_as_passes(run: Run) -> None:
    """node:test announces every test ("# Subtest:") before "ok": only the 20 passes count."""
    result = run(fixture_bytes("node_tap_fail.txt"))
    assert result.passed_tests == 20
    assert result.failing_tests == ("totals match",)


def test_failing_test_names_go_into_the_header(run: Run) -> None:
    """The header names every failing test."""
    result = run(fixture_bytes("pytest_fail.txt"))
    assert "test_demo.py::test_key_error" in result.failing_tests
    assert "test_demo.py::test_compare" in result.failing_tests
    header = result.text.split("--- kept lines", 1)[0]
    assert "failing tests (2" in header


def test_third_party_frames_beyond_head_and_tail_are_counted(run: Run) -> None:
    """node:internal frames in the middle of a JS trace become one counted marker."""
    result = run(fixture_bytes("node_error.txt"))
    assert "[... 2 frames in 3rd-party code omitted ...]" in result.text
    assert "at f (/tmp/dwork/fx/err.js:1:20)" in result.text  # first frame (project)
    assert "node:internal/main/run_main_module:28:49" in result.text  # last frame
    assert "Module.load (node:internal" not in result.text


def test_project_frames_in_the_middle_are_kept(run: Run) -> None:
    """A long trace keeps every frame of the project's own code."""
    frames = [f'  File "/usr/lib/python3.11/json/mod{i}.py", line {i}, in lib{i}' for i in range(20)]
    frames.insert(10, '  File "/home/dev/app/service.py", line 77, in handle')
    text = "Traceback (most recent call last):\n" + "\n".join(frames) + "\nValueError: bad thing\n"
    result = run(text.encode())
    assert 'service.py", line 77, in handle' in result.text
    assert "frames in 3rd-party code omitted" in result.text
    assert "ValueError: bad thing" in result.text
    assert result.omitted_frames == 20 - 6


GO_TEST = """=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestDivide
    calc_test.go:21: Divide(1, 0) = 0; want error
--- FAIL: TestDivide (0.00s)
FAIL
FAIL	example.com/calc	0.003s
"""

JEST = """ FAIL  src/sum.test.js
  ● sum › adds negative numbers

    expect(received).toBe(expected) // Object.is equality

    Expected: -3
    Received: 3

      at Object.toBe (src/sum.test.js:9:24)

Tests:       1 failed, 4 passed, 5 total
"""

ESLINT = """
/home/dev/app/src/index.js
  3:7   error    'unused' is assigned a value but never used  no-unused-vars
  9:1   warning  Unexpected console statement                 no-console

✖ 2 problems (1 error, 1 warning)
"""

MOCHA = """  Array
    #indexOf()
      ✓ should return -1 when the value is not present
      1) should return the index when present


  1 passing (6ms)
  1 failing

  1) Array
       #indexOf()
         should return the index when present:

      AssertionError [ERR_ASSERTION]: -1 == 1
      + expected - actual

      -1
      +1

      at Context.<anonymous> (test/array.spec.js:9:14)
"""

TSC = "src/app.ts(4,7): error TS2322: Type 'string' is not assignable to type 'number'.\n"

DOCKER = """web-1  | listening on :8080
worker-1  | processing job 17
worker-1 exited with code 137
db-1  | FATAL:  terminating connection due to administrator command
"""


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        (
            GO_TEST,
            [
                "calc_test.go:21: Divide(1, 0) = 0; want error",
                "--- FAIL: TestDivide",
                "FAIL\texample.com/calc",
            ],
        ),
        (
            JEST,
            [
                "● sum › adds negative numbers",
                "Expected: -3",
                "Received: 3",
                "src/sum.test.js:9:24",
                "Tests:       1 failed",
            ],
        ),
        (ESLINT, ["/home/dev/app/src/index.js", "3:7   error", "✖ 2 problems"]),
        (TSC, ["src/app.ts(4,7): error TS2322"]),
        (
            MOCHA,
            [
                "1) should return the index when present",
                "1 failing",
                "AssertionError [ERR_ASSERTION]: -1 == 1",
                "test/array.spec.js:9:14",
            ],
        ),
        (DOCKER, ["worker-1 exited with code 137", "FATAL:  terminating connection"]),
    ],
)
def test_documented_formats_keep_their_coordinates(run: Run, text: str, needles: list[str]) -> None:
    """go test, jest, eslint, tsc and docker compose transcripts keep their coordinates."""
    # Pad with ordinary lines so the transcript is a small part of a large output.
    filler = "".join(f"step {i}: building module number {i} of the project\n" for i in range(400))
    result = run((filler + text + filler).encode())
    for needle in needles:
        assert needle in result.text, needle
    assert result.reduction > 0.5


def test_classification_recognises_the_families(run: Run) -> None:
    """Build output, test traces and log dumps get their classification."""
    assert run(fixture_bytes("rustc_errors.txt")).classification == "BUILD_OUTPUT"
    assert run(fixture_bytes("node_tap_fail.txt")).classification == "TEST_TRACE"
    log = "".join(
        f"2024-05-01 10:00:{i % 60:02d},123 INFO [main] svc.Worker: handled request {i}\n" for i in range(300)
    )
    assert run(log.encode()).classification == "LOG_DUMP"
