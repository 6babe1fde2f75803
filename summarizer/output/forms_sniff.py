"""A cheap test, on the fast paths of ``run`` and ``output``, for a small output that may have a
compact form (:mod:`summarizer.output.forms`): git status/log/show, ``--stat``, a listing, search hits.

Bytes operations only (no ``re``: the fast path imports nothing it does not need). A yes sends the
output to the compressor, which keeps the original whenever the form saves too little.
"""

from __future__ import annotations

__all__ = ["may_have_form"]

_STARTS = (b"On branch ", b"HEAD detached ", b"commit ", b"total ", b"## ")
_KINDS = b"-dlcbpsDL?"
_PERMS = frozenset(b"rwxsStTl-.+@")
_XY = frozenset(b" MTADRCU?!")
_LINES = 6


def _listing_row(line: bytes) -> bool:
    for word in line.split(None, 3)[:3]:
        if len(word) in (10, 11) and word[:1] in _KINDS and _PERMS.issuperset(word[1:]):
            return True
    return False


def _hit(line: bytes) -> bool:
    path, _, rest = line.partition(b":")
    number, sep, _ = rest.partition(b":")
    return bool(sep) and number.isdigit() and bool(path) and b" " not in path


def _path(line: bytes) -> bool:
    # find, ls, git ls-files: one path or name a line
    return b" " not in line and b":" not in line and b"\t" not in line


def _stat(line: bytes) -> bool:
    return line.startswith(b" ") and (b" | " in line or b" changed" in line)


def _porcelain(line: bytes) -> bool:
    return len(line) > 3 and line[2:3] == b" " and _XY.issuperset(line[:2])


def may_have_form(data: bytes) -> bool:
    """True when the first lines of ``data`` (3 lines or more) look like one of the forms."""
    if data.count(b"\n") < 2:
        return False
    if data.startswith(_STARTS):
        return True
    lines = [line.rstrip(b"\r") for line in data.split(b"\n", _LINES)[:_LINES] if line]
    lines = lines[:-1] if len(lines) > 2 else lines
    return any(all(map(test, lines)) for test in (_listing_row, _hit, _path, _stat, _porcelain))
