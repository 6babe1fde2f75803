"""Whole chunks of listing rows, told in one regular-expression pass in C.

A big ``find -ls`` or ``ls -l`` output does not repeat: every row would be a new line key, and the
engine's per-key bookkeeping (the table, its counts, the pruning) would cost several times the
reading. Yet every such row gets the same class whatever its name says (``libgpg-error0`` is a
name): :func:`summarizer.output.coordinates.classify_template` calls a row of ``ls -l``,
``find -ls``, ``tar -tv`` or ``du`` an ordinary listed line, and the engine calls a bare path
ordinary without classifying it. So a chunk whose every line is such a row is counted as one
key, "listing rows", and nothing else is done per line. In a chunk that is mostly rows, the rows
share that key and only the other lines (``find: '/root': Permission denied``) get keys of their
own, classified as in any output; a chunk that is mostly not rows goes the ordinary way.

Only chunks of at least :data:`MIN_LINES` lines are tried: small outputs gain nothing from it.
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy
from summarizer.core.records import record

__all__ = ["MIN_LINES", "ListingChunk", "listing_chunk", "listing_lines"]

MIN_LINES = 2048
_SP = rb"[^\S\n]"
# One of: a row of ls -l / find -ls / tar -tv (the head of rules.LISTING, a permission string
# after an optional inode and block count), a du row (size, tab, path), a bare path (opening with
# "/" or ".", no space, colon or tab: the engine's own test for a listed path), ls -l's "total N",
# or an empty line. ``END`` is the end of the line. Every alternative stays inside its line.
_NAMED = (
    _SP
    + rb"*(?:\d+"
    + _SP
    + rb"+\d+"
    + _SP
    + rb"+)?[-dlcbpsDL?][rwxsStTl-]{9}[.+@]?"
    + _SP
    + rb"|\d+(?:[.,]\d+)?[KMGTPk]?\t\S"
    + rb"|[./][^\s:]*END"
)
_ROW = rb"(?:" + _NAMED + rb"|total \d+END|END)"
# Over a whole chunk (after a newline; one match per line means every line is a row), over one
# line, and over the first lines of a chunk (a blank line or "total N" alone says nothing).
_ROWS = lazy(b"\n" + _ROW.replace(b"END", rb"(?=\n)"))
_ROW_LINE = lazy(_ROW.replace(b"END", rb"\Z"))
_PROBE = lazy(b"\n(?:" + _NAMED.replace(b"END", rb"(?=\n)") + b")")
_PROBE_LINES = 3


@record(frozen=True)
class ListingChunk:
    """A chunk that is mostly listing rows: its lines, and which of them are rows (None: all)."""

    lines: list[bytes]
    rows: list[bool] | None


def listing_chunk(data: bytes, min_lines: int = MIN_LINES) -> ListingChunk | None:
    """``data`` (a chunk of whole lines, no final newline) as a listing when at least half of its
    lines, and at least ``min_lines``, are listing rows; else None."""
    head = data[: _nth_newline(data, _PROBE_LINES)]
    if not _PROBE.search(b"\n" + head + b"\n"):
        return None  # the common case (not a listing) costs a scan of its first lines
    size = data.count(b"\n") + 1
    if size < min_lines:
        return None
    found = len(_ROWS.findall(b"\n" + data + b"\n"))
    if found == size:
        return ListingChunk(data.split(b"\n"), None)
    if found * 2 < size:
        return None
    lines = data.split(b"\n")
    return ListingChunk(lines, list(map(bool, map(_ROW_LINE.match, lines))))


def listing_lines(data: bytes, min_lines: int = MIN_LINES) -> list[bytes] | None:
    """The lines of ``data`` when every one is a listing row (see :func:`listing_chunk`); else None."""
    chunk = listing_chunk(data, min_lines)
    return chunk.lines if chunk is not None and chunk.rows is None else None


def _nth_newline(data: bytes, n: int) -> int:
    """The offset of the ``n``-th newline of ``data`` (its length when it has fewer)."""
    at = -1
    for _ in range(n):
        at = data.find(b"\n", at + 1)
        if at < 0:
            return len(data)
    return at
