"""Search hits (``grep -rn``, ``rg -n``, ``git grep -n``) grouped by file, every line number kept.

Each file is named once on an ``@ file`` line; its hits follow as ``N: text`` (a context line of
``grep -C`` as ``N- text``), the text verbatim after one space. :func:`summarizer.output.grouping.expand`
turns the rows back into grep's own ``file:N:text``. A hit is a line of some file, never a failure
of the search, whatever it says (``raise InputError(...)``).
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy
from summarizer.output.forms_vcs import Parsed

__all__ = ["CONTEXT", "HIT", "search_form"]

# path:line:text (a hit) or path-line-text (grep -C context, told apart by a known path).
HIT = lazy(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<text>.*)$")
CONTEXT = lazy(r"^(?P<file>[^\s:]+?)-(?P<line>\d+)-(?P<text>.*)$")
# grep -c / -l and binary-file notices are not hit rows: they leave the output as it is.
_NOTICE = lazy(r"^(?:Binary file .* matches|grep: .*|rg: .*)$")


def _row(line: str, files: set[str]) -> tuple[str, str] | None:
    """(file, row) for one hit or context line; None for anything else."""
    found = HIT.match(line)
    if found is not None:
        return found.group("file"), f"{found.group('line')}: {found.group('text')}"
    found = CONTEXT.match(line)
    if found is not None and found.group("file") in files:
        return found.group("file"), f"{found.group('line')}- {found.group('text')}"
    return None


def search_form(lines: list[str]) -> Parsed | None:
    """The hits grouped by file, or None unless every line is a hit, a context row, ``--`` or a
    notice (kept as it is)."""
    files = {found.group("file") for line in lines if (found := HIT.match(line)) is not None}
    body: list[str] = []
    current: str | None = None
    hits = 0
    for line in lines:
        if line == "--" or not line:
            continue
        row = _row(line, files)
        if row is None:
            if not _NOTICE.match(line):
                return None
            body.append(line)
            current = None
            continue
        file, text = row
        hits += text[:1].isdigit() and ": " in text[:12]
        if file != current:
            body.append(f"@ {file}")
            current = file
        body.append(text)
    if hits < 2 or len(files) * 2 > hits + 1:
        return None  # one hit per file: grouping saves nothing
    summary = f"{hits} hits in {len(files)} file{'s' if len(files) > 1 else ''}"
    return Parsed("search", summary, tuple(body))
