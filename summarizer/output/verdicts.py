"""What the header says about a run: its failing tests, its counts and its first error.

Separate from the rendering because both the compressed rendering and the pass-through result
report them (``failed_tests``, ``passed_tests``, ``counts_from``, ``first_error``).
"""

from __future__ import annotations

import re

from summarizer.core.lazyre import lazy
from summarizer.output.engine import Engine
from summarizer.output.formats import LEAD_IN, failing_test_name
from summarizer.output.frames import is_third_party
from summarizer.output.kept import ERROR_KINDS, Kept
from summarizer.output.rows import report_lines
from summarizer.output.runners import NOT_NAMES, RunCounts, failing_names, run_counts

__all__ = [
    "ERROR_KINDS",
    "WARNING_KINDS",
    "all_pass",
    "failing_tests",
    "first_error",
    "names_defect",
    "run_counts_of",
    "test_of",
]

# What "first error" may point at, by severity: a line that is an error by its format's own rules
# or a failing test; then bare locations; then, when the output holds no error at all, a warning
# (a banner or an info line never qualifies: it is no coordinate).
_FIRSTERROR_KINDS = (
    "error",
    "exception",
    "error_block",
    "diagnostic",
    "conflict",
    "alert",
    "docker_event",
    "error_in_line",
    "failing_test",
    "http_5xx",
)
_FALLBACK_KINDS = ("location",)
WARNING_KINDS = ("warning", "located_warning")
# pytest's "> source" line shows where it failed and a traceback's first line only opens it: the
# error is the E line or the exception line after them.
_NOT_FIRST = lazy(r">|Traceback \(most recent call last\)")
_LEAD_IN = lazy(LEAD_IN)
_ERROR_START = lazy(r"\s*(?:[\w.]*(?:Error|Exception)\b|ERROR\b|error\b|fatal\b|FATAL\b|FAIL)")


def failing_tests(coords: list[Kept]) -> list[str]:
    texts: list[str] = []
    under: dict[int, str] = {}
    for n, coord in enumerate(coords):
        if coord.kind != "failing_test":
            continue
        if n + 1 < len(coords) and coords[n + 1].line == coord.line + 1:
            under[len(texts)] = coords[n + 1].text
        texts.append(coord.text)
    return failing_names(texts, under)


def first_error(coords: list[Kept], shape: str | None = None) -> Kept | None:
    """The first real failure, by severity: an error or failing test before a verdict on the run
    (an exit status, a closing tally, a progress line), before a bare location (one that names a
    defect before a style message), before a warning; the project's own code before third-party
    frames. In search hits and version-control output the rows are data, never the failure."""
    lead = next((c for c in coords if c.kind == "summary" and _LEAD_IN.match(c.text)), None)
    if lead is not None and any(c.kind == "failing_test" and c.line > lead.line for c in coords):
        # The runner announced its failures: the first is the first under the announcement, not
        # what the tests printed while they ran.
        coords = [c for c in coords if c.line > lead.line]
    usable = [
        c
        for c in coords
        if not _NOT_FIRST.match(c.text) and not _OWN_HEADER.match(c.text) and not _data_row(c, shape)
    ]
    # A report of coded rows without a severity (ruff, flake8): an error word in a row's message or
    # snippet is no severity; its rows rank as located rows.
    rows = report_lines(usable)
    errors = [
        c for c in usable if c.kind in _FIRSTERROR_KINDS and c.line not in rows and not _banner(c, usable)
    ]
    found = [c for c in errors if not _verdict_line(c)]
    progress = [c for c in errors if _PROGRESS.match(c.text.strip())]
    located = [c for c in usable if c.kind in _FALLBACK_KINDS or (c.line in rows and c.location)]
    covered = {c.line for c in usable}
    # A failing test's block says how it failed: its first error line, or else its location; not a
    # line that repeats what its progress row said (unittest prints the docstring under "FAIL:").
    described = {_PROGRESS_VERDICT.sub("", c.text.strip()).strip() for c in progress}
    inside = sorted((c for c in found + located if c.text.strip() not in described), key=lambda c: c.line)
    if progress and (not found or progress[0].line < _pick(found, covered).line):
        # The first test to fail, by the runner's progress line: its block says how it failed (a
        # progress row that names no test, a docstring's, leads to the first failure's block).
        block = _block_of(progress[0], found)
        return _inside_test(block or _pick(found, covered), inside) if block or found else progress[0]
    if found:
        return _inside_test(_pick(found, covered), inside)
    if located:
        by_line = {c.line: c for c in usable}
        defects = [c for c in located if _DEFECT.search(_message(c, by_line))]
        if rows:  # a coded report's rows are alike, however indented: the first one (or defect)
            return _headed((defects or located)[0], by_line)
        return _headed(_pick(defects or located, covered), by_line)
    if errors:
        return _pick(errors, covered)
    warned = [c for c in usable if c.kind in WARNING_KINDS]
    return _pick(warned, covered) if warned else None


