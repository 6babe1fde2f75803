"""Compact forms of listings, version-control output and search hits, at every size.

:func:`compact_form` reads a whole output and returns its compact form, or None when some line is
not understood (then the engine's rendering, or the original, is used as before). The forms keep
every path, name, line number, hash and status; they group instead of repeating, and drop only
columns and hints (dates, inodes, link counts, ``(use "git add" ...)``) that the original, one
``summarizer restore`` away, still holds. A form names no first error: its rows are names, commits
and hits, never failures.

:func:`render_form` puts one header line above the body (docs/tool-output.md, "Listings, version
control and search"): ``[summarizer · git status · 4 paths · restore 1a2b3c4d]``.

:func:`listing_summary` summarises a listing too big for its compact form, as a listing: rows per
kind, directory and extension, the first and last rows, and every line that is not a row.
"""

from __future__ import annotations

from collections.abc import Iterable

from summarizer.core.lazyre import lazy
from summarizer.output.forms_listing import ListingTally, Row, compact_listing, parse_bare, parse_row
from summarizer.output.forms_listing_summary import summary_lines
from summarizer.output.forms_search import BARE_HIT, CONTEXT, HIT, search_form
from summarizer.output.forms_table import table_form
from summarizer.output.forms_vcs import PARSERS, Parsed

__all__ = [
    "FORM_MAX_BYTES",
    "Parsed",
    "compact_form",
    "is_form_row",
    "listing_summary",
    "listing_tally",
    "piece_count",
    "render_form",
    "saves_estimated",
    "summary_lines",
]

# A form is built from the whole text: above this the listing summary (streamed) or the engine's
# rendering is used instead.
FORM_MAX_BYTES = 4 << 20
# A listing may hold a few lines that are not rows (find: '/x': Permission denied); past this
# share it is not read as a listing.
_OTHER_SHARE = 0.1
_PIECES = lazy(r"\w+|[^\w\s]")
_SECTION = lazy(r"^(?P<dir>\S(?:.*\S)?):$")
_TOTAL = lazy(r"^total \d+(?:[.,]\d+)?[KMGTPk]?$")
# A commit message line, a commit, a status entry (long and short form): rows, never errors.
_VCS_ROW = lazy(
    r"^(?:    |\t|commit [0-9a-f]{7,64}\b|(?:(?:[|\\/_.-] +)*\* +(?:[|\\/_.-] +)*)?[0-9a-f]{7,12} "
    r"|(?! {2})[ MTADRCU?!]{2} \S)"
)
# A compiler's or linter's located message looks like a hit (a.c:3:5: error: ...): not search.
_DIAGNOSTIC = lazy(
    r"^(?:\d+:)*\s?(?:(?:fatal )?error|warning|note|info|remark|hint)\b|^(?:\d+:)*\s?[A-Z]{1,4}\d{2,5}\b"
)


def _is_row(lines: list[str], n: int) -> bool:
    """Is line ``n`` (1-based) a listing row?"""
    return n >= 1 and (parse_row(lines[n - 1]) is not None or parse_bare(lines[n - 1]) is not None)


def _listing_form(lines: list[str]) -> Parsed | None:
    rows: list[Row] = []
    sections: dict[int, str] = {}
    other: list[tuple[int, str]] = []
    bare = 0
    for n, line in enumerate(lines, 1):
        if not line.strip() or _TOTAL.match(line):
            continue
        row = parse_row(line)
        if row is None and (section := _SECTION.match(line)) is not None and " " not in line:
            sections[len(rows)] = section.group("dir").rstrip("/") + "/"
            continue
        if row is None and (row := parse_bare(line)) is not None:
            bare += 1
        if row is None:
            if line[:1].isspace() and _is_row(lines, n - 1) and other[-1:] != [(n - 1, lines[n - 2])]:
                # An indented message under a path (eslint's stylish report) is about that path.
                other.append((n - 1, lines[n - 2]))
            other.append((n, line))
            continue
        rows.append(row)
    if len(rows) < 2 or len(other) > _OTHER_SHARE * len(rows):
        return None
    # Bare names are names only when they look like paths, not like sentences.
    if bare and sum(" " in r.name for r in rows) * 5 > len(rows):
        return None
    summary, body = compact_listing(rows, sections)
    # The lines that are not rows come first: they are where a listing's errors are.
    body = [f"{n}: {line}" for n, line in other] + body
    return Parsed("listing", summary, tuple(body))


