"""A small report shown as its own lines, less what the agent never reads: the folded form.

Under the pass-through size (10,000 tokens), a compiler, linter or type-checker report with source
snippets (:mod:`summarizer.output.snippets`) and a pytest failure report
(:func:`summarizer.output.testrun.small_form`) are shown as their own lines, verbatim and in
order, less the snippets or the test source, progress rows and banners. Every location, message,
``E`` line, failing test id and summary stays. The form is used when it saves at least a quarter
(and, above the floor, when it is smaller than the rendering); its header says what was folded
and names the restore id that gives it back, then the first error unless it is the first row (or,
for an output under the floor, one of its rows: it is read whole at a glance).
"""

from __future__ import annotations

from summarizer.output.snippets import fold_snippets
from summarizer.output.testrun import small_form

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from summarizer.output.header import Verdict

__all__ = ["folded_form"]

_FIRST_CHARS = 120
_AT_ONCE = 1


def _same(first: str, row: str) -> bool:
    """Does ``row`` show the first error (the engine may have joined a headline and its arrow)?"""
    first, row = first.strip(), row.strip()
    return bool(row) and (row in first or first in row)


def folded_form(original: str, verdict: Verdict, *, under_floor: bool = False) -> str | None:
    """The folded form of ``original``, or ``None`` when it has nothing such to fold.

    ``under_floor``: the output is small enough to be read whole at a glance, so its one header
    line is all the form adds (the first error is among its few rows)."""
    lines = original.splitlines()
    kept, what = fold_snippets(original), "source snippets"
    if kept is None:
        kept, what = small_form(original), "test source, progress"
    if kept is None:
        return None
    folded = len(lines) - len(kept)
    restore = verdict.restore_id[:16]
    header = [f"[summarizer output · {folded:,} of {len(lines):,} lines folded ({what}) · restore {restore}]"]
    first = verdict.first_error
    # A first error that is the first row is seen at once: naming it again would cost its length.
    seen = kept if under_floor else kept[:_AT_ONCE]
    if first is not None and not any(_same(first.text, row) for row in seen):
        text = first.text if len(first.text) <= _FIRST_CHARS else first.text[:_FIRST_CHARS] + "…"
        header.append(f"first error (line {first.line}): {text.strip()}")
    return "\n".join([*header, *kept]) + "\n"
