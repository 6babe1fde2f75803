"""Rows of a report that carry a rule code but no severity (ruff, flake8, pycodestyle, shellcheck).

A row is ``CODE message`` at a location: on one line after it (``a.py:3:1: E501 line too long``)
or above a ``  --> a.py:3:1`` arrow (ruff's full format, which then prints a source snippet and a
fix's diff: the row's block, up to the next row). The tool printed no ``error``/``warning``: every
row is as much a failure as any other. :mod:`~summarizer.output.dense` folds such rows by code when
they overflow the target; :mod:`~summarizer.output.verdicts` ranks them as located rows, so that
an error word in a message or a snippet (``raise ValueError``) does not make it the first error.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from summarizer.core.lazyre import lazy
from summarizer.core.records import record
from summarizer.output.kept import Kept

__all__ = ["MIN_ROWS", "CodedRow", "coded_row", "is_arrow", "led_by_severity", "report_lines"]

# A rule code leading a message: Q000, E501, PLR0913, ANN001, SC2086, C0301 (then a space, a colon,
# a bracket or the end).
_CODE = lazy(r"^([A-Z]{1,8}\d{1,5})(?=[\s:\[]|$)")
_SEVERITY = lazy(r"^\W{0,3}(?:error|warning|note|info|hint|fatal|critical)\b", re.IGNORECASE)
_ARROW = lazy(r"^\s*--> ")
# A report, not a handful of rows.
MIN_ROWS = 20
# The share of arrows whose message above leads with a code, for the arrows to be such a report.
_CODED_SHARE = 0.9


@record(frozen=True)
class CodedRow:
    """One row of the report: its rule code, message, location and the output lines it occupies."""

    code: str
    message: str
    file: str
    place: str
    lines: tuple[int, ...]


def led_by_severity(text: str) -> bool:
    """A line that starts with its severity (``error: x``, ``Warning: y``)."""
    return bool(_SEVERITY.match(text.lstrip()))


def is_arrow(coord: Kept) -> bool:
    return bool(coord.location) and bool(_ARROW.match(coord.text))


def _file(location: str) -> str | None:
    match = re.match(r"^(?P<file>.*?)(?::\d|\(\d)", location)
    return match.group("file") if match else None


def coded_row(coord: Kept, head: Kept | None) -> CodedRow | None:
    """The coded row ``coord`` is: an arrow under its message ``head`` (the message's text, kept
    where it was first printed), or a located one-line row."""
    location = coord.location
    if not location:
        return None
    lines: tuple[int, ...]
    if _ARROW.match(coord.text):
        if head is None:
            return None
        message, lines = head.text.strip(), (coord.line - 1, coord.line)
        location = location.removeprefix("--> ")
    elif coord.text.startswith(location):
        message, lines = coord.text[len(location) :].lstrip(": "), (coord.line,)
    else:
        return None
    code = _CODE.match(message)
    file = _file(location)
    if code is None or file is None or _SEVERITY.match(message):
        return None
    return CodedRow(code.group(1), message, file, location[len(file) :].lstrip(":"), lines)


def report_lines(coords: Sequence[Kept]) -> frozenset[int]:
    """The lines of a coded report's rows that are not their locations: each arrow's message line
    and its block (from the first row's message to the last arrow), and every one-line coded row.
    Empty unless the output holds at least ``MIN_ROWS`` rows without a severity."""
    by_line = {c.line: c for c in coords}
    arrows = [c for c in coords if is_arrow(c)]
    known = [coded_row(a, by_line.get(a.line - 1)) for a in arrows if a.line - 1 in by_line]
    lines: set[int] = set()
    if len(arrows) >= MIN_ROWS and known and sum(r is not None for r in known) >= _CODED_SHARE * len(known):
        # From the first row's message to the last row's block (up to a line led by a severity,
        # which is some other tool's own error, or the end).
        first = arrows[0].line - 1
        end = next((c.line for c in coords if c.line > arrows[-1].line and led_by_severity(c.text)), None)
        lines.update(c.line for c in coords if first <= c.line < (end or c.line + 1) and not is_arrow(c))
    one_line = [c.line for c in coords if not is_arrow(c) and coded_row(c, None) is not None]
    if len(one_line) >= MIN_ROWS:
        lines.update(one_line)
    return frozenset(lines)
