"""What the header says about a run: its failing tests, its counts and its first error.

Separate from the rendering because both the compressed rendering and the pass-through result
report them (``failed_tests``, ``passed_tests``, ``counts_from``, ``first_error``).
"""

from __future__ import annotations

import re

from summarizer.core.lazyre import lazy
from summarizer.output.engine import Engine
from summarizer.output.formats import failing_test_name
from summarizer.output.frames import is_third_party
from summarizer.output.kept import ERROR_KINDS, Kept
from summarizer.output.rows import report_lines
from summarizer.output.runners import RunCounts, failing_names, run_counts

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
_ERROR_START = lazy(r"\s*(?:[\w.]*(?:Error|Exception)\b|ERROR\b|error\b|fatal\b|FATAL\b|FAIL)")


def failing_tests(coords: list[Kept]) -> list[str]:
    return failing_names(c.text for c in coords if c.kind == "failing_test")


def first_error(coords: list[Kept], shape: str | None = None) -> Kept | None:
    """The first real failure, by severity: an error or failing test before a verdict on the run
    (an exit status, a closing tally, a progress line), before a bare location (one that names a
    defect before a style message), before a warning; the project's own code before third-party
    frames. In search hits and version-control output the rows are data, never the failure."""
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
    # A failing test's block says how it failed: its first error line, or else its location.
    inside = sorted(found + located, key=lambda c: c.line)
    if progress and (not found or progress[0].line < _pick(found).line):
        # The first test to fail, by the runner's progress line: its block says how it failed.
        block = _block_of(progress[0], found)
        return _inside_test(block, inside) if block else _pick(found) if found else progress[0]
    if found:
        return _inside_test(_pick(found), inside)
    if located:
        by_line = {c.line: c for c in usable}
        defects = [c for c in located if _DEFECT.search(_message(c, by_line))]
        if rows:  # a coded report's rows are alike, however indented: the first one (or defect)
            return _headed((defects or located)[0], by_line)
        return _headed(_pick(defects or located), by_line)
    if errors:
        return _pick(errors)
    warned = [c for c in usable if c.kind in WARNING_KINDS]
    return _pick(warned) if warned else None


def _block_of(verdict: Kept, found: list[Kept]) -> Kept | None:
    """The failing-test header, after a progress line, that names the same test."""
    test = verdict.text.strip().split()
    name = (test[1] if test[0] == "test" and len(test) > 1 else test[0]).rsplit("::", 1)[-1]
    if len(name) < 3:
        return None
    named = re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w.])")
    return next((c for c in found if c.kind == "failing_test" and named.search(c.text)), None)


def _pick(found: list[Kept]) -> Kept:
    own = [c for c in found if not is_third_party(c.text)]
    # An indented line continues the message above it (tsc's "Overload 1 of 2 ..."), unless
    # it is itself an error line (pip indents its subprocess's "ERROR: ...") or a test's header.
    heads = [c for c in own if not c.text[:1].isspace() or _heads_a_failure(c)]
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
    r"\b\d+ (?:errors?|failures?|failed|problems?)\b|\bfail(?:ed|ures?)?:? +\d+(?:/\d+)?\b"
    r"|\bfailed tests?: +[\d, -]+$",
    re.IGNORECASE,
)
_PROGRESS = lazy(
    r"^(?:\[gw\d+\] )?(?:\[ *\d+%\] )?(?:test )?\S+(?: \([\w.]+\))?(?: \.\.\.)? "
    r"(?:FAILED|FAIL|ERROR)(?: +\[ *\d+%\]| +\(\d+(?:\.\d+)? ?m?s\))? *$"
    r"|^(?:\[gw\d+\] )?\[ *\d+%\] (?:FAILED|ERROR) \S+ *$"
)


# A line that only says a file failed ("Error while processing src/a.c.", "Errors parsing b.php"):
# the located error in that file says what failed.
_FILE_VERDICT = lazy(r"^\W*(?:errors?|failed|failures?)\b(?: [a-z]+){0,2} \S+\.\w{1,8}\.?$", re.IGNORECASE)


def _verdict_line(coord: Kept) -> bool:
    text = coord.text.strip()
    return bool(
        _EXIT_STATUS.match(text) or _TALLY.search(text) or _PROGRESS.match(text) or _FILE_VERDICT.match(text)
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
    (nor, failing that, a location: minitest's ``TestX#test_a [test/x.rb:33]:`` under ``1) Failure:``)."""
    if first.kind != "failing_test":
        return first
    block = []
    for coord in inside:
        if coord.line <= first.line:
            continue
        if coord.kind == "failing_test":
            break
        block.append(coord)
    errors = [c for c in block if c.kind not in _FALLBACK_KINDS]
    return (errors or block or [first])[0]


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
        return None
    name = failing_test_name(header.text)
    # minitest's "1) Failure:" names no test: the block's own first line does.
    return None if name is None or name.lower().rstrip(":") in _NOT_NAMES else name


_TEST_BLOCK_LINES = 200
_NOT_NAMES = frozenset({"failure", "failures", "error", "errors", "failed", "fail"})


def _heads_a_failure(coord: Kept) -> bool:
    return coord.kind == "failing_test" or bool(_ERROR_START.match(coord.text))


def run_counts_of(coords: list[Kept]) -> RunCounts | None:
    return run_counts(c.text for c in coords if c.kind in ("summary", "failing_test", "error"))


def all_pass(engine: Engine) -> bool:
    """A test run where everything passed: passing tests counted, no failure of any kind."""
    if not engine.passed:
        return False
    return not any(e.kind in ERROR_KINDS or e.kind in ("warning", "detail") for e in engine.coords.values())
