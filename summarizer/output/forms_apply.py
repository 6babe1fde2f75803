"""Where a compact form replaces the engine's rendering (or the original passing through).

Called once by :func:`summarizer.output.compressor.compress_plain` after the shape is known:

* a listing, version-control output or search hits, or any output under the floor, whose whole
  text has a compact form (:func:`summarizer.output.forms.compact_form`) gets that form when it
  saves at least :data:`MIN_SAVING` (under the pass-through size), fits ``--target`` when one is
  given, or fits the default budget above the pass-through size;
* a listing too big for its compact form is summarised as a listing
  (:func:`summarizer.output.forms.listing_summary`, a second pass over the stored original);
* in these shapes a row (a listed name, a commit message, a search hit) is never the first error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from summarizer.core.records import replace
from summarizer.output import verdicts
from summarizer.output.forms import (
    FORM_MAX_BYTES,
    Parsed,
    compact_form,
    is_form_row,
    listing_tally,
    piece_count,
    render_form,
    saves_estimated,
    summary_lines,
)
from summarizer.output.forms_table import is_table
from summarizer.output.header import header_lines, restore_hint
from summarizer.output.kept import DEFAULT_BUDGET, DEFAULT_THRESHOLD, Rendering
from summarizer.output.lines import strip_ansi
from summarizer.output.shape import Shape

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from summarizer.output.header import Verdict
    from summarizer.output.originals import OriginalStore
    from summarizer.output.snapshot import Snapshot

__all__ = ["FORM_SHAPES", "MIN_SAVING", "form_rendering", "table_shape", "without_row_errors"]

FORM_SHAPES = frozenset({"listing", "vcs", "search", "table"})
# Under the pass-through size a form must save this share of the tokens, header included, or the
# original passes through (see _saves for how it is told without the tokenizer).
MIN_SAVING = 0.25
_READ = 1 << 20
# Shapes a table is read as by its line templates (one row shape: "repetitive"): its head decides.
_TABLE_FROM = frozenset({"repetitive", "records", "log"})
_TABLE_HEAD = 64 << 10
# A listing summary reads about this much of a big listing (1 MB blocks evenly spread, the first and
# the last always) and says so: its counts are those of the sample. 60 MB of find -ls costs about
# 1.5-2 s of CPU to count whole, several times the engine's own pass over it (0.3 s).
SAMPLE_BYTES = 8 << 20
# Counted lists of paths and numbers cost more tokens per byte than logs (2.0 bytes a token for
# "/usr/share/doc/ 885 · .gz 1,293"): the summary is cut to this many characters a token.
_SUMMARY_CHARS_PER_TOKEN = 2.0
_REFITS = 4
_GOAL = 0.93
# Without the tokenizer a summary is costed no lower than its pieces say (see forms.piece_count).
_PIECE_TOKENS = 1.1


def without_row_errors(verdict: Verdict, snap: Snapshot, shape: str) -> Verdict:
    """``verdict`` whose first error is not a row of a listing, a search hit or a commit message."""
    first = verdict.first_error
    if shape not in FORM_SHAPES or first is None or not is_form_row(shape, first.text):
        return verdict
    coords = [c for c in snap.coords if not is_form_row(shape, c.text)]
    return replace(verdict, first_error=verdicts.first_error(coords))


def _first_in(verdict: Verdict, form: Parsed) -> Verdict:
    """A form's rows are never errors: the first error stands only when the form shows it as a
    line of its own (a listing's ``N: find: '/x': Permission denied``, a search's ``grep: x: No
    such file or directory``); a table's rows are shown whole, so there only a numbered line."""
    first = verdict.first_error
    body = form.body
    if (
        first is None
        or f"{first.line}: {first.text}" in body
        or (form.name != "table" and first.text in body)
    ):
        return verdict
    return replace(verdict, first_error=None)


def _saves(original: str, text: str, *, exact: bool, cost: int, tokens: int) -> bool:
    """Whether ``text`` saves :data:`MIN_SAVING` of ``original``: in tokens when they were counted,
    else estimated (:func:`summarizer.output.forms.saves_estimated`)."""
    if exact:
        return cost <= tokens * (1 - MIN_SAVING)
    return saves_estimated(original, text, MIN_SAVING)