def _block_of(verdict: Kept, found: list[Kept]) -> Kept | None:
    """The failing-test header, after a progress line, that names the same test: the words of one
    name end the other's (``tests/test_a.py::Suite::test_b`` and pytest's ``Suite.test_b``,
    unittest's ``test_b (pkg.Suite.test_b)`` on both)."""
    words = _name_words(_PROGRESS_VERDICT.sub(r" \1 \2", verdict.text.strip()))
    if not words:
        return None
    for coord in found:
        if coord.kind != "failing_test" or coord.line <= verdict.line:
            continue
        named = _name_words(failing_test_name(coord.text) or "")
        common = min(len(named), len(words))
        if common and named[-common:] == words[-common:] and len("".join(words[-common:])) >= 3:
            return coord
    return None


# What a progress row says around the test's id: the worker, the percentage, the result.
# (a subtest's message and parameters stay: its section is headed "test_a [msg] (n=3)").
_PROGRESS_VERDICT = lazy(
    r"^(?:\[gw\d+\] )?(?:\[ *\d+%\] )?(?:(?:FAILED|ERROR) )?(?:test )?"
    r"|(?: \.\.\.)? (?:FAILED|FAIL|ERROR|SUBFAILED(\[[^\]]*\])?(?: ?(\([^)]*\)))?)"
    r"(?: +\[ *\d+%\]| +\(\d+(?:\.\d+)? ?m?s\))? *$"
)
_WORD = lazy(r"\w+")


def _opens(coord: Kept, covered: set[int] | frozenset[int]) -> bool:
    """An indented ``file:line: message`` with no failure on the line above: a message of its own."""
    location = coord.location
    return bool(location) and coord.line - 1 not in covered and coord.text.lstrip().startswith(location or "")


def _name_words(name: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(name))


def _pick(found: list[Kept], covered: set[int] | frozenset[int] = frozenset()) -> Kept:
    own = [c for c in found if not is_third_party(c.text)]
    # An indented line continues the message above it (tsc's "Overload 1 of 2 ..."), unless it is
    # itself an error line (pip indents its subprocess's "ERROR: ..."), a test's header, or a located
    # diagnostic with no failure above it to continue (go test -v prints a test's log lines,
    # "    x_test.go:50: got 3, want 4", before its verdict).
    heads = [c for c in own if not c.text[:1].isspace() or _heads_a_failure(c) or _opens(c, covered)]
    heads = heads or [c for c in found if not c.text[:1].isspace()]
    return (heads or own or found)[0]


# A rendering of this tool fed back to it: its header's counts are tallies, not failures (its
# "first error (line N): ..." line still names the first failure, and can stand for it).
_OWN_HEADER = lazy(r"(?:failing tests \(\d|warnings/notes: \d|passing tests: \d)")
# A verdict on the run or on a test, not the failure itself: an exit status, a closing tally
# ("Failed 1/15 subtests", "Tests: 15 Failed: 1", "3 errors"), a progress line that only says a test
# failed ("test_x.py::test_a[5] FAILED [ 8%]", "test_b (m.C) ... FAIL"): the failure's own lines say more.
_EXIT_STATUS = lazy(
    r"^.{0,40}\b(?:exit (?:code|status)|exited with (?:code|status)|non-zero exit status)\W{0,3}\d+\W{0,3}$",
    re.IGNORECASE,
)
_TALLY = lazy(
    # (not "***Failed    0.01 sec": a test's duration)
    r"\b\d+ (?:errors?|failures?|failed|problems?)\b"
    r"|\bfail(?:ed|ures?)?:? +\d+(?:/\d+)?\b(?!\.\d| ?(?:s|sec|ms)\b)"
    r"|\bfailed tests?: +[\d, -]+$",
    re.IGNORECASE,
)
# A heading over a list of what failed ("The following tests FAILED:", cargo's "failures:"): the
# list's rows and the blocks above say what failed.
_LIST_HEADING = lazy(
    r"^[A-Za-z ]{0,40}\b(?:failed|failures|failing|errors)\b[A-Za-z ]{0,20}:$", re.IGNORECASE
)
_PROGRESS = lazy(
    r"^(?:\[gw\d+\] )?(?:\[ *\d+%\] )?(?:test )?\S+(?: \([\w.]+\))?(?: \.\.\.)? "
    r"(?:FAILED|FAIL|ERROR|SUBFAILED(?:\[[^\]]*\])?(?: ?\([^)]*\))?)"
    r"(?: +\[ *\d+%\]| +\(\d+(?:\.\d+)? ?m?s\))? *$"
    r"|^(?:\[gw\d+\] )?\[ *\d+%\] (?:FAILED|ERROR) \S+ *$"
    # unittest -v: whatever names the test (its docstring's first line, a doctest, a subtest's
    # parameters), the result comes after " ... "
    r"|^.*\S \.\.\. (?:FAILED|FAIL|ERROR)$"
)


