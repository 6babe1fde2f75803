"""The header's first error is the first real failure: never a progress line, a closing tally, an
exit status, a style message when a defect is reported, a search hit or a commit subject."""

from __future__ import annotations

from summarizer.output.kept import Kept
from summarizer.output.verdicts import first_error
from tests.output.conftest import Run, fixture_bytes


def _first(result_text: str) -> str:
    return next(line for line in result_text.splitlines() if line.startswith("first "))


def test_pytest_verbose_names_the_failure_not_its_progress_line(run: Run) -> None:
    """``pytest -v``: ``test_x.py::test_many[5] FAILED [ 8%]`` says a test failed; the E line says how."""
    result = run(fixture_bytes("real_pytest_v_fail.txt"), target=300)
    assert result.first_error is not None
    assert result.first_error.text.startswith("E       AssertionError: value 5 rejected")
    # The error line belongs to the first failing test, and the header says which one.
    assert "in test_many[5]:" in _first(result.text)


def test_a_located_message_under_a_go_stack_is_not_headed_by_the_stacks_last_frame(run: Run) -> None:
    """``go test -race``: the race report's stacks print a function line over each file line, so the
    line above the test's own ``testing.go:1319: race detected ...`` is a frame. A location that says
    what went wrong is its own headline; no function line of a stack is ever the first error."""
    result = run(fixture_bytes("real_go_test_race.txt"))
    first = result.first_error
    assert first is not None
    assert "race detected during execution of test" in first.text
    assert "in TestConcurrentWrap:" in _first(result.text)
    assert result.failing_tests == ("TestConcurrentWrap",)


def test_progress_line_leads_to_the_block_of_the_test_that_failed_first(run: Run) -> None:
    """pytest prints setup errors before failures; the first test to fail is the progress line's."""
    lines = [
        *(f"test_a.py::test_ok[{i}] PASSED" for i in range(30)),
        "test_a.py::test_price[7] FAILED                          [ 93%]",
        "test_a.py::test_sync ERROR                               [ 97%]",
        "==================================== ERRORS ====================================",
        "____________________ ERROR at setup of test_sync ____________________",
        "E       ConnectionError: db refused the connection",
        "conftest.py:11: ConnectionError",
        "=================================== FAILURES ===================================",
        "____________________ test_price[7] ____________________",
        "E       assert 4.9 == 4.8",
        "test_a.py:12: AssertionError",
        "========== 1 failed, 30 passed, 1 error in 0.14s ==========",
    ]
    result = run("\n".join(lines).encode(), target=60)
    assert result.first_error is not None
    assert result.first_error.text == "E       assert 4.9 == 4.8"


def test_prove_tally_is_not_the_first_error(run: Run) -> None:
    """prove's ``Failed 1/8 subtests`` after a file counts its failures; ``not ok 6`` is the failure."""
    result = run(fixture_bytes("real_prove_v_fail.txt"), target=100)
    assert result.first_error is not None
    assert result.first_error.text == "not ok 6 - doubles 0-5"


def test_a_defect_outranks_style_when_the_tool_prints_no_severity(run: Run) -> None:
    """ruff's full format has no severity: the undefined name, not the first E401, is the failure."""
    result = run(fixture_bytes("real_ruff_full.txt"), target=150)
    assert result.first_error is not None
    assert "F821 Undefined name `missing_name`" in result.first_error.text
    assert "pkg/mod3.py:5:21" in _first(result.text)


def test_search_hits_are_data_but_greps_own_error_is_not(run: Run) -> None:
    """``grep -rn`` hits holding ``InputError`` are what was asked for; ``grep: x: No such file`` failed."""
    data = fixture_bytes("real_grep_rn.txt")
    result = run(data, target=50)
    assert result.first_error is not None
    assert result.first_error.text == "grep: nosuchdir: No such file or directory"
    hits_only = b"\n".join(line for line in data.splitlines() if not line.startswith(b"grep:"))
    assert run(hits_only, target=50).first_error is None


def test_commit_subjects_are_data(run: Run) -> None:
    """``git log``: a subject or body saying "error" is history, not a failure of the command."""
    result = run(fixture_bytes("real_git_log.txt"), target=60)
    assert result.first_error is None
    assert "first error" not in result.text


def test_a_rendering_fed_back_does_not_name_its_exit_code(run: Run) -> None:
    """A compressed output compressed again: ``exit code: 1`` and its counts are no failure; its
    own "first error" line still names the failure."""
    result = run(fixture_bytes("real_rendering_refed.txt"), target=100)
    assert result.first_error is not None
    assert "exit code" not in result.first_error.text
    assert "E       AssertionError: value 5 rejected" in result.first_error.text


def test_exit_status_and_tally_yield_to_a_located_failure() -> None:
    """Order of severity: a located line before a verdict on the run, whatever comes first."""
    coords = [
        Kept(kind="docker_event", line=1, text="exit code: 2"),
        Kept(kind="error", line=2, text="Found 3 errors in 2 files"),
        Kept(kind="location", line=5, text="src/a.py:3:1: E401 multiple imports on one line"),
    ]
    first = first_error(coords)
    assert first is not None
    assert first.line == 5
    # With nothing else, the verdict is still worth naming.
    assert first_error(coords[:2]) == coords[0]


def test_a_failures_block_names_its_location_when_it_has_no_error_line(run: Run) -> None:
    """minitest: ``1) Failure:`` heads a block whose first line is the test and its location; the
    timing line ("12 assertions/s") counts assertions, it is no failure."""
    result = run(fixture_bytes("real_minitest_verbose_fail.txt"), target=100)
    assert result.first_error is not None
    assert result.first_error.text == "TestNumbers#test_rounds_9 [test/test_numbers.rb:41]:"


def test_a_line_that_only_says_a_file_failed_yields_to_the_located_error(run: Run) -> None:
    """clang-tidy prints ``Error while processing <file>.`` first; the located error says what failed."""
    result = run(fixture_bytes("real_clang_tidy_error.txt"), target=150)
    assert result.first_error is not None
    assert "src/t1.c:6:12: error: use of undeclared identifier 'undeclared_count'" in result.first_error.text
