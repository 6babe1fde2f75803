"""Reports whose rows carry a rule code but no severity, folded by code when they alone overflow.

ruff, flake8, pycodestyle or shellcheck print ``CODE message`` rows (on one line after the location,
or above a ``  --> file:line:col`` arrow) without ``error``/``warning``: every row is as much a
failure as any other, so none can be dropped as a warning would be, and thousands of them cannot
all be listed within a target either. When such rows alone would take more than the target, they
fold by rule code: the report's first row stays whole in the kept lines (it is the first error),
and each code gets one line, in order of first appearance, at the detail the budget allows:

* always its count and the span of output lines its rows sit in (``Q000 ×2,352 (lines 81…111628)``,
  each row restorable from there);
* then, in order of first appearance, the first row's message verbatim;
* then, codes with the fewest rows first (so that the most codes are complete), every location
  per file (``docs/conf.py 20:36 29:11``), or failing that the count per file.

A row with a severity (``error:``, ``warning``) is never folded here: errors stay whole and warnings
are grouped by (file, code) by :mod:`~summarizer.output.grouping`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence

from summarizer.core.records import field, record
from summarizer.output.blocks import CoordEntry
from summarizer.output.kept import Kept
from summarizer.output.rows import MIN_ROWS, CodedRow, coded_row, is_arrow, led_by_severity
from summarizer.output.verdicts import names_defect

__all__ = ["CODES_TITLE", "CodeGroup", "Coded", "coded_rows", "render_codes"]

CODES_TITLE = "--- rows without a severity, by rule code: count (output lines), first message, locations ---"


@record
class CodeGroup:
    """Every row of one rule code, in output order."""

    code: str
    rows: list[CodedRow] = field(default_factory=list)

    def count(self) -> int:
        return len(self.rows)

    def span(self) -> str:
        first, last = self.rows[0].lines[0], max(r.lines[-1] for r in self.rows)
        return f"line {first}" if first == last else f"lines {first}…{last}"

    def places(self) -> str:
        """Every row's place per file: ``docs/conf.py 20:36 29:11; setup.py 1:1``."""
        by_file: dict[str, list[str]] = {}
        for row in self.rows:
            by_file.setdefault(row.file, []).append(row.place)
        return "; ".join(f"{file} {' '.join(places)}" for file, places in by_file.items())

    def per_file(self) -> str:
        counts: dict[str, int] = {}
        for row in self.rows:
            counts[row.file] = counts.get(row.file, 0) + 1
        return "; ".join(f"{file} ×{n:,}" for file, n in counts.items())


@record(frozen=True)
class Coded:
    """What folding by code leaves: the coordinates still listed, the code groups, and the folded
    rows' blocks (exclusive line ranges: a source snippet, a fix's diff, up to the next row)."""

    listed: list[Kept]
    groups: list[CodeGroup]
    blocks: list[tuple[int, int]]
    folded: frozenset[int]

    def inside(self, line: int) -> bool:
        """True for a folded row's own line or a line of its block."""
        if line in self.folded:
            return True
        at = bisect_right(self.blocks, (line, line))
        return any(
            0 <= k < len(self.blocks) and self.blocks[k][0] < line < self.blocks[k][1] for k in (at - 1, at)
        )


def coded_rows(coords: Sequence[Kept], entries: dict[int, CoordEntry], limit: int) -> Coded | None:
    """The report folded by code, when its coded rows alone hold more than ``limit`` characters
    (else None). The first row stays listed (message and location), with its block."""
    heads = {c.line: c for c in coords}
    rows: list[CodedRow] = []
    for coord in coords:
        entry = entries.get(coord.line) if is_arrow(coord) else None
        row = coded_row(coord, heads.get(entry.head) if entry is not None and entry.head else None)
        if row is not None:
            rows.append(row)
    size = sum(len(row.message) + len(row.file) + len(row.place) for row in rows)
    if len(rows) < MIN_ROWS or size <= limit:
        return None
    groups: dict[str, CodeGroup] = {}
    for row in rows:
        groups.setdefault(row.code, CodeGroup(row.code)).rows.append(row)
    # Each row's block: the lines up to the next row; the last one's, up to the tool's closing
    # tally or a line led by a severity (another tool's own error).
    after = [
        c.line
        for c in coords
        if c.line > rows[-1].lines[-1] and (c.kind == "summary" or led_by_severity(c.text))
    ]
    ends = [row.lines[0] for row in rows[1:]] + [after[0] if after else coords[-1].line + 1]
    # Every row folds with its block, but the first one and those whose message names a defect (an
    # undefined name): they stay whole, as an error would.
    folding = [
        (row, end)
        for row, end in zip(rows, ends, strict=True)
        if row is not rows[0] and not names_defect(row.message)
    ]
    folded = frozenset(n for row, _ in folding for n in row.lines)
    blocks = [(row.lines[-1], end) for row, end in folding if end - row.lines[-1] > 1]
    coded = Coded([], list(groups.values()), blocks, folded)
    coded.listed.extend(c for c in coords if not coded.inside(c.line))
    return coded


def render_codes(groups: Sequence[CodeGroup], budget: int, count: Callable[[str], int]) -> list[str]:
    """One line per code at the detail that fits ``budget`` tokens (see the module's docstring)."""
    heads = [f"{g.code} ×{g.count():,} ({g.span()})" for g in groups]
    spent = count("\n".join(heads))
    messages = [""] * len(groups)
    for index, group in enumerate(groups):
        # The message verbatim, but for the code the line already starts with.
        text = f": {group.rows[0].message.removeprefix(group.code).lstrip()}"
        cost = count(text)
        if spent + cost > budget:
            break
        messages[index] = text
        spent += cost
    places = [""] * len(groups)
    for index in sorted(range(len(groups)), key=lambda i: groups[i].count()):
        for text in (groups[index].places(), groups[index].per_file()):
            cost = count(f" — {text}")
            if spent + cost <= budget:
                places[index] = f" — {text}"
                spent += cost
                break
    return [head + message + place for head, message, place in zip(heads, messages, places, strict=True)]