# A line that only says a file failed ("Error while processing src/a.c.", "Errors parsing b.php"):
# the located error in that file says what failed.
_FILE_VERDICT = lazy(r"^\W*(?:errors?|failed|failures?)\b(?: [a-z]+){0,2} \S+\.\w{1,8}\.?$", re.IGNORECASE)


def _verdict_line(coord: Kept) -> bool:
    text = coord.text.strip()
    return bool(
        _EXIT_STATUS.match(text)
        or _TALLY.search(text)
        or _PROGRESS.match(text)
        or _FILE_VERDICT.match(text)
        or _LIST_HEADING.match(text)
    )


# Search hits ("path:line:text") and commit lines are what the command was asked to show: an error
# word in them is data. The tool's own diagnostics ("grep: x: Permission denied", "fatal: ...") are not.
_HIT = lazy(r"^[^\s:]+:\d+[:-]")
_COMMIT = lazy(r"^(?:commit [0-9a-f]{7,40}\b| {4}\S|[0-9a-f]{7,40} \S)")


def _data_row(coord: Kept, shape: str | None) -> bool:
    if shape == "search":
        return bool(_HIT.match(coord.text))
    if shape == "vcs":
        return bool(_COMMIT.match(coord.text))
    return False


# Where a tool prints no severity (ruff, flake8, golint), a message that names a defect outranks a
# style message: an undefined name breaks the program, "multiple imports on one line" does not.
_DEFECT = lazy(
    r"\b(?:undefined|not defined|undeclared|unresolved|does not exist|doesn't exist|cannot find"
    r"|can't find|could not find|not found|no such|syntax ?error|invalid syntax|unexpected (?:token|EOF|end)"
    r"|unterminated|not callable|has no (?:attribute|member|field)|incompatible|type ?error"
    r"|uninitiali[sz]ed|null (?:pointer|dereference)|out of (?:bounds|range)|unreachable|missing required"
    r"|too (?:many|few) (?:positional )?arguments)",
    re.IGNORECASE,
)


def names_defect(message: str) -> bool:
    """Whether a message without a severity names a defect (see ``_DEFECT``)."""
    return bool(_DEFECT.search(message))


def _message(coord: Kept, by_line: dict[int, Kept]) -> str:
    """A location's message: its own text, or the line above it for an arrow (``--> a.py:3:1``)."""
    if not coord.text.lstrip().startswith("-->"):
        return coord.text
    above = by_line.get(coord.line - 1)
    return above.text if above is not None else coord.text


def _headed(coord: Kept, by_line: dict[int, Kept]) -> Kept:
    """An arrow location stands with the message above it, which says what is wrong there."""
    message = _message(coord, by_line)
    if message is coord.text:
        return coord
    return Kept(
        kind=coord.kind, line=coord.line - 1, text=f"{message} {coord.text.strip()}", location=coord.location
    )


_BANNER_LINES = 5


def _banner(coord: Kept, coords: list[Kept]) -> bool:
    """A tool's start-up banner ("Memcheck, a memory error detector"): an error word in the first
    lines with no location of its own and none in the lines under it, while later errors exist."""
    if coord.line > _BANNER_LINES or coord.location or coord.kind != "error":
        return False
    if any(c.kind == "file" and c.line < coord.line for c in coords):
        return False  # a row under a linter's file heading (eslint's stylish report)
    near = [c for c in coords if coord.line < c.line <= coord.line + 4]
    later = [c for c in coords if c.line > coord.line + 4 and c.kind in _FIRSTERROR_KINDS]
    return not any(c.location or c.kind == "frame" for c in near) and bool(later)