def _limit(tokens: int, target_tokens: int | None, shape: str) -> int | None:
    """The most a form may cost, or None when the original should be left as it is.

    Above the pass-through size a git log or a search keeps every hash or hit up to a third of
    the input (the engine's own rendering of them keeps every commit line too); a listing past
    the budget is summarised instead."""
    if target_tokens is not None:
        return target_tokens if tokens > target_tokens else None
    if tokens <= DEFAULT_THRESHOLD:
        return int(tokens * (1 - MIN_SAVING))
    return DEFAULT_BUDGET if shape == "listing" else max(DEFAULT_BUDGET, tokens // 3)


def _blocks(store: OriginalStore, restore_id: str) -> Iterator[bytes]:
    """The stored original in blocks of whole lines (the last newline cut). Our own fresh file,
    so no hash check; bounded memory."""
    rest = b""
    with open(store.location(restore_id), "rb") as handle:
        while block := handle.read(_READ):
            block = rest + block
            cut = block.rfind(b"\n")
            if cut < 0:
                rest = block
                continue
            rest = block[cut + 1 :]
            yield block[:cut]
    if rest:
        yield rest


def _decoded(block: bytes) -> str:
    return strip_ansi(block.decode("utf-8", "replace")).replace("\r\n", "\n")


def _chunks(store: OriginalStore, restore_id: str, every: int = 1) -> Iterator[tuple[int, str | None, int]]:
    """(lines before, decoded text or None, lines) per block: every ``every``-th block is read,
    and the first and the last always; the others are only counted."""
    before = 0
    previous: bytes | None = None
    index = 0
    for block in _blocks(store, restore_id):
        if previous is not None:
            keep = index % every == 0
            lines = previous.count(b"\n") + 1
            yield before, _decoded(previous) if keep else None, lines
            before += lines
            index += 1
        previous = block
    if previous is not None:
        yield before, _decoded(previous), previous.count(b"\n") + 1


def table_shape(store: OriginalStore, restore_id: str, shape: Shape, size: int) -> Shape:
    """``shape``, or the table shape when the output opens with a table (a header of column names
    over aligned rows with distinct keys): a table's rows are data, never repetition to sample."""
    if shape.name not in _TABLE_FROM or size > FORM_MAX_BYTES:
        return shape
    head = next(_blocks(store, restore_id), b"")[:_TABLE_HEAD]
    lines = _decoded(head).splitlines()
    lines = lines[:-1] if size > len(head) else lines
    return Shape("table", True, False) if is_table(lines) else shape


def form_rendering(
    store: OriginalStore,
    snap: Snapshot,
    verdict: Verdict,
    *,
    shape: str,
    floor_tokens: int,
    target_tokens: int | None,
    engine_target: int | None,
    count: Callable[[str], int],
) -> Rendering | None:
    """The compact form's (or the listing summary's) rendering, or None to go on as before."""
    tokens = verdict.original_tokens
    if shape not in FORM_SHAPES and tokens > floor_tokens:
        return None
    limit = _limit(tokens, target_tokens, shape)
    if limit is None:
        return None
    from summarizer.core.scrub import scrub

    if verdict.total_bytes <= FORM_MAX_BYTES:
        original = "\n".join(map(_decoded, _blocks(store, verdict.restore_id)))
        form = compact_form(original)
        saving_rule = target_tokens is None and tokens <= DEFAULT_THRESHOLD
        while form is not None and not (saving_rule and form.lossy):
            text, found = scrub(render_form(form, verdict.restore_id))
            cost = count(text)
            fits = (
                _saves(original, text, exact=verdict.exact, cost=cost, tokens=tokens)
                if saving_rule
                else cost <= limit or form.last_resort
            )
            if fits:
                verdict = _first_in(verdict, form)
                return verdict.rendering(
                    snap, text=text, compressed=cost, target=limit, redactions=len(found)
                )
            form = form.shorter
    if shape != "listing" or tokens <= floor_tokens:
        return None
    budget = engine_target if engine_target is not None else min(limit, DEFAULT_BUDGET)
    header = header_lines(snap, verdict, [])
    hint = restore_hint(verdict.restore_id, snap.lines)
    room = budget - count("\n".join([*header, hint])) - 4
    # Failures keep their context here too: the lines heading them, their blocks, the lines around.
    kept = {n: text for n, text in snap.context} | {c.line: c.text for c in snap.coords}
    every = -(-verdict.total_bytes // SAMPLE_BYTES)
    chunks = _chunks(store, verdict.restore_id, every)
    chars = int(max(room, 50) * _SUMMARY_CHARS_PER_TOKEN)
    # Names are kept up to twice the first guess: a summary under the budget grows into it.
    tally = listing_tally(chunks, chars * 2, kept)
    best: tuple[str, int, int] | None = None
    # Aimed a little under the budget: an estimated count can be short of the real one.
    goal = budget * _GOAL
    for _ in range(_REFITS):
        body = summary_lines(tally, chars)
        if body is None:
            return None
        text, found = scrub("\n".join([*header, *body, hint]) + "\n")
        cost = count(text) if verdict.exact else max(count(text), int(piece_count(text) * _PIECE_TOKENS))
        if cost <= budget and (best is None or cost > best[1]):
            best = (text, cost, len(found))
        if cost <= budget and (cost >= goal * 0.9 or tally.names_used <= chars):
            break
        # Names cost more or fewer tokens a character than guessed (libabsl_failure_signal_handler.so
        # against a run of short names): scale the characters to the budget and render again.
        chars = int(chars * goal / max(cost, 1))
    text, cost, redactions = best or (text, cost, len(found))
    return verdict.rendering(snap, text=text, compressed=cost, target=budget, redactions=redactions)
