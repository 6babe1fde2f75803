"""A pytest run's failures, tight: each failing test's id, its ``file:line``, the ``E`` lines and
the failing assertion; the test's source printed around them is folded.

pytest prints, for every failure, the whole test function (its source indented by four spaces,
its fixtures' values as ``name = value`` lines), then the failing line marked ``>``, the ``E``
lines that explain it and the ``file:line: Error`` location. The source is the same text the
agent can open, repeated for every parametrised case; the verdict is in the ``>``, ``E`` and
location lines. So, for a test run recognised as pytest's:

* the source lines (four-space indented, not ``>`` or ``E``) and the fixture-value lines are
  folded, coordinates or context alike: a line of test source that says ``assert`` or
  ``"Error: ..."`` is not a failure. The footer says how many, and every failure's whole block is
  ``summarizer restore ID --lines a:b`` from its header line to its location line;
* the short test summary's ``FAILED id - message`` rows are folded when the header lists every
  one of their ids (at most 40): the message is in the block's ``E`` lines;
* the rules of ``=``/``_`` that frame section titles are cut to three characters
  (``___ test_name ___``): they cost a dozen tokens a line and say nothing.
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy
from summarizer.core.records import replace
from summarizer.output.lines import decode_line
from summarizer.output.runners import short_summary_id

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from summarizer.output.kept import Kept
    from summarizer.output.snapshot import Snapshot

__all__ = [
    "fold_summary",
    "fold_test_source",
    "folded_note",
    "is_pytest",
    "short_summary",
    "small_form",
    "squeeze_rules",
]

# The marks only pytest's failure report prints: an `E` explanation, a `>` failing line.
_PYTEST_MARK = lazy(r"^(?:E {2,}\S|> {3,}\S)")
_SECTION = lazy(r"^_{3,} .+ _{3,}$")
_SOURCE = lazy(r"^ {4}")
_FIXTURE_VALUE = lazy(r"^[A-Za-z_]\w* = \S")
_RULE = lazy(r"([_=!])\1{4,}")
_SPACED_RULE = lazy(r"^(?:_ ){4,}_?$")
_MAX_LISTED = 40


def is_pytest(coords: tuple[Kept, ...]) -> bool:
    """A pytest failure report: an ``E``/``>`` line and a ``____ test ____`` section header."""
    marks = any(_PYTEST_MARK.match(c.text) for c in coords)
    return marks and any(_SECTION.match(c.text) for c in coords)


# Context that says nothing a kept line does not: a passing test's -v row, a section banner.
_NOISE_CONTEXT = lazy(r"^\S+::\S.* PASSED\b|^={3,} [\w ]+ ={3,}$|^={3,}$")
_PROGRESS = lazy(r"^[.FEsxX]+\s*(?:\[\s*\d+%\])?$")
_CARET = lazy(r"^\s+\^+\s*$")
_FAILURES_BANNER = lazy(r"^={3,} (?:FAILURES|ERRORS) ={3,}$")
_OTHER_BANNER = lazy(r"^={3,} .* ={3,}$")
_SUMMARY_TAIL = lazy(r"\d+ (?:passed|failed|errors?)\b.* in [\d.]+s")


def _source(text: str) -> bool:
    return bool(_SOURCE.match(text) or _FIXTURE_VALUE.match(text) or not text.strip())


def _folded_context(text: str) -> bool:
    return _source(text) or bool(_NOISE_CONTEXT.match(text))


def fold_test_source(snap: Snapshot) -> tuple[Snapshot, int]:
    """``snap`` without the test source pytest printed around its failures; (snapshot, lines folded)."""
    if not is_pytest(snap.coords):
        return snap, 0
    coords = tuple(c for c in snap.coords if not _SOURCE.match(c.text))
    context = tuple((n, text) for n, text in snap.context if not _folded_context(text))
    # A source line with a soft word (`log.warning(...)`) is source all the same.
    soft = tuple(p for p in snap.soft_patterns if not _SOURCE.match(decode_line(p.sample)))
    folded = sum(c.count for c in snap.coords) - sum(c.count for c in coords)
    folded += len(snap.context) - len(context)
    folded += sum(p.count for p in snap.soft_patterns) - sum(p.count for p in soft)
    fields = {"coords": coords, "context": context, "soft_patterns": soft, "source_folded": folded}
    return replace(snap, **fields), folded


def fold_summary(listed: list[Kept], failing: tuple[str, ...]) -> tuple[list[Kept], int]:
    """``listed`` without the short summary's rows when the header names each of their ids; and
    how many were folded."""
    if not failing or len(failing) > _MAX_LISTED:
        return listed, 0
    named = set(failing)
    rows = {id(c) for c in listed if (name := short_summary_id(c.text)) and name in named}
    return [c for c in listed if id(c) not in rows], len(rows)


_ROW = lazy(r"^(\d+[:|~] )([_=!].*)$")


def squeeze_rules(row: str) -> str:
    """A body row whose title is framed by rules, cut to three characters: ``12: ___ test_x ___``."""
    match = _ROW.match(row)
    if not match:
        return row
    prefix, text = match.groups()
    if _SPACED_RULE.match(text):
        return prefix + "_ _ _"
    return prefix + _RULE.sub(r"\1\1\1", text)


def folded_note(snap: Snapshot, summary_rows: int) -> str | None:
    """The footer line saying what of the run was folded."""
    parts = []
    if snap.source_folded:
        parts.append(f"{snap.source_folded:,} lines of test source")
    if summary_rows:
        parts.append(f"{summary_rows} short-summary rows (ids in the header)")
    return f"[folded: {', '.join(parts)}]" if parts else None


def small_form(text: str) -> list[str] | None:
    """A small pytest report as its own lines less the test source, the progress rows, banners and
    blank lines (the short summary stays: this form has no header listing the ids); ``None`` when
    the text is no pytest failure report."""
    lines = text.splitlines()
    if not any(_PYTEST_MARK.match(line) for line in lines) or not any(_SECTION.match(line) for line in lines):
        return None
    kept: list[str] = []
    in_failures = False
    for line in lines:
        if _FAILURES_BANNER.match(line):
            in_failures = True
            continue
        if _OTHER_BANNER.match(line) and not _SUMMARY_TAIL.search(line):
            in_failures = False
            continue
        if _PROGRESS.match(line) or not line.strip():
            continue
        if in_failures and (_SOURCE.match(line) or _FIXTURE_VALUE.match(line) or _CARET.match(line)):
            continue
        kept.append(squeeze_rules(f"0: {line}")[3:])
    return kept


# The short summary's rows: pytest's `FAILED`/`ERROR` and pytest 9's `SUBFAILED(n=1)` subtests.
_SHORT_SUMMARY = lazy(r"^={3,} short test summary info ={3,}$")
_SHORT_ROW = lazy(r"^(?:FAILED|ERROR|SUBFAILED\S*) \S")


def short_summary(lines: list[str]) -> list[str]:
    """The failure rows of the last short test summary in ``lines`` (none past the 40th), or ``[]``."""
    start = next((n for n in range(len(lines) - 1, -1, -1) if _SHORT_SUMMARY.match(lines[n])), None)
    if start is None:
        return []
    return [line for line in lines[start + 1 :] if _SHORT_ROW.match(line)][:_MAX_LISTED]
