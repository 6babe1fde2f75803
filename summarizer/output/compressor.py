"""Tool-output compression: stream the input once, keep every coordinate, render within a budget.

Public entry point: :func:`compress`. It reads a binary stream chunk by chunk, stores the original
byte-for-byte in the content-addressed store while reading (so the original is always one
``summarizer restore`` away), runs the :class:`~summarizer.output.engine.Engine` over the chunks
and renders the result with :func:`~summarizer.output.render.render`.

Token counts: decisions and budgets use an estimate from the bytes
(:func:`~summarizer.output.kept.estimate_tokens`); the real o200k tokenizer is loaded only when
the caller reports counts (:func:`compress`, ``--json``, the MCP envelope). Counting is about
1 MB/s, so past :data:`EXACT_TOKEN_BYTES` (256 KB) the original's count is extrapolated from every
:data:`TOKEN_SAMPLE_EVERY`-th chunk and ``original_tokens_exact`` says so.

Pass-through: inputs under the floor (500 tokens) come back unchanged; byte-identical unless the
scrubber had to redact a secret. Above the floor the output's shape decides
(:mod:`summarizer.output.shape`): a test run, a report, a listing, search hits, version-control
output or a one-shape log is compressed at any size; content to read and other shapes pass
through up to 10,000 tokens. A test run where every test passed collapses to its summary.
"""

from __future__ import annotations

from summarizer.core.lazyre import lazy
from summarizer.core.records import record, replace
from summarizer.core.scrub import KeyBlocks
from summarizer.output.classify import decide
from summarizer.output.engine import Engine, ExtraRules
from summarizer.output.folded import folded_form
from summarizer.output.forms_apply import form_rendering, table_shape, without_row_errors
from summarizer.output.header import Verdict
from summarizer.output.kept import (
    DEFAULT_BUDGET,
    DEFAULT_FLOOR,
    DEFAULT_THRESHOLD,
    Rendering,
    estimate_bytes,
    estimate_tokens,
)
from summarizer.output.lines import iter_chunks
from summarizer.output.originals import OriginalStore, TeeReader
from summarizer.output.outline import OUTLINE_TOKENS, outline
from summarizer.output.progress import Progress, terminal_progress
from summarizer.output.render import render
from summarizer.output.severity import by_severity
from summarizer.output.shape import DIFF_KEY, VCS_KEY, Shape
from summarizer.output.snapshot import Scrubbed, Snapshot, take, without_hunk_errors
from summarizer.output.testrun import fold_test_source
from summarizer.output.verdicts import all_pass

TYPE_CHECKING = False  # typing stays off the cold path (docs/cold-path.md)
if TYPE_CHECKING:
    from typing import BinaryIO, Literal

    from summarizer.output.models import OutputOptions, OutputResult

__all__ = ["Plan", "compress", "compress_plain", "resolve_target"]

EXACT_TOKEN_BYTES = 1 << 18
TOKEN_SAMPLE_EVERY = 4
TOKEN_SAMPLE_BYTES = 16 * 1024
MIN_TARGET = 300
_RETRIES = 4
# Under the pass-through size, a rendering that saves less than this share is not worth reading
# instead of the original: the original passes through.
MIN_SAVING = 0.25
# Source text past OUTLINE_TOKENS is outlined when it is at most this big (it is read back whole).
OUTLINE_MAX_BYTES = 16 << 20


@record(frozen=True)
class Plan:
    """How to compress (plain values: the cold paths never import pydantic)."""

    target_tokens: int | None = None
    floor_tokens: int = DEFAULT_FLOOR
    exit_code: int | None = None
    exact_tokens: bool = False
    # A team's own rules (rules.toml, docs/rules.md): regexes searched in each line. A failure
    # pattern makes a line an error coordinate; a noise pattern drops a line, unless it is a failure.
    failure_patterns: tuple[str, ...] = ()
    noise_patterns: tuple[str, ...] = ()
    # The output is a file the agent asked to read (`run --content`): outlined or passed through,
    # never compressed as a log, whatever shape its lines have.
    content: bool = False