def _search(lines: list[str]) -> Parsed | None:
    for line in lines:
        found = HIT.match(line) or BARE_HIT.match(line)
        if found is not None and _DIAGNOSTIC.match(found.group("text")):
            return None
    return search_form(lines)


def compact_form(text: str) -> Parsed | None:
    """The compact form of ``text`` (git status/log/show/diff --stat, a listing, search hits, a table)."""
    lines = text.splitlines()
    if len(lines) < 2:
        return None
    for parse in (*PARSERS, _search, _listing_form, table_form):
        form = parse(lines)
        if form is not None:
            return form
    return None


def saves_estimated(original: str, text: str, share: float = 0.25) -> bool:
    """Whether ``text`` saves ``share`` of the tokens of ``original``, without the tokenizer: the
    mean of an estimate from the bytes (pessimistic on the paths and columns a form drops) and
    one from the word and punctuation pieces (optimistic: a hash is one piece)."""
    by_bytes = len(text) / max(len(original), 1)
    by_pieces = len(_PIECES.findall(text)) / max(len(_PIECES.findall(original)), 1)
    return (by_bytes + by_pieces) / 2 <= 1 - share


def piece_count(text: str) -> int:
    """The word and punctuation pieces of ``text``: no fewer than its tokens, give or take a tenth,
    on names and paths whose punctuation a bytes estimate under-rates (``libGL.so{@,.1@,.1.7.0}``)."""
    return len(_PIECES.findall(text))


def render_form(form: Parsed, restore_id: str) -> str:
    """One header line (what it is, how much, how to get the original back), then the body."""
    head = f"[summarizer · {form.name} · {form.summary} · restore {restore_id[:8]}]"
    return "\n".join([head, *form.body]) + "\n"


def is_form_row(shape: str, text: str) -> bool:
    """True for a line that is a row of a listing, a hit of a search or a line of a commit
    message: such a line is never the output's first error."""
    if shape == "listing":
        return parse_row(text) is not None or parse_bare(text) is not None
    if shape == "search":
        found = HIT.match(text) or BARE_HIT.match(text)
        return (found is not None and not _DIAGNOSTIC.match(found.group("text"))) or bool(CONTEXT.match(text))
    if shape == "vcs":
        return bool(_VCS_ROW.match(text))
    return False


def listing_tally(
    chunks: Iterable[tuple[int, str | None, int]], name_chars: int, kept: dict[int, str] | None = None
) -> ListingTally:
    """A big listing counted as a listing, the first names kept up to ``name_chars`` characters.

    ``chunks``: (lines before, text of whole lines without the last newline, or None for a chunk
    left out of the sample, its number of lines). ``kept``: lines shown whatever they are (the
    engine's coordinates)."""
    tally = ListingTally(name_chars=name_chars)
    kept = kept or {}
    tally.other.extend(kept.items())
    for n0, text, lines_in in chunks:
        tally.add_chunk(n0, text, lines_in, kept)
    return tally


def listing_summary(
    chunks: Iterable[tuple[int, str | None, int]], budget_chars: int, kept: dict[int, str] | None = None
) -> list[str] | None:
    """A big listing summarised as a listing, within about ``budget_chars``; None when the lines
    that are not rows do not fit (the engine's rendering groups them)."""
    return summary_lines(listing_tally(chunks, budget_chars, kept), budget_chars)
