"""What the header says about a run: its failing tests, its counts and its first error.

Separate from the rendering because both the compressed rendering and the pass-through result
report them (``failed_tests``, ``passed_tests``, ``counts_from``, ``first_error``).
"""

from __future__ import annotations

import re

from summarizer.output.engine import Engine
from summarizer.output.frames import is_third_party
from summarizer.output.kept import ERROR_KINDS, Kept
from summarizer.output.runners import RunCounts, failing_names, run_counts

__all__ = ["ERROR_KINDS", "WARNING_KINDS", "all_pass", "failing_tests", "first_error", "run_counts_of"]

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
_NOT_FIRST = re.compile(r">|Traceback \(most recent call last\)")
_ERROR_START = re.compile(r"\s*(?:[\w.]*(?:Error|Exception)\b|ERROR\b|error\b|fatal\b|FATAL\b|FAIL)")


def failing_tests(coords: list[Kept]) -> list[str]:
    return failing_names(c.text for c in coords if c.kind == "failing_test")


def first_error(coords: list[Kept]) -> Kept | None:
    """The first real failure, by severity: an error or failing test before a bare location, a
    warning only when nothing is worse; the project's own code before third-party frames."""
    for kinds in (_FIRSTERROR_KINDS, _FALLBACK_KINDS, WARNING_KINDS):
        found = [
            c
            for c in coords
            if c.kind in kinds
            and not _NOT_FIRST.match(c.text)
            and not _banner(c, coords)
            and not _tally(c, coords)
        ]
        own = [c for c in found if not is_third_party(c.text)]
        # An indented line continues the message above it (tsc's "Overload 1 of 2 ..."), unless
        # it is itself an error line (pip indents its subprocess's "ERROR: ...") or a test's header.
        heads = [c for c in own if not c.text[:1].isspace() or _heads_a_failure(c)]
        heads = heads or [c for c in found if not c.text[:1].isspace()]
        if heads or own or found:
            return _inside_test((heads or own or found)[0], found)
    return None


_BANNER_LINES = 5
_TALLY = re.compile(r"\b\d+ (?:errors?|failures?|failed|problems?)\b", re.IGNORECASE)


def _tally(coord: Kept, coords: list[Kept]) -> bool:
    """A closing count ("ERROR SUMMARY: 6 errors") after located failures: it counts them, it is
    not the first of them."""
    return bool(_TALLY.search(coord.text)) and any(
        c.line < coord.line and c.kind in ("location", "frame") for c in coords
    )


def _banner(coord: Kept, coords: list[Kept]) -> bool:
    """A tool's start-up banner ("Memcheck, a memory error detector"): an error word in the first
    lines with no location of its own and none in the lines under it, while later errors exist."""
    if coord.line > _BANNER_LINES or coord.location or coord.kind != "error":
        return False
    near = [c for c in coords if coord.line < c.line <= coord.line + 4]
    later = [c for c in coords if c.line > coord.line + 4 and c.kind in _FIRSTERROR_KINDS]
    return not any(c.location or c.kind == "frame" for c in near) and bool(later)


def _inside_test(first: Kept, found: list[Kept]) -> Kept:
    """A failing test's header stands for its failure only when its block names no error line."""
    if first.kind != "failing_test":
        return first
    for coord in found:
        if coord.line <= first.line:
            continue
        if coord.kind == "failing_test":
            break
        return coord
    return first


def _heads_a_failure(coord: Kept) -> bool:
    return coord.kind == "failing_test" or bool(_ERROR_START.match(coord.text))


def run_counts_of(coords: list[Kept]) -> RunCounts | None:
    return run_counts(c.text for c in coords if c.kind in ("summary", "failing_test", "error"))


def all_pass(engine: Engine) -> bool:
    """A test run where everything passed: passing tests counted, no failure of any kind."""
    if not engine.passed:
        return False
    return not any(e.kind in ERROR_KINDS or e.kind in ("warning", "detail") for e in engine.coords.values())