class _TokenEstimate:
    """Exact token count for the first 256 KB, then a 16 KB slice of every 4th chunk, extrapolated.

    The tokenizer runs at about 1 MB/s and costs 0.5 s and 80 MB to load, so it is used only when
    the caller reports counts (``exact``); otherwise the count is estimated from the bytes.
    """

    def __init__(self, exact: bool) -> None:
        self.exact = exact
        self.tokens = 0
        self.bytes = 0
        self.chunks = 0
        self.complete = True

    def add(self, data: bytes) -> None:
        """Count (or sample) one chunk of complete lines."""
        if not self.exact:
            return
        from summarizer.core.tokens import count_tokens

        self.chunks += 1
        if self.bytes < EXACT_TOKEN_BYTES:
            piece = data
        elif self.chunks % TOKEN_SAMPLE_EVERY == 0:
            cut = data.find(b"\n", TOKEN_SAMPLE_BYTES)
            piece = data if cut < 0 else data[:cut]
            self.complete = False
        else:
            self.complete = False
            return
        # Chunks end where split() removed a newline; count it back.
        self.tokens += count_tokens(piece.decode("utf-8", "replace") + "\n")
        self.bytes += len(piece) + 1

    def total(self, total_bytes: int, *, ends_with_newline: bool) -> tuple[int, bool]:
        """(tokens, exact) for an input of ``total_bytes``."""
        if not self.exact:
            return estimate_bytes(total_bytes), False
        from summarizer.core.tokens import is_exact

        if total_bytes == 0:
            return 0, is_exact()
        if self.complete and self.bytes >= total_bytes:
            return max(self.tokens - (0 if ends_with_newline else 1), 0), is_exact()
        return round(self.tokens * total_bytes / max(self.bytes, 1)), False


def count_exact(text: str, piece: int = 1 << 18) -> int:
    """Token count of a possibly huge rendering, in newline-aligned pieces (bounded memory)."""
    from summarizer.core.tokens import count_tokens

    total, start = 0, 0
    while start < len(text):
        end = text.find("\n", start + piece)
        end = len(text) if end < 0 else end + 1
        total += count_tokens(text[start:end])
        start = end
    return total


