"""The header an agent reads first: runner counts, whole test ids, a real first error."""

from __future__ import annotations

import pytest

from summarizer.output.runners import run_counts
from tests.output.conftest import Run, fixture_bytes


@pytest.mark.parametrize(
    ("fixture", "failed", "passed"),
    [
        ("real_pytest_rA_logs.txt", 8, 101),
        ("real_pytest_plain_ids.txt", 8, 101),
        ("real_unittest_verbose_fail.txt", 4, 40),
        ("real_jest_verbose_fail.txt", 2, 32),
        ("real_mocha_spec_fail.txt", 2, 25),
        ("real_node_test_spec_fail.txt", 2, 30),
        ("real_pytest_all_pass_600.txt", 0, 600),
    ],
)
def test_counts_are_the_runners_own(run: Run, fixture: str, failed: int, passed: int) -> None:
    """pytest -rA prints each test twice and node repeats failures: the summary line decides."""
    result = run(fixture_bytes(fixture), target=300)
    assert (result.failed_tests, result.passed_tests) == (failed, passed)
    if failed:
        assert f"failing tests ({failed}, from" in result.text
    assert f"passing tests: {passed}" in result.text


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        (
            ["test result: FAILED. 3 passed; 2 failed; 0 ignored", "test result: ok. 4 passed; 0 failed;"],
            (2, 7),
        ),
        (["--- FAIL: TestParse (0.00s)", "--- PASS: TestA (0.00s)", "--- PASS: TestB (0.00s)"], (1, 2)),
        (["# tests 21", "# pass 20", "# fail 1"], (1, 20)),
        ([" Tests  2 failed | 8 passed (10)"], (2, 8)),
        (["Ran 5 tests in 0.01s", "OK"], (0, 5)),
    ],
)
def test_runner_summaries_of_cargo_go_tap_vitest_unittest(
    lines: list[str], expected: tuple[int, int]
) -> None:
    """Each runner's summary shape gives (failed, passed)."""
    counts = run_counts(lines)
    assert counts is not None
    assert (counts.failed, counts.passed) == expected


def test_test_ids_are_whole_and_listed_once(run: Run) -> None:
    """Ids with spaces and brackets survive whole; the section header does not add a second entry."""
    result = run(fixture_bytes("real_pytest_plain_ids.txt"), target=300)
    assert "tests/test_pricing.py::test_parse_price[1 000]" in result.failing_tests
    assert "tests/test_pricing.py::test_parse_price[1.000,00]" in result.failing_tests
    assert len(result.failing_tests) == 8


def test_headings_and_build_steps_are_not_tests(run: Run) -> None:
    """node's ``failing tests:`` heading and pip's build step are not failing tests."""
    spec = run(fixture_bytes("real_node_test_spec_fail.txt"), target=300)
    assert set(spec.failing_tests) == {"TENOFF floors at zero", "HALF of odd totals rounds"}
    pip = "\n".join(
        [
            *(f"  Collecting dep{i}" for i in range(80)),
            "  Building wheel for badext (pyproject.toml): started",
            "  Building wheel for badext (pyproject.toml): finished with status 'error'",
            "  ERROR: Failed building wheel for badext",
            "Failed to build badext",
        ]
    )
    result = run(pip.encode(), target=200)
    assert result.failing_tests == ()
    assert result.first_error is not None
    assert "Failed building wheel for badext" in result.first_error.text


@pytest.mark.parametrize(
    ("noise", "error"),
    [
        (
            [
                "/usr/lib/python3/dist-packages/cffi/error.py",
                "/usr/share/doc/error-codes/errors.txt",
                "/usr/share/man/man3/Net::DBus::Error.3pm.gz",
            ],
            "ls: cannot access '/srv/app': No such file or directory",
        ),
        (
            [
                "Starting new HTTPS connection (1): index.example.org:443",
                "https://index.example.org:443 GET 200",
            ],
            "ERROR: No matching distribution found for leftpadx",
        ),
        (["In file included from src/main.c:3:"], "src/types.h:4:1: error: unknown type name 'u8'"),
        (
            [
                "Traceback (most recent call last):",
                '  File "/usr/lib/python3.11/json/decoder.py", line 337, in decode',
                "    obj, end = self.raw_decode(s, idx=_w(s, 0).end())",
            ],
            "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
        ),
    ],
)
def test_first_error_is_an_error_line(run: Run, noise: list[str], error: str) -> None:
    """Never a path containing 'error', a host:port, an include chain or a library frame."""
    filler = [f"step {i}: copying asset{i}.png" for i in range(60)]
    result = run(("\n".join([*filler, *noise, error, *filler]) + "\n").encode(), target=300)
    assert result.first_error is not None
    assert result.first_error.text == error