def _inside_test(first: Kept, inside: list[Kept]) -> Kept:
    """A failing test's header stands for its failure only when its block names no error line
    (nor, failing that, a location: minitest's ``TestX#test_a [test/x.rb:33]:`` under ``1) Failure:``),
    or when its first error line only repeats the test's name (TAP's ``Error: <name>`` stack head).
    The block's source lines (a traceback's ``    self.assertEqual(``) yield to its error lines."""
    if first.kind != "failing_test":
        return first
    block = []
    for coord in inside:
        if coord.line <= first.line:
            continue
        if coord.kind == "failing_test":
            break
        block.append(coord)
    above = _log_above(first, inside)
    # Log lines that end right above the verdict are its test's (go test -v); lines under it that
    # run on to the next verdict are the next test's.
    block = above if above and above[-1].line == first.line - 1 else block or above
    errors = [c for c in block if c.kind not in _FALLBACK_KINDS]
    heads = [c for c in errors if not c.text[:1].isspace() or _heads_a_failure(c)]
    chosen = (heads or errors or block or [first])[0]
    if chosen is not first and _repeats_name(chosen.text, failing_test_name(first.text)):
        return first
    return chosen


def _log_above(verdict: Kept, inside: list[Kept]) -> list[Kept]:
    """The indented log lines a runner printed before a verdict with nothing under it (``go test -v``
    prints ``    x_test.go:18: got 3, want 4`` while the test runs, its ``--- FAIL`` after it ends)."""
    above = [c for c in inside if c.line < verdict.line]
    opens = (n for n, c in enumerate(above) if c.kind == "failing_test" or not c.text[:1].isspace())
    start = max(opens, default=-1)
    lines = above[start + 1 :]
    if lines and lines[-1].line == verdict.line - 1:
        # A run of lines right above it is the test's own; earlier ones belong to tests that passed.
        run = len(lines) - 1
        while run and lines[run - 1].line == lines[run].line - 1:
            run -= 1
        lines = lines[run:]
    return [c for c in lines if c.location and c.text.lstrip().startswith(c.location)]


def _repeats_name(text: str, name: str | None) -> bool:
    """``Error: defaults to a depth of 5`` under ``not ok 3 defaults to a depth of 5``."""
    if not name or len(name) < 8:
        return False
    message = _ERROR_PREFIX.sub("", text.strip())
    return message == name.strip()


_ERROR_PREFIX = lazy(r"^[\w.]*(?:Error|Exception|Failure)\b:? *")


def test_of(first: Kept, coords: list[Kept]) -> str | None:
    """The failing test whose block holds ``first`` (an ``E`` line under pytest's ``____ name ____``)."""
    if first.kind == "failing_test":
        return None
    header = None
    for coord in coords:
        if coord.line >= first.line:
            break
        if coord.kind == "failing_test":
            header = coord
    if header is None or first.line - header.line > _TEST_BLOCK_LINES:
        header = _verdict_below(first, coords)
    if header is None:
        return None
    name = failing_test_name(header.text)
    # minitest's "1) Failure:" names no test: the block's own first line does.
    return None if name is None or name.lower().rstrip(":") in NOT_NAMES else name


_TEST_BLOCK_LINES = 200


def _verdict_below(first: Kept, coords: list[Kept]) -> Kept | None:
    """The failing test whose verdict comes after its indented log lines (``go test -v``), when
    no failing test heads the block above: the first header below, every line between indented."""
    if not first.text[:1].isspace():
        return None
    for coord in coords:
        if coord.line <= first.line:
            continue
        if coord.line - first.line > _TEST_BLOCK_LINES:
            return None
        if coord.kind == "failing_test":
            return coord
        if not coord.text[:1].isspace():
            return None
    return None


def _heads_a_failure(coord: Kept) -> bool:
    return coord.kind == "failing_test" or bool(_ERROR_START.match(coord.text))


def run_counts_of(coords: list[Kept]) -> RunCounts | None:
    return run_counts(c.text for c in coords if c.kind in ("summary", "failing_test", "error"))


def all_pass(engine: Engine) -> bool:
    """A test run where everything passed: passing tests counted, no failure of any kind."""
    if not engine.passed:
        return False
    return not any(e.kind in ERROR_KINDS or e.kind in ("warning", "detail") for e in engine.coords.values())