def resolve_target(
    original_tokens: int, plan: Plan | OutputOptions, *, all_passed: bool = False, shape: Shape | None = None
) -> int | None:
    """The token budget, or ``None`` when the input passes through unchanged.

    Above the floor, an output with a compressible shape (a test run, a report, a listing, search
    hits, version-control output, a log that is mostly one line shape) is compressed at any size,
    to a sixth of its size (at least :data:`MIN_TARGET`, at most the default budget); other
    output is compressed above 10,000 tokens. A test run where everything passed always collapses
    to its summary: hundreds of PASSED lines tell an agent nothing the counts do not.
    """
    if original_tokens <= plan.floor_tokens:
        return None
    if plan.target_tokens is not None:
        return None if original_tokens <= plan.target_tokens else plan.target_tokens
    if all_passed or original_tokens > DEFAULT_THRESHOLD:
        return DEFAULT_BUDGET
    if shape is not None and shape.compressible:
        return min(DEFAULT_BUDGET, max(original_tokens // 6, MIN_TARGET))
    return None


def _passthrough(store: OriginalStore, snap: Snapshot, verdict: Verdict) -> Rendering:
    """The input itself (scrubbed if it must be)."""
    from summarizer.core.scrub import scrub

    original = b"".join(store.iter_bytes(verdict.restore_id))
    text, found = scrub(original.decode("utf-8", "replace"))
    compressed = verdict.original_tokens
    if found:
        compressed = count_exact(text) if verdict.exact else estimate_tokens(text)
    return verdict.rendering(snap, text=text, compressed=compressed, target=None, redactions=len(found))


def _outlined(store: OriginalStore, snap: Snapshot, verdict: Verdict, exact: bool) -> Rendering | None:
    """A large source file as its outline (definitions, bodies folded), or ``None`` when the outline
    would save too little."""
    from summarizer.core.scrub import scrub

    original = b"".join(store.iter_bytes(verdict.restore_id))
    text, found = scrub(original.decode("utf-8", "replace"))
    shown = outline(text, verdict.restore_id, verdict.original_tokens)
    if shown is None:
        return None
    compressed = count_exact(shown) if exact else estimate_tokens(shown)
    return verdict.rendering(
        snap, text=shown, compressed=compressed, target=compressed, redactions=len(found)
    )


def _folded(store: OriginalStore, snap: Snapshot, verdict: Verdict, plan: Plan) -> Rendering | None:
    """For a report under the pass-through size, its own lines less the source snippets or the test
    source (:mod:`summarizer.output.folded`), when that saves a quarter; else ``None``."""
    small = verdict.original_tokens <= DEFAULT_THRESHOLD and plan.target_tokens is None
    if plan.content or snap.collapse or not small or verdict.total_bytes > OUTLINE_MAX_BYTES:
        return None
    from summarizer.core.scrub import scrub

    original = b"".join(store.iter_bytes(verdict.restore_id)).decode("utf-8", "replace")
    under_floor = _dense_estimate(original) <= plan.floor_tokens
    folded = folded_form(original, verdict, under_floor=under_floor)
    if folded is None or _dense_estimate(folded) > _dense_estimate(original) * (1 - MIN_SAVING):
        return None
    text, found = scrub(folded)
    compressed = count_exact(text) if plan.exact_tokens else estimate_tokens(text)
    return verdict.rendering(snap, text=text, compressed=compressed, target=compressed, redactions=len(found))


def _outline_wanted(tokens: int, plan: Plan, size: int, dropped: bool) -> bool:
    """Only a file the caller says is content (`run --content`) is outlined: an output that merely
    looks like source text (pip -vv, a build log with code in it) may hold failures an outline
    would fold away."""
    over_target = plan.target_tokens is None or tokens > plan.target_tokens
    small_enough = not dropped and size <= OUTLINE_MAX_BYTES
    return plan.content and tokens > OUTLINE_TOKENS and over_target and small_enough


# Runs of one character (pytest's progress dots, rules of `=`): a handful of bytes a token, where
# the estimate assumes 2.7; the saving test discounts them on both sides.
_RUNS = lazy(r"(.)\1{3,}")


def _dense_estimate(text: str) -> int:
    return estimate_tokens(_RUNS.sub(r"\1", text))


def _worth_it(store: OriginalStore, restore_id: str, rendering: str) -> bool:
    """Does the rendering save at least :data:`MIN_SAVING` of an output under the pass-through size?"""
    original = b"".join(store.iter_bytes(restore_id)).decode("utf-8", "replace")
    return _dense_estimate(rendering) <= _dense_estimate(original) * (1 - MIN_SAVING)


def _shape_of(engine: Engine, store: OriginalStore, restore_id: str, plan: Plan, size: int | None) -> Shape:
    """The output's shape: content when the caller says so, a table when it opens with one (``size``
    None: too big to store whole, no table read)."""
    if plan.content:
        return Shape("content", False, True)
    shape = engine.shape()
    return shape if size is None else table_shape(store, restore_id, shape, size)


def compress_plain(
    stream: BinaryIO,
    store: OriginalStore,
    plan: Plan | None = None,
    *,
    progress: Progress | Literal["auto"] | None = "auto",
) -> Rendering:
    """:func:`compress` without pydantic: the cold paths of ``run`` and ``output`` use this."""
    plan = plan or Plan()
    writer = store.writer()
    engine = Engine(rules=ExtraRules.compile(plan.failure_patterns, plan.noise_patterns))
    keys = KeyBlocks()
    counter = _TokenEstimate(plan.exact_tokens)
    report = terminal_progress() if progress == "auto" else progress
    try:
        for chunk in iter_chunks(TeeReader(stream, writer)):
            # Key blocks are redacted before the engine folds or drops any line (see KeyBlocks).
            engine.feed(replace(chunk, data=keys(chunk.data)))
            counter.add(chunk.data)
            if report is not None:
                report(writer.size)
    except BaseException:
        writer.abort()
        raise
    finally:
        if report is not None:
            report.close()
    engine.finish()
    restore_id = writer.commit()
    tokens, exact = counter.total(writer.size, ends_with_newline=writer.ends_with_newline)
    shape = _shape_of(engine, store, restore_id, plan, writer.size if not writer.dropped else None)
    target = resolve_target(tokens, plan, all_passed=all_pass(engine), shape=shape)
    if target is None and writer.dropped:
        target = max(tokens, 1)  # too big to store, so no stored copy to pass through
    clean = Scrubbed()
    key = VCS_KEY if shape.name == "vcs" else DIFF_KEY if shape.name == "content" else None
    snap = take(engine, clean, patterns=target is not None, key=key)
    if shape.name == "test":
        snap, _ = fold_test_source(snap)
    snap = without_hunk_errors(snap) if shape.content else snap
    snap = by_severity(snap)  # a record's own severity line decides its class, for the header too
    verdict = Verdict.of(
        snap,
        content=shape.content,
        classification=decide(engine.family_counts()),
        shape=shape.name,
        original_tokens=tokens,
        exact=exact,
        total_bytes=writer.size,
        restore_id=restore_id,
        exit_code=plan.exit_code,
    )
    if _outline_wanted(tokens, plan, writer.size, bool(writer.dropped)):
        outlined = _outlined(store, snap, verdict, plan.exact_tokens)
        if outlined is not None:
            return outlined
    # Listings, version control and search hits: a compact form at any size (docs/tool-output.md).
    verdict = without_row_errors(verdict, snap, shape.name)
    if not writer.dropped and not plan.content:
        form = form_rendering(
            store,
            snap,
            verdict,
            shape=shape.name,
            floor_tokens=plan.floor_tokens,
            target_tokens=plan.target_tokens,
            engine_target=target,
            count=count_exact if plan.exact_tokens else estimate_tokens,
        )
        if form is not None:
            return form
        if shape.name == "table" and plan.target_tokens is None:
            # A table's rows are data: under the pass-through size whole, never sampled.
            return _passthrough(store, snap, verdict)
    if target is None or (plan.content and not writer.dropped):
        return _folded(store, snap, verdict, plan) or _passthrough(store, snap, verdict)
    result = _fitted(snap, clean, verdict, target, plan.exact_tokens)
    asked = plan.target_tokens is not None and shape.name != "vcs"  # a caller's target wants the header
    if not writer.dropped and not asked and result.compressed_tokens >= tokens:
        # A rendering that keeps every line (each commit row of a long log, each record of a log
        # whose every line is located) only adds numbers: the original says as much, and is shorter.
        return _passthrough(store, snap, verdict)
    optional = plan.target_tokens is None and tokens <= DEFAULT_THRESHOLD and not writer.dropped
    if not optional or snap.collapse:
        return result
    return _smallest(store, snap, verdict, plan, result)


def _fitted(snap: Snapshot, clean: Scrubbed, verdict: Verdict, target: int, exact: bool) -> Rendering:
    """The rendering within ``target``; with exact counts, rendered again while the estimate ran short."""
    scrubbed = clean.redactions
    result = render(snap, clean, verdict, target=target, exact=count_exact if exact else None)
    tighter = target
    for _ in range(_RETRIES if exact else 0):
        if result.compressed_tokens <= target or tighter <= 1:
            break
        # The estimate ran short on this text (numbers cost a token each): shrink the optional
        # tiers by the share it was over, and render again.
        over = result.compressed_tokens - target
        tighter = max(tighter * target // result.compressed_tokens - over, 1)
        again = Scrubbed()
        again.redactions = scrubbed
        result = replace(
            render(snap, again, verdict, target=tighter, exact=count_exact, fold_target=target),
            target_tokens=target,
        )
    return result


def _smallest(
    store: OriginalStore, snap: Snapshot, verdict: Verdict, plan: Plan, result: Rendering
) -> Rendering:
    """Under the pass-through size: the smaller of the rendering and the folded form, if either
    saves enough; else the original."""
    folded = _folded(store, snap, verdict, plan)
    if folded is not None and _dense_estimate(folded.text) < _dense_estimate(result.text):
        return folded
    return result if _worth_it(store, verdict.restore_id, result.text) else _passthrough(store, snap, verdict)


def compress(
    stream: BinaryIO,
    store: OriginalStore,
    options: OutputOptions | None = None,
    *,
    progress: Progress | Literal["auto"] | None = "auto",
) -> OutputResult:
    """Compress one tool output read from ``stream``; the original is kept in ``store``.

    Token counts in the result are the real tokenizer's (``original_tokens_exact`` says when the
    original's count was extrapolated). ``progress`` is told the bytes read after each chunk;
    ``"auto"`` (the default) reports on stderr when it is a terminal and the input passes 50 MB,
    ``None`` never reports.

    Raises :class:`~summarizer.output.originals.OriginalNotStored` when the store cannot be
    written; it carries the bytes already read, and ``stream`` is left just past them.
    """
    from summarizer.output.models import OutputOptions, result_of

    options = options or OutputOptions()
    plan = Plan(
        options.target_tokens,
        options.floor_tokens,
        options.exit_code,
        exact_tokens=True,
        failure_patterns=options.failure_patterns,
        noise_patterns=options.noise_patterns,
        content=options.content,
    )
    return result_of(compress_plain(stream, store, plan, progress=progress))
