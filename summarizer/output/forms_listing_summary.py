"""The lines of a big listing's summary, within a budget (docs/tool-output.md, "Listings, version
control and search").

In order of what stays: every line that is not a row (where a listing's failures are), the counts
(rows per kind), the first and last rows verbatim, rows per directory and per extension, and then
as many names as the rest of the budget holds: the first names in listing order, grouped under
their directory (``@ /usr/lib``), a directory shown as ``name/`` and a link as ``name@`` (as
``ls -F`` does). A listing's names are what it is read for: the budget goes to them, and the
counts say how many more there are.
"""

from __future__ import annotations

from collections import Counter

from summarizer.core.lazyre import lazy
from summarizer.output.forms_listing import ListingTally

__all__ = ["summary_lines"]

_KIND_WORD = {"-": "files", "d": "dirs", "l": "links", "?": "entries"}
_MARK = {"d": "/", "l": "@"}
# A names row is wrapped past this many characters (one long line reads badly).
_ROW_CHARS = 160
# The verbatim rows show the listing's own format: a few at each end.
_FIRST_ROWS, _LAST_ROWS = 2, 3
# Names that share at least this long a prefix are written once with braces (as a shell expands
# them), when that is shorter; a name with a brace, a comma or a space is always written whole.
_MIN_PREFIX = 4
_PLAIN = lazy(r"[^{},\s']+")


def _counted(title: str, counts: Counter[str], budget_chars: int, empty: str, suffix: str = "") -> str:
    parts: list[str] = []
    used = len(title) + 2
    shown = 0
    for key, count in counts.most_common():
        part = f"{key + suffix if key else empty} {count:,}"
        if used + len(part) + 3 > budget_chars and shown:
            break
        parts.append(part)
        used += len(part) + 3
        shown += count
    rest = sum(counts.values()) - shown
    tail = f" · +{len(counts) - len(parts):,} more with {rest:,} rows" if rest else ""
    return f"{title}: " + " · ".join(parts) + tail


def _head(tally: ListingTally) -> str:
    kinds = ", ".join(f"{count:,} {_KIND_WORD.get(k, 'other')}" for k, count in tally.kinds.most_common())
    dirs = len(tally.dirs) + (tally.dirs_more > 0)
    if not tally.skipped:
        return f"listing: {tally.rows:,} rows ({kinds}) in {dirs:,} directories"
    share = tally.rows / (tally.rows + tally.skipped)
    return (
        f"listing: {tally.rows + tally.skipped:,} lines; counted in a sample of {share:.0%} of them"
        f" (1 MB blocks, evenly spread): {tally.rows:,} rows ({kinds}) in {dirs:,} directories"
    )


def _ends(tally: ListingTally, budget_chars: int) -> list[str]:
    """The first and last rows verbatim, as many of them as ``budget_chars`` holds."""
    for keep in range(_LAST_ROWS, 0, -1):
        rows = [f"{n}: {line[:300]}" for n, line in tally.first[: min(keep, _FIRST_ROWS)]]
        if tally.last:
            rows += ["..."] + [f"{n}: {line[:300]}" for n, line in list(tally.last)[-keep:]]
        if sum(len(r) + 1 for r in rows) <= budget_chars:
            break
    return ["first and last rows:", *rows]


def _shared(left: str, right: str) -> str:
    """The characters ``left`` and ``right`` start with (names, not paths: ``libz.so`` of
    ``libz.so.1`` and ``libz.so.1.2.13``)."""
    size = 0
    for a, b in zip(left, right, strict=False):
        if a != b:
            break
        size += 1
    return left[:size]


class _Run:
    """Consecutive names of one directory that share a prefix: ``libz.so{@,.1@,.1.2.13}``."""

    def __init__(self, name: str) -> None:
        self.names = [name]
        self.prefix = name

    @staticmethod
    def cost(names: list[str], prefix: str) -> int:
        if len(names) == 1:
            return len(names[0]) + 1
        return len(prefix) + 2 + sum(len(n) - len(prefix) + 1 for n in names)

    def joined(self, name: str) -> int | None:
        """What adding ``name`` costs in characters, or None when it is cheaper as a run of its own."""
        if _PLAIN.fullmatch(name) is None or _PLAIN.fullmatch(self.names[0]) is None:
            return None
        prefix = _shared(self.prefix, name)
        if len(prefix) < _MIN_PREFIX:
            return None
        grown = self.cost([*self.names, name], prefix) - self.cost(self.names, self.prefix)
        return grown if grown < len(name) + 1 else None

    def add(self, name: str) -> None:
        self.names.append(name)
        self.prefix = _shared(self.prefix, name)

    def __str__(self) -> str:
        if len(self.names) == 1:
            return self.names[0]
        cut = len(self.prefix)
        return self.prefix + "{" + ",".join(n[cut:] for n in self.names) + "}"


def _names(tally: ListingTally, budget_chars: int) -> list[str]:
    """The first names, grouped under their directory, within ``budget_chars``."""
    groups: dict[str, list[_Run]] = {}
    used = shown = 0
    for folder, name, kind in tally.names:
        shown_name = (f"'{name}'" if " " in name else name) + _MARK.get(kind, "")
        runs = groups.get(folder)
        grown = runs[-1].joined(shown_name) if runs else None
        cost = grown if grown is not None else len(shown_name) + 1 + (len(folder) + 3 if runs is None else 0)
        if used + cost > budget_chars:
            break
        if grown is not None and runs:
            runs[-1].add(shown_name)
        else:
            groups.setdefault(folder, []).append(_Run(shown_name))
        used += cost
        shown += 1
    if not shown:
        return []
    total = tally.rows + tally.skipped
    which = f"all {shown:,}" if shown >= total else f"the first {shown:,} of {total:,}"
    out = [f"names ({which}, in listing order; dir/, link@, a{{b,c}} = ab ac):"]
    for folder, runs in groups.items():
        if folder:
            out.append(f"@ {folder}")
        row: list[str] = []
        width = 0
        for text in map(str, runs):
            if row and width + len(text) + 1 > _ROW_CHARS:
                out.append(" ".join(row))
                row, width = [], 0
            row.append(text)
            width += len(text) + 1
        out.append(" ".join(row))
    return out


def summary_lines(tally: ListingTally, budget_chars: int) -> list[str] | None:
    """The summary's lines within about ``budget_chars``; None when the lines that are not rows
    alone do not fit (or past the cap): the engine's rendering groups those."""
    other = [f"{n}: {line}" for n, line in sorted(tally.other)]
    left = budget_chars - sum(len(o) + 1 for o in other)
    if tally.other_more or left < budget_chars // 4:
        return None
    out = [_head(tally)]
    ends = _ends(tally, left // 6)
    left -= sum(len(r) + 1 for r in [*out, *ends])
    counts = max(left // 8, 160)
    if len(tally.dirs) > 1 or tally.dirs_more:
        out.append(_counted("rows per directory", tally.dirs, counts, "(top level)", "/"))
    out.append(_counted("rows per extension", tally.exts, counts, "(none)"))
    left -= sum(len(r) + 1 for r in out[1:])
    out += ends
    out += _names(tally, left)
    if other:
        out += ["lines that are not listing rows:", *other]
    return out
