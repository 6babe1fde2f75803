"""Tool-output compression: stream the input once, keep every coordinate, render within a budget.

Public entry point: :func:`compress`. It reads a binary stream chunk by chunk, stores the original
byte-for-byte in the content-addressed store while reading (so the original is always one
``summarizer restore`` away), runs the :class:`~summarizer.output.engine.Engine` over the chunks
and renders the result with :func:`~summarizer.output.render.render`.

Token counts use the real o200k tokenizer (:func:`summarizer.core.tokens.count_tokens`). Counting is
about 1 MB/s, so past :data:`EXACT_TOKEN_BYTES` (256 KB) the original's count is extrapolated from every
:data:`TOKEN_SAMPLE_EVERY`-th chunk and ``original_tokens_exact`` says so.

Pass-through: inputs under the floor (500 tokens) come back unchanged; byte-identical unless the
scrubber had to redact a secret. Above the floor the output's shape decides
(:mod:`summarizer.output.shape`): a test run, a report, a listing, search hits, version-control
output or a one-shape log is compressed at any size; content to read and other shapes pass
through up to 10,000 tokens. A test run where every test passed collapses to its summary.
"""

from __future__ import annotations

import dataclasses
from typing import BinaryIO, Literal

from summarizer.core.scrub import KeyBlocks
from summarizer.core.tokens import count_tokens, is_exact
from summarizer.output.classify import decide
from summarizer.output.engine import Engine, ExtraRules
from summarizer.output.lines import iter_chunks
from summarizer.output.models import DEFAULT_BUDGET, DEFAULT_THRESHOLD, OutputOptions, OutputResult
from summarizer.output.originals import OriginalStore, TeeReader
from summarizer.output.progress import Progress, terminal_progress
from summarizer.output.render import passthrough_result, render
from summarizer.output.shape import Shape
from summarizer.output.verdicts import all_pass

__all__ = ["compress", "resolve_target"]

EXACT_TOKEN_BYTES = 1 << 18
TOKEN_SAMPLE_EVERY = 4
TOKEN_SAMPLE_BYTES = 16 * 1024
MIN_TARGET = 150
# Under the pass-through size, a rendering that saves less than this share is not worth reading
# instead of the original: the original passes through.
MIN_SAVING = 0.25


class _TokenEstimate:
    """Exact token count for the first 256 KB, then a 16 KB slice of every 4th chunk, extrapolated.

    The tokenizer runs at about 1 MB/s, so counting a 100 MB log exactly would cost more than the
    whole compression; the slices keep the estimate within a few percent on real logs.
    """

    def __init__(self) -> None:
        self.tokens = 0
        self.bytes = 0
        self.chunks = 0
        self.complete = True

    def add(self, data: bytes) -> None:
        """Count (or sample) one chunk of complete lines."""
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
        if total_bytes == 0:
            return 0, is_exact()
        if self.complete and self.bytes >= total_bytes:
            return max(self.tokens - (0 if ends_with_newline else 1), 0), is_exact()
        return round(self.tokens * total_bytes / max(self.bytes, 1)), False


def resolve_target(
    original_tokens: int, options: OutputOptions, *, all_passed: bool = False, shape: Shape | None = None
) -> int | None:
    """The token budget, or ``None`` when the input passes through unchanged.

    Above the floor, an output with a compressible shape (a test run, a report, a listing, search
    hits, version-control output, a log that is mostly one line shape) is compressed at any size,
    to a sixth of its size (at least :data:`MIN_TARGET`, at most the default budget); other
    output is compressed above 10,000 tokens. A test run where everything passed always collapses
    to its summary: hundreds of PASSED lines tell an agent nothing the counts do not.
    """
    if original_tokens <= options.floor_tokens:
        return None
    if options.target_tokens is not None:
        return None if original_tokens <= options.target_tokens else options.target_tokens
    if all_passed:
        return DEFAULT_BUDGET
    if original_tokens > DEFAULT_THRESHOLD:
        return DEFAULT_BUDGET
    if shape is not None and shape.compressible:
        return min(DEFAULT_BUDGET, max(original_tokens // 6, MIN_TARGET))
    return None


def compress(
    stream: BinaryIO,
    store: OriginalStore,
    options: OutputOptions | None = None,
    *,
    progress: Progress | Literal["auto"] | None = "auto",
) -> OutputResult:
    """Compress one tool output read from ``stream``; the original is kept in ``store``.

    ``progress`` is told the bytes read after each chunk; ``"auto"`` (the default) reports on
    stderr when it is a terminal and the input passes 50 MB, ``None`` never reports.

    Raises :class:`~summarizer.output.originals.OriginalNotStored` when the store cannot be
    written; it carries the bytes already read, and ``stream`` is left just past them.
    """
    options = options or OutputOptions()
    writer = store.writer()
    engine = Engine(rules=ExtraRules.compile(options.failure_patterns, options.noise_patterns))
    keys = KeyBlocks()
    counter = _TokenEstimate()
    report = terminal_progress() if progress == "auto" else progress
    try:
        for chunk in iter_chunks(TeeReader(stream, writer)):
            # Key blocks are redacted before the engine folds or drops any line (see KeyBlocks).
            engine.feed(dataclasses.replace(chunk, data=keys(chunk.data)))
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
    total_bytes = writer.size
    original_tokens, exact = counter.total(total_bytes, ends_with_newline=writer.ends_with_newline)
    shape = engine.shape()
    target = resolve_target(original_tokens, options, all_passed=all_pass(engine), shape=shape)
    if target is None and writer.dropped:
        target = max(original_tokens, 1)  # too big to store, so no stored copy to pass through
    classification = decide(engine.family_counts())
    if target is None:
        return passthrough_result(
            store, restore_id, engine, classification, original_tokens, exact, total_bytes, options
        )
    result = render(
        engine,
        store_id=restore_id,
        classification=classification,
        original_tokens=original_tokens,
        exact=exact,
        total_bytes=total_bytes,
        target=target,
        options=options,
        content=shape.content,
    )
    optional = options.target_tokens is None and original_tokens <= DEFAULT_THRESHOLD and not writer.dropped
    if optional and result.compressed_tokens > original_tokens * (1 - MIN_SAVING):
        return passthrough_result(
            store, restore_id, engine, classification, original_tokens, exact, total_bytes, options
        )
    return result
