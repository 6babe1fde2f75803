"""Whole chunks of listing rows, told in one regular-expression pass in C.

A big ``find -ls`` or ``ls -l`` output does not repeat: every row would be a new line key, and the
engine's per-key bookkeeping (the table, its counts, the pruning) would cost several times the
reading. Yet every such row gets the same class whatever its name says (``libgpg-error0`` is a
name): :func:`summarizer.output.coordinates.classify_template` calls a row of ``ls -l``,
``find -ls``, ``tar -tv`` or ``du`` an ordinary listed line, and the engine calls a bare path
ordinary without classifying it. So a chunk whose every line is such a row is counted as one
key, "listing rows", and nothing else is done per line. One line that is not a row (``find:
'/root': Permission denied``) sends its whole chunk down the ordinary path, where it is found.

Only chunks of at least :data:`MIN_LINES` lines are tried: small outputs gain nothing from it.
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy

__all__ = ["MIN_LINES", "listing_lines"]

MIN_LINES = 2048
_SP = rb"[^\S\n]"
# After a newline, one of: a row of ls -l / find -ls / tar -tv (the head of rules.LISTING, a
# permission string after an optional inode and block count), a du row (size, tab, path), a bare
# path (opening with "/" or ".", no colon or tab: a message names its file with one), ls -l's
# "total N", or an empty line. Every alternative stays inside its line, so one match per line means every
# line is a row.
_ROW = (
    rb"\n(?:"
    + _SP
    + rb"*(?:\d+"
    + _SP
    + rb"+\d+"
    + _SP
    + rb"+)?[-dlcbpsDL?][rwxsStTl-]{9}[.+@]?"
    + _SP
    + rb"|\d+(?:[.,]\d+)?[KMGTPk]?\t\S"
    + rb"|[./][^\n\t\r\x0b\x0c:]*(?=\n)"
    + rb"|total \d+(?=\n)"
    + rb"|(?=\n))"
)
_ROWS = lazy(_ROW)


def listing_lines(data: bytes, min_lines: int = MIN_LINES) -> list[bytes] | None:
    """The lines of ``data`` (a chunk of whole lines, no final newline) when every one is a
    listing row and there are at least ``min_lines`` of them; else None."""
    first = data.find(b"\n")
    if not _ROWS.match(b"\n" + (data[: first + 1] if first >= 0 else data + b"\n")):
        return None  # the common case (not a listing) costs one match on one line
    size = data.count(b"\n") + 1
    if size < min_lines or len(_ROWS.findall(b"\n" + data + b"\n")) != size:
        return None
    return data.split(b"\n")
